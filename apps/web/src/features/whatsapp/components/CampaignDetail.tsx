import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { RECIPIENT_STATUSES, type RecipientStatus, type WhatsAppCampaign } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { useCampaignAnalyticsQuery, useCampaignLogsQuery } from '../api';
import { CAMPAIGN_POLL_MS, isLive, percent } from '../model';

const SERIES = [
  { key: 'sent', label: 'Sent', color: '#1976d2' },
  { key: 'delivered', label: 'Delivered', color: '#2e7d32' },
  { key: 'read', label: 'Read', color: '#25D366' },
  { key: 'failed', label: 'Failed', color: '#d32f2f' },
] as const;

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString() : '');

/** One campaign: rates, a chart of sends over time, errors, and a log row per recipient. */
export function CampaignDetail({ campaign }: { campaign: WhatsAppCampaign }) {
  const live = isLive(campaign);
  const analytics = useCampaignAnalyticsQuery(campaign.id, { pollingInterval: live ? CAMPAIGN_POLL_MS : 0 });
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(25);
  const logs = useCampaignLogsQuery(
    { id: campaign.id, status: status || undefined, skip: page * rowsPerPage, limit: rowsPerPage },
    { pollingInterval: live ? CAMPAIGN_POLL_MS : 0 },
  );
  const data = analytics.data;
  // The list's counts moved (it polls while sending): the figures and logs follow, the last time included.
  const { refetch: refetchAnalytics } = analytics;
  const { refetch: refetchLogs } = logs;
  const progress = `${campaign.status}:${campaign.counts.sent}:${campaign.counts.delivered}:${campaign.counts.read}:${campaign.counts.failed}`;
  const [seen, setSeen] = useState(progress);
  useEffect(() => {
    if (progress === seen) return;
    setSeen(progress);
    void refetchAnalytics();
    void refetchLogs();
  }, [progress, seen, refetchAnalytics, refetchLogs]);
  const timeline = data?.timeline ?? [];

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={`Campaign ${campaign.name}`}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {campaign.name}
      </Typography>
      {data ? (
        <Stack direction="row" spacing={3} flexWrap="wrap" useFlexGap sx={{ mb: 2 }} aria-label="Rates">
          <Figure label="Delivery rate" value={percent(data.rates.delivery)} />
          <Figure label="Read rate" value={percent(data.rates.read)} />
          <Figure label="Reply rate" value={percent(data.rates.reply)} />
          <Figure label="Failure rate" value={percent(data.rates.failure)} />
          <Figure label="Replied" value={String(data.counts.replied)} />
          <Figure label="Opted out" value={String(data.counts.opted_out)} />
          <Figure label="Queued" value={String(data.counts.queued)} />
        </Stack>
      ) : null}
      {timeline.length > 0 ? (
        <Box aria-label="Messages over time" role="img" data-testid="campaign-chart">
          <LineChart
            height={260}
            xAxis={[{ scaleType: 'point', data: timeline.map((p) => time(p.at)) }]}
            series={SERIES.map((s) => ({
              id: s.key,
              label: s.label,
              color: s.color,
              data: timeline.map((p) => p[s.key]),
            }))}
          />
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Nothing sent yet.
        </Typography>
      )}
      {data && data.errors.length > 0 ? (
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
          {data.errors.map((e) => (
            <Chip
              key={`${e.code}:${e.error}`}
              color="error"
              variant="outlined"
              label={`${e.error} (${e.count})`}
            />
          ))}
        </Stack>
      ) : null}
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mt: 2, mb: 1 }}>
        <Typography variant="subtitle1" component="h3">
          Logs
        </Typography>
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as RecipientStatus | '');
            setPage(0);
          }}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">All</MenuItem>
          {RECIPIENT_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Campaign logs">
          <TableHead>
            <TableRow>
              <TableCell>Phone</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Sent</TableCell>
              <TableCell>Delivered</TableCell>
              <TableCell>Read</TableCell>
              <TableCell>Error</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(logs.data?.logs ?? []).map((log) => (
              <TableRow key={`${log.contact_id}:${log.phone}`} data-testid="campaign-log">
                <TableCell>{log.phone}</TableCell>
                <TableCell>{log.name ?? ''}</TableCell>
                <TableCell>{log.status}</TableCell>
                <TableCell>{time(log.sent_at)}</TableCell>
                <TableCell>{time(log.delivered_at)}</TableCell>
                <TableCell>{time(log.read_at)}</TableCell>
                <TableCell>
                  {log.error ? `${log.error}${log.error_code ? ` (${log.error_code})` : ''}` : ''}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
        count={logs.data?.total ?? 0}
        page={page}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={[10, 25, 50, 100]}
        onPageChange={(_e, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          setRowsPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {value}
      </Typography>
    </Box>
  );
}
