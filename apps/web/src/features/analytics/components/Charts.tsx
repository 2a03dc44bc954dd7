import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AnalyticsOverview } from '@parley/contracts';
import { CHANNEL_LABELS, daysOf, seriesByChannel } from '../model';

const ANSWER_BARS = [
  { key: 'bot', label: 'Bot' },
  { key: 'not_sure', label: 'Bot, not sure' },
  { key: 'qna', label: 'Q&A' },
  { key: 'agents', label: 'Agents' },
  { key: 'unanswered', label: 'Unanswered' },
] as const;

function ChartCard({ title, label, children }: { title: string; label: string; children: React.ReactNode }) {
  return (
    <Card sx={{ height: '100%' }} component="section" aria-label={label}>
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Conversations and messages per day by channel, and who answered (the dashboard level). */
export function Charts({ overview }: { overview: AnalyticsOverview }) {
  const days = daysOf(overview.period.from, overview.period.to);
  const line = (field: 'conversations' | 'messages') =>
    seriesByChannel(overview.daily ?? [], days, field).map((series) => ({
      id: `${field}-${series.channel}`,
      label: CHANNEL_LABELS[series.channel] ?? series.channel,
      data: series.data,
      showMark: days.length <= 31,
    }));
  const xAxis = [{ scaleType: 'point' as const, data: days.map((day) => day.slice(5)) }];
  // Counts are whole numbers: no tick between 0 and 1.
  const countAxis = [{ tickMinStep: 1 }];
  const answers = ANSWER_BARS.map((bar) => overview.answers[bar.key]);
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard title="Conversations per day" label="Conversations per day by channel">
          {overview.daily ? (
            <LineChart height={260} xAxis={xAxis} yAxis={countAxis} series={line('conversations')} />
          ) : (
            <Alert severity="info">Daily charts are part of the analytics dashboard of a higher plan.</Alert>
          )}
        </ChartCard>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard title="Messages per day" label="Messages per day by channel">
          {overview.daily ? (
            <LineChart height={260} xAxis={xAxis} yAxis={countAxis} series={line('messages')} />
          ) : (
            <Alert severity="info">Daily charts are part of the analytics dashboard of a higher plan.</Alert>
          )}
        </ChartCard>
      </Grid>
      <Grid size={{ xs: 12 }}>
        <ChartCard title="Who answered" label="Who answered">
          {answers.some((count) => count > 0) ? (
            <BarChart
              height={220}
              layout="horizontal"
              xAxis={countAxis}
              yAxis={[{ scaleType: 'band', data: ANSWER_BARS.map((bar) => bar.label), width: 90 }]}
              series={[{ id: 'answers', label: 'Answers', data: answers }]}
            />
          ) : (
            // An axis from 0 to 0 draws one meaningless tick ("0.000000"): say it in words instead.
            <Typography color="text.secondary">No answers in this period.</Typography>
          )}
        </ChartCard>
      </Grid>
    </Grid>
  );
}
