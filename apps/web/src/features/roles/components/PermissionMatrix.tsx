import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type Feature, MESSAGES, type Role } from '@parley/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useAssignFeaturePermissionsMutation } from '../api';
import { failureText } from '../failure';
import {
  grantsFromMatrix,
  matrixFromRole,
  PERMISSION_FLAGS,
  type PermissionFlag,
  sameMatrix,
  toggleFlag,
} from '../permission-matrix';

const FLAG_LABELS: Record<PermissionFlag, string> = {
  can_create: 'Create',
  can_read: 'Read',
  can_write: 'Write',
};

type Props = { role: Role; features: Feature[] };

/** A role's permissions as features × create/read/write. The Owner role is shown but locked. */
export function PermissionMatrix({ role, features }: Props) {
  const ability = useAbility();
  const saved = useMemo(() => matrixFromRole(role, features), [role, features]);
  const [draft, setDraft] = useState(saved);
  // A refetch (after saving, or a feature archived elsewhere) replaces the draft with the truth.
  useEffect(() => setDraft(saved), [saved]);
  const [save, { error, isLoading, reset }] = useAssignFeaturePermissionsMutation();
  const notify = useNotify();
  const locked = role.is_owner || !ability.can('write', 'Roles');
  const dirty = !sameMatrix(draft, saved);

  const onSave = async () => {
    reset();
    const result = await save({ role_id: role.id, feature_permissions: grantsFromMatrix(draft, features) });
    if ('data' in result) notify.success(MESSAGES.roles.permissionsUpdated);
  };

  return (
    <Box>
      {role.is_owner ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {MESSAGES.roles.ownerLocked}
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failureText(MESSAGES.roles.assignPermissionsFailed, error)}
        </Alert>
      ) : null}
      <TableContainer>
        <Table size="small" aria-label={`Permissions of ${role.name}`}>
          <TableHead>
            <TableRow>
              <TableCell>Feature</TableCell>
              {PERMISSION_FLAGS.map((flag) => (
                <TableCell key={flag} align="center">
                  {FLAG_LABELS[flag]}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {features.map((feature) => (
              <TableRow key={feature.id} sx={{ opacity: feature.is_archived ? 0.55 : 1 }}>
                <TableCell component="th" scope="row">
                  <Typography variant="body2" fontWeight={600} component="span">
                    {feature.name}
                  </Typography>
                  {feature.is_archived ? <Chip size="small" label="Archived" sx={{ ml: 1 }} /> : null}
                  {feature.description ? (
                    <Typography variant="caption" color="text.secondary" display="block">
                      {feature.description}
                    </Typography>
                  ) : null}
                </TableCell>
                {PERMISSION_FLAGS.map((flag) => (
                  <TableCell key={flag} align="center" padding="checkbox">
                    <Checkbox
                      checked={draft[feature.id]?.[flag] ?? false}
                      disabled={locked || feature.is_archived}
                      onChange={() => setDraft((m) => toggleFlag(m, feature.id, flag))}
                      slotProps={{ input: { 'aria-label': `${FLAG_LABELS[flag]} ${feature.name}` } }}
                    />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {locked ? null : (
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', p: 2 }}>
          <Button onClick={() => setDraft(saved)} disabled={!dirty || isLoading}>
            Discard
          </Button>
          <Button variant="contained" onClick={onSave} disabled={!dirty || isLoading}>
            Save permissions
          </Button>
        </Box>
      )}
    </Box>
  );
}
