import MailOutline from '@mui/icons-material/MailOutline';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
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
import type { EmailLogEntry, EmailLogQuery } from '@parley/contracts';
import { useState } from 'react';
import { EmptyRow, TablePager } from '../../../shared/components/TablePager';
import { useTeammatesQuery } from '../../inbox/api';
import { useEmailLogQuery } from '../api';

/** The server answers the newest 500 at most and does not page: this screen pages what it got. */
const SERVER_CAP = 500;
const PAGE_SIZES = [10, 25, 50] as const;
const STATUS_COLOR = {
  queued: 'info',
  sent: 'success',
  kept: 'default',
  failed: 'error',
  dropped: 'warning',
} as const;
const STATUS_HINT = {
  queued: 'Waiting in the outbox',
  sent: 'Delivered to the mail server',
  kept: 'No SMTP server is configured: kept in the outbox',
  failed: 'Delivery failed',
  dropped: 'Not sent: the recipient was removed from the workspace before it could be delivered',
} as const;

type Named = { bot_id: number; bot_name: string };
type Filters = { start: string; end: string; botId: number | '' };

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The query the filters stand for; null while the dates contradict each other (the server would answer 400). */
function queryOf(filters: Filters, tenantId: number): EmailLogQuery | null {
  if (filters.start && filters.end && filters.start > filters.end) return null;
  return {
    tenant_id: String(tenantId),
    start_date: filters.start || undefined,
    end_date: filters.end || undefined,
    bot_id: filters.botId === '' ? undefined : String(filters.botId),
  };
}

type Props = {
  tenantId: number;
  userId: number;
  /** The inbox's bots, to filter by and to name each mail's bot. */
  bots: readonly Named[];
};

/**
 * "Email log" in the inbox header (Inbox readers): the email notifications the workspace sent
 * (GET /notification/emails/), newest first, filtered by UTC days and bot.
 */
export function EmailLogButton(props: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<MailOutline />} onClick={() => setOpen(true)}>
        Email log
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="lg"
        aria-labelledby="email-log-title"
      >
        <DialogTitle id="email-log-title">Email log</DialogTitle>
        <DialogContent>{open ? <EmailLog {...props} /> : null}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function EmailLog({ tenantId, userId, bots }: Props) {
  const [filters, setFilters] = useState<Filters>({ start: '', end: '', botId: '' });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(PAGE_SIZES[0]);
  const query = queryOf(filters, tenantId);
  const log = useEmailLogQuery(query ?? {}, { skip: query === null, refetchOnMountOrArgChange: true });
  const senderName = useSenderNames(tenantId, userId);
  const botName = (id: number | null) =>
    id === null ? '—' : (bots.find((b) => b.bot_id === id)?.bot_name ?? `Bot #${id}`);
  const change = (next: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(0);
  };
  const emails = log.data?.emails ?? [];
  const shown = emails.slice(page * size, (page + 1) * size);

  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="date"
          size="small"
          label="Start date"
          value={filters.start}
          onChange={(event) => change({ start: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          size="small"
          label="End date"
          value={filters.end}
          onChange={(event) => change({ end: event.target.value })}
          error={query === null}
          helperText={query === null ? 'The end date is before the start date' : 'Whole days, UTC'}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          size="small"
          label="Bot"
          value={filters.botId}
          onChange={(event) => change({ botId: event.target.value === '' ? '' : Number(event.target.value) })}
          // "All bots" shows while no bot is chosen.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">All bots</MenuItem>
          {bots.map((bot) => (
            <MenuItem key={bot.bot_id} value={bot.bot_id}>
              {bot.bot_name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {log.isFetching ? <LinearProgress aria-label="Loading the email log" /> : null}
      {log.isError ? <Alert severity="error">The email log could not be loaded.</Alert> : null}
      {emails.length >= SERVER_CAP ? (
        <Typography variant="body2" color="text.secondary">
          The newest {SERVER_CAP} are shown: narrow the dates to see older ones.
        </Typography>
      ) : null}
      <TableContainer>
        <Table size="small" aria-label="Email notifications">
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>To</TableCell>
              <TableCell>Subject</TableCell>
              <TableCell>Bot</TableCell>
              <TableCell>Sender</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((email) => (
              <EmailRow
                key={email.id}
                email={email}
                bot={botName(email.bot_id)}
                sender={senderName(email.sent_by)}
              />
            ))}
            {log.data && emails.length === 0 ? (
              <EmptyRow columns={6}>No email notifications in this period.</EmptyRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager
        total={emails.length}
        page={page}
        size={size}
        sizes={PAGE_SIZES}
        onChange={(next, nextSize) => {
          setPage(next);
          setSize(nextSize);
        }}
      />
    </Stack>
  );
}

function EmailRow({ email, bot, sender }: { email: EmailLogEntry; bot: string; sender: string }) {
  return (
    <TableRow data-testid="email-log-row" data-email-id={email.id}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(email.created_at)}</TableCell>
      <TableCell>{email.to}</TableCell>
      <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{email.subject}</TableCell>
      <TableCell>{bot}</TableCell>
      <TableCell>{sender}</TableCell>
      <TableCell>
        <Chip
          size="small"
          color={STATUS_COLOR[email.status]}
          label={email.status}
          title={email.sent_at ? `Sent ${when(email.sent_at)}` : STATUS_HINT[email.status]}
        />
      </TableCell>
    </TableRow>
  );
}

/**
 * Who sent each mail, by name from the workspace's teammates (GET /auth/user/teammates, Inbox read).
 * Every mail is sent by someone: no sender means their account was deleted since (sent_by is set
 * null with it); one missing from the list (a partner) is named by id.
 */
function useSenderNames(tenantId: number, userId: number): (id: number | null) => string {
  const users = useTeammatesQuery(tenantId);
  return (id) => {
    if (id === null) return 'Removed teammate';
    if (id === userId) return 'You';
    const user = users.data?.find((u) => u.id === id);
    return user ? `${user.first_name} ${user.last_name}`.trim() || user.email : `User #${id}`;
  };
}
