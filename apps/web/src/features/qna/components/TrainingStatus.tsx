import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { progressFigures, type TrainingState } from '../training';

/** Where training stands: a determinate bar with current/total and percentage, then the outcome. */
export function TrainingStatus({ state }: { state: TrainingState }) {
  if (state.status === 'idle') return null;
  if (state.status === 'failed') {
    return (
      <Alert severity="error" sx={{ mb: 2 }}>
        {state.error}
      </Alert>
    );
  }
  const { current, total, percentage } = progressFigures(state);
  const line =
    state.status === 'starting'
      ? 'Starting training…'
      : state.status === 'completed'
        ? `Training completed: ${current} of ${total} pairs (${percentage}%)`
        : `Training: ${current} of ${total} pairs (${percentage}%)`;
  return (
    <Box sx={{ mb: 2 }} role="status" aria-live="polite">
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        {line}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percentage}
        color={state.status === 'completed' ? 'success' : 'primary'}
        aria-label="Training progress"
      />
    </Box>
  );
}
