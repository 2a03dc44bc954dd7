import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { HomeAnalytics } from '@parley/contracts';
import { Link as RouterLink } from 'react-router';
import { moneyText, percentText } from '../../analytics/model';

function Figure({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" data-testid={`home-${id}`}>
        {value}
      </Typography>
    </div>
  );
}

/** The last 30 days at a glance: conversations, answer rate and revenue, with a way to the details. */
export function HomeAnalyticsSummary({ analytics }: { analytics: HomeAnalytics }) {
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={4} flexWrap="wrap" useFlexGap>
        <Figure
          id="conversations"
          label="Conversations"
          value={new Intl.NumberFormat().format(analytics.conversations)}
        />
        <Figure id="answer-rate" label="Answer rate" value={percentText(analytics.answer_rate)} />
        <Figure
          id="revenue"
          label="Revenue from conversations"
          value={analytics.revenue.length ? analytics.revenue.map(moneyText).join(' + ') : '–'}
        />
      </Stack>
      <Link component={RouterLink} to="/analytics" variant="body2">
        See analytics
      </Link>
    </Stack>
  );
}
