import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TrainingStatusResponse } from '@parley/contracts';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { isTrainingActive, trainedPercent, typeLabel } from '../model';

type Props = { status: TrainingStatusResponse | undefined; error: string | null };

/** Training per content type: trained of total as a bar, with what is training or failed. */
export function TrainingPanel({ status, error }: Props) {
  const active = isTrainingActive(status);
  return (
    <Paper variant="outlined" component="section" aria-label="Training status" sx={{ height: '100%' }}>
      <PanelHeader title="Training">
        {status ? (
          <Chip
            size="small"
            label={status.starting ? 'Starting' : active ? 'Training' : status.complete ? 'Complete' : 'Idle'}
            color={active ? 'info' : status.complete ? 'success' : 'default'}
            aria-label={`Training state: ${status.starting ? 'starting' : active ? 'training' : status.complete ? 'complete' : 'idle'}`}
          />
        ) : null}
      </PanelHeader>
      <Box sx={{ px: 2, pb: 2 }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {status ? (
          status.content_types.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Nothing to train yet. Sync the store first.
            </Typography>
          ) : (
            <List dense aria-label="Training per content type" disablePadding>
              {status.content_types.map((type) => {
                const label = typeLabel(type.content_type);
                return (
                  <ListItem
                    key={type.content_type}
                    aria-label={label}
                    disableGutters
                    sx={{ display: 'block', py: 0.75 }}
                  >
                    <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
                      <Typography variant="body2" sx={{ flex: 1 }}>
                        {label}
                      </Typography>
                      <Typography variant="caption" data-testid={`trained-${type.content_type}`}>
                        {type.trained} of {type.total} trained
                      </Typography>
                      {type.training > 0 ? (
                        <Chip size="small" color="info" label={`${type.training} training`} />
                      ) : null}
                      {type.failed > 0 ? (
                        <Chip size="small" color="error" label={`${type.failed} failed`} />
                      ) : null}
                    </Stack>
                    <LinearProgress
                      variant="determinate"
                      value={trainedPercent(type.trained, type.total)}
                      color={type.failed > 0 ? 'warning' : 'success'}
                      aria-label={`${label} training progress`}
                      sx={{ mt: 0.5 }}
                    />
                  </ListItem>
                );
              })}
            </List>
          )
        ) : error ? null : (
          <LinearProgress aria-label="Loading training status" />
        )}
      </Box>
    </Paper>
  );
}
