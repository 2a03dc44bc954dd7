import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { AnalyticsOverview } from '@parley/contracts';
import { durationText, percentText } from '../model';

const number = new Intl.NumberFormat();

function Figure({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  return (
    <Grid size={{ xs: 6, sm: 4, md: 3 }}>
      <Card variant="outlined" sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="body2" color="text.secondary" id={`figure-${id}`}>
            {label}
          </Typography>
          <Typography
            variant="h5"
            component="p"
            data-testid={`figure-${id}`}
            aria-labelledby={`figure-${id}`}
          >
            {value}
          </Typography>
          {hint ? (
            <Typography variant="caption" color="text.secondary">
              {hint}
            </Typography>
          ) : null}
        </CardContent>
      </Card>
    </Grid>
  );
}

/** The period's counts, one card each. */
export function Figures({ overview }: { overview: AnalyticsOverview }) {
  const n = (value: number) => number.format(value);
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      <Figure id="conversations" label="Conversations" value={n(overview.conversations)} />
      <Figure
        id="messages"
        label="Messages"
        value={n(overview.messages)}
        hint={`${n(overview.visitor_messages)} from visitors`}
      />
      <Figure
        id="answer-rate"
        label="Answer rate"
        value={percentText(overview.answer_rate)}
        hint={`${n(overview.answers.not_sure)} said not sure`}
      />
      <Figure id="unanswered" label="Unanswered" value={n(overview.answers.unanswered)} />
      {overview.answers.held_back > 0 ? (
        <Figure
          id="held-back"
          label="Model answers held back"
          value={n(overview.answers.held_back)}
          hint="they stated figures the sources do not back"
        />
      ) : null}
      <Figure id="handoffs" label="Hand-off requests" value={n(overview.handoff_requests)} />
      <Figure
        id="first-reply"
        label="Time to first agent reply"
        value={durationText(overview.first_reply_seconds.mean)}
        hint={`${n(overview.first_reply_seconds.answered)} answered`}
      />
      <Figure id="leads" label="Leads" value={n(overview.leads)} />
      <Figure id="booking-clicks" label="Booking clicks" value={n(overview.booking_clicks)} />
      {overview.visitors !== null && <Figure id="visitors" label="Visitors" value={n(overview.visitors)} />}
    </Grid>
  );
}
