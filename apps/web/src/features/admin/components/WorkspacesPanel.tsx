import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ADMIN_PAGE_SIZES } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { EmptyRow, TablePager, usePaging } from '../../../shared/components/TablePager';
import { useAdminWorkspacesQuery } from '../api';
import { formatDate, formatNumber } from '../format';
import { WorkspaceDialog } from './WorkspaceDialog';

/** Every workspace with its plan, usage and last activity; a name or member email finds one. */
export function WorkspacesPanel() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const paging = usePaging(ADMIN_PAGE_SIZES, 20);
  const resetPage = paging.reset;
  const [open, setOpen] = useState<number | null>(null);
  // Ask the server once the typing pauses, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      resetPage();
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, resetPage]);
  const list = useAdminWorkspacesQuery({
    page: paging.page + 1,
    page_size: paging.size,
    search: search || undefined,
  });

  return (
    <Stack spacing={2}>
      <TextField
        label="Search workspaces"
        placeholder="Workspace name or member email"
        size="small"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        sx={{ maxWidth: 400 }}
      />
      {list.isLoading ? <CircularProgress aria-label="Loading workspaces" /> : null}
      {list.isError ? <Alert severity="error">The workspaces could not be loaded.</Alert> : null}
      {list.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Workspaces">
              <TableHead>
                <TableRow>
                  <TableCell>Workspace</TableCell>
                  <TableCell>Plan</TableCell>
                  <TableCell align="right">Bots</TableCell>
                  <TableCell align="right">Members</TableCell>
                  <TableCell align="right">Messages this month</TableCell>
                  <TableCell align="right">Trained characters</TableCell>
                  <TableCell>Last activity</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data.items.map((workspace) => (
                  <TableRow key={workspace.id} hover>
                    <TableCell>
                      <Link
                        component="button"
                        onClick={() => setOpen(workspace.id)}
                        sx={{ textAlign: 'left' }}
                      >
                        {workspace.name}
                      </Link>
                      {workspace.is_demo ? <Chip size="small" label="Demo" sx={{ ml: 1 }} /> : null}
                      <div>
                        <small>{workspace.owner_email ?? 'no members'}</small>
                      </div>
                    </TableCell>
                    <TableCell>{workspace.plan.name}</TableCell>
                    <TableCell align="right">{formatNumber(workspace.usage.bots)}</TableCell>
                    <TableCell align="right">{formatNumber(workspace.usage.members)}</TableCell>
                    <TableCell align="right">{formatNumber(workspace.usage.messages_this_month)}</TableCell>
                    <TableCell align="right">{formatNumber(workspace.usage.trained_characters)}</TableCell>
                    <TableCell>
                      {workspace.last_activity_at ? formatDate(workspace.last_activity_at) : 'Never'}
                    </TableCell>
                  </TableRow>
                ))}
                {list.data.items.length === 0 ? <EmptyRow columns={7}>No workspace matches.</EmptyRow> : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager {...paging.pagerProps(list.data.total)} />
        </>
      ) : null}
      {open !== null ? <WorkspaceDialog id={open} onClose={() => setOpen(null)} /> : null}
    </Stack>
  );
}
