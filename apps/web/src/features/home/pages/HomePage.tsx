import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { HomeSummary } from '@parley/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { PagePreload } from '../../../app/preload';
import { useAppSelector } from '../../../app/store';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { PageHeader } from '../../../shared/components/PageHeader';
import { isPartnerOnly } from '../../partner/membership';
import { homeApi, useHomeSummaryQuery } from '../api';
import { HomeAnalyticsSummary } from '../components/HomeAnalyticsSummary';
import { HomeBots } from '../components/HomeBots';
import { HomeChecklist } from '../components/HomeChecklist';
import { HomeConversations } from '../components/HomeConversations';
import { HomeLeads } from '../components/HomeLeads';
import { HomeQuestions } from '../components/HomeQuestions';
import { HomeUsage } from '../components/HomeUsage';
import { QuickActions } from '../components/QuickActions';
import { greeting } from '../greeting';

/** A card of Home, a region named by its title (so each can be found, by assistive tools too). */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** The panels of the summary; a part the server left out (null) is not the person's to see. */
function Panels({ summary }: { summary: HomeSummary }) {
  const firstBot = summary.bots_scope === 'workspace' ? summary.bots[0]?.bot_id : undefined;
  return (
    <>
      {summary.checklist && <HomeChecklist items={summary.checklist} botId={firstBot} />}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: summary.conversations ? 6 : 12 }}>
          <Panel title="Your bots">
            <HomeBots bots={summary.bots} bot_count={summary.bot_count} bots_scope={summary.bots_scope} />
          </Panel>
        </Grid>
        {summary.conversations && (
          <Grid size={{ xs: 12, md: 6 }}>
            <Panel title="Recent conversations">
              <HomeConversations conversations={summary.conversations} />
            </Panel>
          </Grid>
        )}
        {summary.leads && (
          <Grid size={{ xs: 12, md: summary.questions ? 6 : 12 }}>
            <Panel title="New leads">
              <HomeLeads leads={summary.leads} botId={firstBot} />
            </Panel>
          </Grid>
        )}
        {summary.questions && (
          <Grid size={{ xs: 12, md: summary.leads ? 6 : 12 }}>
            <Panel title="Questions to answer">
              <HomeQuestions questions={summary.questions} />
            </Panel>
          </Grid>
        )}
        {summary.analytics && (
          <Grid size={{ xs: 12 }}>
            <Panel title="Last 30 days">
              <HomeAnalyticsSummary analytics={summary.analytics} />
            </Panel>
          </Grid>
        )}
        {summary.usage && (
          <Grid size={{ xs: 12 }}>
            <Panel title="This month">
              <HomeUsage usage={summary.usage} />
            </Panel>
          </Grid>
        )}
      </Grid>
    </>
  );
}

/** Home's one call starts with the route (a partner-only account is sent on instead). */
export const preload: PagePreload = ({ dispatch, user }) => {
  if (!isPartnerOnly(user)) dispatch(homeApi.util.prefetch('homeSummary', undefined, {}));
};

/** /home: the landing page after login: one summary call, as far as the person's permissions reach. */
export function HomePage() {
  const user = useAppSelector((state) => state.session.user);
  // Partner-only accounts have only the partner area (spec section 6): /home, where login lands,
  // forwards them there. A workspace member who is also a partner (is_partner) stays.
  const isPartner = user ? isPartnerOnly(user) : false;
  // Fresh on every visit: the checklist and lists change with what was done elsewhere.
  const { data, isLoading, isError } = useHomeSummaryQuery(undefined, {
    skip: !user || isPartner,
    refetchOnMountOrArgChange: FRESH_ON_VISIT_S,
  });
  if (!user) return null;
  if (isPartner) return <Navigate to="/partner" replace />;
  return (
    <>
      <PageHeader
        title={`${greeting(new Date().getHours())}, ${user.first_name}!`}
        subtitle={`Welcome to ${user.tenant_name}. Here is where things stand.`}
      />
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Quick actions
      </Typography>
      <QuickActions />
      <Box sx={{ mt: 2 }}>
        {isLoading && <CircularProgress size={24} aria-label="Loading your overview" />}
        {isError && <Alert severity="error">Home could not be loaded. Reload the page to try again.</Alert>}
        {data && <Panels summary={data} />}
      </Box>
    </>
  );
}
