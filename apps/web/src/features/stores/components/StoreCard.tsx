import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Store } from '@parley/contracts';
import { Link as RouterLink } from 'react-router';
import { clampPercent, contentTabs, formatDateTime, PLATFORM_LABELS, storePath, typeLabel } from '../model';
import { PlatformIcon } from './PlatformIcon';

/** A connected store on the Integrations page: what it is, how much is synced, and the way in. */
export function StoreCard({ store }: { store: Store }) {
  const syncing = store.sync.overallStatus === 'syncing';
  // In the platform's own order (products first), then anything else the server counts.
  const order = contentTabs(store.platform).map((tab) => tab.type);
  const rank = (type: string) => (order.includes(type) ? order.indexOf(type) : order.length);
  const counts = Object.entries(store.counts)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => rank(a) - rank(b));
  return (
    <Card variant="outlined" component="section" aria-label={store.name} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1 }}>
          <PlatformIcon platform={store.platform} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" fontWeight={600} noWrap>
              {store.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {PLATFORM_LABELS[store.platform]} · {store.domain}
            </Typography>
          </Box>
          <Chip
            size="small"
            label={store.status === 'connected' ? 'Connected' : 'Disconnected'}
            color={store.status === 'connected' ? 'success' : 'warning'}
          />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {counts.length > 0
            ? counts.map(([type, count]) => `${count} ${typeLabel(type).toLowerCase()}`).join(' · ')
            : 'Nothing synced yet'}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Last synced: {formatDateTime(store.last_synced_at)}
        </Typography>
        {syncing ? (
          <Box sx={{ mt: 1.5 }}>
            <Typography variant="caption">
              Syncing… {Math.round(clampPercent(store.sync.overallProgress))}%
            </Typography>
            <LinearProgress
              variant="determinate"
              value={clampPercent(store.sync.overallProgress)}
              aria-label={`Sync progress of ${store.name}`}
            />
          </Box>
        ) : null}
      </CardContent>
      <CardActions>
        <Button component={RouterLink} to={storePath(store)} variant="outlined" size="small">
          Open
        </Button>
      </CardActions>
    </Card>
  );
}
