import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useAppSelector } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useAbility } from '../hooks/useAbility';

const ACTIONS = ['create', 'read', 'write'] as const;

/** Abilities grouped by subject, from the CASL rules (one row per subject). */
function useAbilityRows() {
  const ability = useAbility();
  return useMemo(() => {
    const subjects = new Set<string>();
    for (const rule of ability.rules) {
      for (const subject of [rule.subject].flat()) if (typeof subject === 'string') subjects.add(subject);
    }
    return [...subjects].sort().map((subject) => ({
      subject,
      actions: ACTIONS.map((action) => ({ action, allowed: ability.can(action, subject) })),
    }));
  }, [ability]);
}

/** /acl: what the signed-in user may do, as their roles grant it. */
export function AclPage() {
  const user = useAppSelector((state) => state.session.user);
  const rows = useAbilityRows();
  return (
    <>
      <PageHeader title="Access Control" subtitle="What your roles allow you to do in this workspace." />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle2" color="text.secondary" gutterBottom>
            Your roles
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
            {user?.roles.map((role) => (
              <Chip key={role.id} label={role.name} color="primary" variant="outlined" />
            ))}
            <Chip label={`User type: ${user?.user_type ?? '-'}`} />
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <TableContainer>
          <Table aria-label="Your abilities">
            <TableHead>
              <TableRow>
                <TableCell>Subject</TableCell>
                {ACTIONS.map((action) => (
                  <TableCell key={action} align="center" sx={{ textTransform: 'capitalize' }}>
                    {action}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.subject}>
                  <TableCell component="th" scope="row">
                    {row.subject}
                  </TableCell>
                  {row.actions.map(({ action, allowed }) => (
                    <TableCell key={action} align="center">
                      <Chip
                        size="small"
                        label={allowed ? 'Yes' : 'No'}
                        color={allowed ? 'success' : 'default'}
                        variant={allowed ? 'filled' : 'outlined'}
                      />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>
    </>
  );
}
