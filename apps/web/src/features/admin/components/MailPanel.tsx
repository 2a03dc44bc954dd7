import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ADMIN_MAIL_STATES, ADMIN_PAGE_SIZES, type AdminMail } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { EmptyRow, TablePager, usePaging } from '../../../shared/components/TablePager';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAdminMailQuery, useResendMailMutation } from '../api';
import { formatDate } from '../format';

type State = (typeof ADMIN_MAIL_STATES)[number];
const STATE_COLOR = {
  queued: 'info',
  sent: 'success',
  kept: 'default',
  failed: 'error',
  dropped: 'warning',
} as const;

/** The mail outbox, newest first: what was sent, what waits, and a resend for what failed. */
export function MailPanel({ canWrite }: { canWrite: boolean }) {
  const notify = useNotify();
  const [status, setStatus] = useState<State | ''>('');
  const paging = usePaging(ADMIN_PAGE_SIZES, 20);
  const mail = useAdminMailQuery({
    page: paging.page + 1,
    page_size: paging.size,
    status: status || undefined,
  });
  const [resend, resending] = useResendMailMutation();

  const resendMail = async (item: AdminMail) => {
    const result = await resend(item.id);
    if ('error' in result) notify.error(serverDetail(result.error) ?? 'The mail could not be sent again.');
    else notify.success(`Mail to ${item.to} queued again.`);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        Kept: no SMTP server is configured, so the mail stays in the outbox and its links are logged.
      </Typography>
      <TextField
        select
        size="small"
        label="Status"
        value={status}
        onChange={(event) => {
          setStatus(event.target.value as State | '');
          paging.reset();
        }}
        sx={{ maxWidth: 200 }}
      >
        <MenuItem value="">All</MenuItem>
        {ADMIN_MAIL_STATES.map((s) => (
          <MenuItem key={s} value={s}>
            {s}
          </MenuItem>
        ))}
      </TextField>
      {mail.isLoading ? <CircularProgress aria-label="Loading mail" /> : null}
      {mail.isError ? <Alert severity="error">The outbox could not be loaded.</Alert> : null}
      {mail.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Mail outbox">
              <TableHead>
                <TableRow>
                  <TableCell>To</TableCell>
                  <TableCell>Subject</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Workspace</TableCell>
                  <TableCell>Error</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {mail.data.items.map((item) => (
                  <TableRow key={item.id}>
                    <TableCell>{item.to}</TableCell>
                    <TableCell>{item.subject}</TableCell>
                    <TableCell>
                      <Chip size="small" color={STATE_COLOR[item.status]} label={item.status} />
                    </TableCell>
                    <TableCell>{item.tenant_name ?? 'Platform'}</TableCell>
                    <TableCell sx={{ maxWidth: 280 }}>
                      <Typography variant="body2" color="error" noWrap title={item.error ?? undefined}>
                        {item.error ?? ''}
                      </Typography>
                    </TableCell>
                    <TableCell>{formatDate(item.created_at)}</TableCell>
                    <TableCell align="right">
                      {canWrite && item.status === 'failed' ? (
                        <Button size="small" onClick={() => resendMail(item)} disabled={resending.isLoading}>
                          Resend
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
                {mail.data.items.length === 0 ? <EmptyRow columns={7}>No mail.</EmptyRow> : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager {...paging.pagerProps(mail.data.total)} />
        </>
      ) : null}
    </Stack>
  );
}
