import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { useMessageLimitQuery } from '../api';

const number = new Intl.NumberFormat();

/** This month's bot answers against the allowance, as a bar (orange from 80 %, red when used up). */
export function MessageUsage({ tenantId }: { tenantId: number }) {
  const { data } = useMessageLimitQuery(tenantId, { refetchOnMountOrArgChange: FRESH_ON_VISIT_S });
  if (!data) return null;
  const percent = data.limit > 0 ? Math.min(100, (data.used / data.limit) * 100) : 100;
  const color = percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary';
  const resets = new Date(data.period_end).toLocaleDateString(undefined, { day: 'numeric', month: 'long' });
  return (
    <Stack spacing={0.5} sx={{ mb: 3, maxWidth: 480 }} aria-label="Messages this month">
      <Typography variant="body2">
        Bot messages this month: {number.format(data.used)} of {number.format(data.limit)}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={color}
        aria-label="Share of this month's messages used"
      />
      <Typography variant="caption" color="text.secondary">
        {data.remaining > 0
          ? `${number.format(data.remaining)} left; `
          : 'Used up: bots reply with a notice; '}
        the count starts again on {resets}.
      </Typography>
    </Stack>
  );
}
