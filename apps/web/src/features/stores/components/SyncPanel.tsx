import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GlobalSyncStatus } from '@parley/contracts';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { clampPercent, formatDateTime, syncStatusColor, typeLabel } from '../model';

type Props = { status: GlobalSyncStatus | undefined; error: string | null };

/** The global sync: overall state and bar, then each content type's state, bar and counts. */
export function SyncPanel({ status, error }: Props) {
  return (
    <Paper variant="outlined" component="section" aria-label="Sync status" sx={{ height: '100%' }}>
      <PanelHeader title="Sync">
        {status ? (
          <Chip
            size="small"
            label={status.overallStatus}
            color={syncStatusColor(status.overallStatus)}
            data-testid="sync-overall-status"
            aria-label={`Overall sync status: ${status.overallStatus}`}
          />
        ) : null}
      </PanelHeader>
      <Box sx={{ px: 2, pb: 2 }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {status ? (
          <>
            <Stack direction="row" spacing={1} alignItems="center">
              <LinearProgress
                variant="determinate"
                value={clampPercent(status.overallProgress)}
                aria-label="Overall sync progress"
                sx={{ flex: 1, height: 8, borderRadius: 1 }}
              />
              <Typography variant="body2" sx={{ minWidth: 40, textAlign: 'right' }}>
                {Math.round(clampPercent(status.overallProgress))}%
              </Typography>
            </Stack>
            <Typography variant="caption" color="text.secondary">
              {status.overallStatus === 'idle'
                ? 'Not synced yet. Use "Sync all" to fetch everything.'
                : `Started ${formatDateTime(status.startTime, '–')}${
                    status.endTime ? ` · ended ${formatDateTime(status.endTime, '–')}` : ''
                  } · ${status.totalSynced} records synced`}
            </Typography>
            {status.contentTypes.length > 0 ? (
              <List dense aria-label="Sync per content type" disablePadding sx={{ mt: 1 }}>
                {status.contentTypes.map((type) => {
                  const label = typeLabel(type.contentType);
                  return (
                    <ListItem
                      key={type.contentType}
                      aria-label={label}
                      disableGutters
                      sx={{ display: 'block', py: 0.75 }}
                    >
                      <Stack direction="row" spacing={1} alignItems="center">
                        <Typography variant="body2" sx={{ flex: 1 }}>
                          {label}
                        </Typography>
                        <Typography variant="caption" color="text.secondary">
                          {type.syncedCount} of {type.totalCount}
                        </Typography>
                        <Chip size="small" label={type.status} color={syncStatusColor(type.status)} />
                      </Stack>
                      <LinearProgress
                        variant="determinate"
                        value={clampPercent(type.progress)}
                        color={type.status === 'error' ? 'error' : 'primary'}
                        aria-label={`${label} sync progress`}
                        sx={{ mt: 0.5 }}
                      />
                      {type.error ? (
                        <Typography variant="caption" color="error">
                          {type.error}
                        </Typography>
                      ) : null}
                    </ListItem>
                  );
                })}
              </List>
            ) : null}
            {status.errors.length > 0 ? (
              <Alert severity="error" sx={{ mt: 1 }}>
                {status.errors.map((text) => (
                  <div key={text}>{text}</div>
                ))}
              </Alert>
            ) : null}
            {status.warnings.length > 0 ? (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {status.warnings.map((text) => (
                  <div key={text}>{text}</div>
                ))}
              </Alert>
            ) : null}
          </>
        ) : error ? null : (
          <LinearProgress aria-label="Loading sync status" />
        )}
      </Box>
    </Paper>
  );
}
