import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { Demo, DemoKind } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useDemosQuery, useSetUpDemoMutation } from '../api';

const STATUS = {
  absent: { label: 'Not set up', color: 'default' },
  training: { label: 'Training', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Training failed', color: 'error' },
} as const;

/**
 * /capability: public demo bots that show what Parley does, in a workspace of their own. An admin
 * sets them up (once: setting up again changes nothing); each opens in the full-page public chat.
 */
export function CapabilityPage() {
  const canWrite = useAbility().can('write', 'Admin');
  const notify = useNotify();
  const [polling, setPolling] = useState(false);
  const demos = useDemosQuery(undefined, { pollingInterval: polling ? 1500 : 0 });
  const [setUp] = useSetUpDemoMutation();
  const [busy, setBusy] = useState<DemoKind[]>([]);
  const training = demos.data?.demos.some((d) => d.status === 'training') ?? false;
  // Poll only while a demo trains, so its progress moves without a reload.
  useEffect(() => setPolling(training), [training]);

  const setUpDemos = async (kinds: DemoKind[]) => {
    setBusy(kinds);
    for (const kind of kinds) {
      const result = await setUp(kind);
      if ('error' in result) notify.error(serverDetail(result.error) ?? 'The demo could not be set up.');
    }
    setBusy([]);
  };
  const absent = (demos.data?.demos ?? []).filter((d) => d.status === 'absent').map((d) => d.kind);

  return (
    <>
      <PageHeader
        title="Capability Demos"
        subtitle="Public demo bots that show what Parley does. They live in their own workspace, Parley demos."
        actions={
          canWrite ? (
            <Button
              variant="contained"
              disabled={absent.length === 0 || busy.length > 0}
              onClick={() => setUpDemos(absent)}
            >
              Seed demos
            </Button>
          ) : null
        }
      />
      {demos.isLoading ? <CircularProgress aria-label="Loading demos" /> : null}
      {demos.isError ? <Alert severity="error">The demos could not be loaded.</Alert> : null}
      <Grid container spacing={2}>
        {(demos.data?.demos ?? []).map((demo) => (
          <Grid key={demo.kind} size={{ xs: 12, md: 4 }}>
            <DemoCard
              demo={demo}
              canWrite={canWrite}
              busy={busy.includes(demo.kind)}
              onSetUp={() => setUpDemos([demo.kind])}
            />
          </Grid>
        ))}
      </Grid>
    </>
  );
}

type CardProps = { demo: Demo; canWrite: boolean; busy: boolean; onSetUp: () => void };

function DemoCard({ demo, canWrite, busy, onSetUp }: CardProps) {
  const status = STATUS[demo.status];
  return (
    <Card
      variant="outlined"
      role="region"
      aria-label={demo.title}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {demo.title}{' '}
          <Chip
            size="small"
            label={status.label}
            color={status.color}
            data-testid={`demo-status-${demo.kind}`}
          />
        </Typography>
        <Typography variant="body2" gutterBottom>
          {demo.description}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          What it learnt from: {demo.source}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Try asking: {demo.try_asking.map((q) => `“${q}”`).join(', ')}
        </Typography>
        {demo.status === 'training' || busy ? (
          <>
            <LinearProgress
              sx={{ mt: 2 }}
              variant={demo.total > 0 ? 'determinate' : 'indeterminate'}
              value={demo.total > 0 ? (demo.trained / demo.total) * 100 : undefined}
              aria-label={`Training ${demo.title}`}
            />
            <Typography variant="caption">
              {demo.total > 0 ? `${demo.trained} of ${demo.total} trained` : 'Setting up…'}
            </Typography>
          </>
        ) : null}
      </CardContent>
      <CardActions>
        {canWrite && demo.status === 'absent' ? (
          <Button onClick={onSetUp} disabled={busy} aria-label={`Set up ${demo.title}`}>
            Set up
          </Button>
        ) : null}
        {canWrite && demo.status === 'failed' ? (
          <Button onClick={onSetUp} disabled={busy} aria-label={`Train ${demo.title} again`}>
            Train again
          </Button>
        ) : null}
        {demo.bot ? (
          <Button
            href={`/chat/${demo.bot.uuid}`}
            target="_blank"
            rel="noopener"
            endIcon={<OpenInNew />}
            disabled={demo.status !== 'ready'}
            aria-label={`Open ${demo.title} chat`}
          >
            Open chat
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}
