import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useAdminHealthQuery } from '../api';
import { formatBytes, formatNumber, formatSeconds } from '../format';

function Figures({ title, rows }: { title: string; rows: Array<[string, ReactNode]> }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" fontWeight={600} gutterBottom>
          {title}
        </Typography>
        {rows.map(([label, value]) => (
          <Typography
            key={label}
            variant="body2"
            sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}
          >
            <span>{label}</span>
            <strong>{value}</strong>
          </Typography>
        ))}
      </CardContent>
    </Card>
  );
}

/** Database, workers, sockets and the answering process, refreshed every 10 seconds. */
export function HealthPanel() {
  const health = useAdminHealthQuery(undefined, { pollingInterval: 10_000 });
  if (health.isLoading) return <CircularProgress aria-label="Loading health" />;
  if (!health.data) return <Alert severity="error">The system health could not be read.</Alert>;
  const { database, workers, sockets, process } = health.data;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 6 }}>
        <Figures
          title="Database"
          rows={[
            [
              'Engine',
              database.engine === 'pglite'
                ? `PGlite (embedded) ${database.version}`
                : `PostgreSQL ${database.version}`,
            ],
            ['Size', formatBytes(database.size_bytes)],
            ['Ping', `${database.ping_ms} ms`],
          ]}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Figures
          title="Workers"
          rows={[
            ['Jobs finished in the last hour', formatNumber(workers.processed_last_hour)],
            ['Failed in the last hour', formatNumber(workers.failed_last_hour)],
            ['Queued', formatNumber(workers.queued)],
            ['Running (all processes)', formatNumber(workers.active)],
            ['Running in this process', formatNumber(workers.running_here)],
            [
              'Oldest waiting job',
              workers.oldest_queued_seconds === null
                ? 'none waiting'
                : formatSeconds(workers.oldest_queued_seconds),
            ],
          ]}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Figures
          title="Sockets"
          rows={[
            ['Chat (this process)', formatNumber(sockets.chat)],
            ['Help desk (this process)', formatNumber(sockets.helpdesk)],
            ['Help desk (all processes)', formatNumber(sockets.helpdesk_all_processes)],
          ]}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Figures
          title="Process"
          rows={[
            ['Process id', process.pid],
            ['Node.js', process.node_version],
            ['Uptime', formatSeconds(process.uptime_seconds)],
            ['Memory (resident)', formatBytes(process.rss_bytes)],
            ['Heap used', formatBytes(process.heap_used_bytes)],
          ]}
        />
      </Grid>
    </Grid>
  );
}
