import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { AnalyticsInsights } from '@parley/contracts';
import type { ReactNode } from 'react';
import { percentText } from '../model';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Card sx={{ height: '100%' }} component="section" aria-label={title}>
        <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent>{children}</CardContent>
      </Card>
    </Grid>
  );
}

function Counted({
  rows,
  empty,
}: {
  rows: Array<{ key: string; primary: ReactNode; count?: number }>;
  empty: string;
}) {
  if (rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {empty}
      </Typography>
    );
  return (
    <List dense disablePadding>
      {rows.map((row) => (
        <ListItem key={row.key} disableGutters secondaryAction={row.count === undefined ? null : row.count}>
          <ListItemText primary={row.primary} />
        </ListItem>
      ))}
    </List>
  );
}

/** Questions, sources and satisfaction (the advanced level); a plan without it sees why. */
export function Insights({ insights, refusal }: { insights?: AnalyticsInsights; refusal?: string }) {
  if (refusal)
    return (
      <Alert severity="info" sx={{ mb: 2 }}>
        {refusal}
      </Alert>
    );
  if (!insights) return null;
  const { satisfaction } = insights;
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      <Panel title="Satisfaction">
        <Typography variant="h5" component="p" data-testid="satisfaction-score">
          {percentText(satisfaction.score)}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="satisfaction-counts">
          {satisfaction.up} thumbs up, {satisfaction.down} thumbs down
        </Typography>
      </Panel>
      <Panel title="Most asked questions">
        <Counted
          rows={insights.top_questions.map((q) => ({ key: q.text, primary: q.text, count: q.count }))}
          empty="No questions in this period."
        />
      </Panel>
      <Panel title="Unanswered questions">
        <Counted
          rows={insights.unanswered_questions.map((q) => ({ key: q.text, primary: q.text, count: q.count }))}
          empty="Every question found an answer."
        />
      </Panel>
      <Panel title="Sources cited most">
        <Counted
          rows={insights.sources_cited.map((s) => ({
            key: `${s.url}|${s.title}`,
            primary: s.url ? (
              <Link href={s.url} target="_blank" rel="noopener noreferrer">
                {s.title}
              </Link>
            ) : (
              s.title
            ),
            count: s.count,
          }))}
          empty="No answer cited a source in this period."
        />
      </Panel>
      <Panel title="Sources never cited">
        <Counted
          rows={insights.sources_never_cited.map((s) => ({ key: `${s.url}|${s.title}`, primary: s.title }))}
          empty="Every source was cited."
        />
      </Panel>
    </Grid>
  );
}
