import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MessageLimit } from '@parley/contracts';

const number = new Intl.NumberFormat();

/**
 * This month's bot answers against the allowance, as a bar (orange from 80 %, red when used up).
 * The same texts as the bots screen's MessageUsage, drawn from the summary instead of a call of its own.
 */
export function HomeUsage({ usage }: { usage: MessageLimit }) {
  const percent = usage.limit > 0 ? Math.min(100, (usage.used / usage.limit) * 100) : 100;
  const color = percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary';
  const resets = new Date(usage.period_end).toLocaleDateString(undefined, { day: 'numeric', month: 'long' });
  return (
    <Stack spacing={0.5} sx={{ maxWidth: 480 }} aria-label="Messages this month">
      <Typography variant="body2">
        Bot messages this month: {number.format(usage.used)} of {number.format(usage.limit)}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={color}
        aria-label="Share of this month's messages used"
      />
      <Typography variant="caption" color="text.secondary">
        {usage.remaining > 0
          ? `${number.format(usage.remaining)} left; `
          : 'Used up: bots reply with a notice; '}
        the count starts again on {resets}.
      </Typography>
    </Stack>
  );
}
