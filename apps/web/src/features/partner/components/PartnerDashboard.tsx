import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { AFFILIATE_TEXTS, type PartnerProfile } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { usePartnerProfileQuery, useReferralAnalyticsQuery, useUpdatePartnerMutation } from '../api';
import { formatRate, formatTotals } from '../model';
import { LinksSection } from './LinksSection';
import { CommissionsTable, ReferralsTable } from './PartnerTables';

const CHART_DAYS = 30;

/** The partner's own area: earnings, links, the activity chart, referrals, commissions and profile. */
export function PartnerDashboard() {
  const profile = usePartnerProfileQuery();
  if (profile.isLoading) return <CircularProgress aria-label="Loading partner profile" />;
  if (profile.isError || !profile.data)
    return <Alert severity="error">{AFFILIATE_TEXTS.loadProfileFailed}</Alert>;
  const p = profile.data;
  return (
    <>
      <Stats profile={p} />
      <ActivityChart />
      <LinksSection />
      <Section title="Referrals">
        <ReferralsTable />
      </Section>
      <Section title="Commissions">
        <CommissionsTable />
      </Section>
      <ProfileForm profile={p} />
    </>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 4 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Stats({ profile }: { profile: PartnerProfile }) {
  const tiles: [string, string][] = [
    ['Total earnings', formatTotals(profile.total_earned)],
    ['Pending commissions', `${formatTotals(profile.pending_commissions)} (${profile.pending_count})`],
    ['Links', String(profile.link_count)],
    ['Clicks', String(profile.clicks)],
    ['Conversions', String(profile.conversions)],
    ['Conversion rate', formatRate(profile.conversion_rate)],
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 4 }} component="dl" aria-label="Partner statistics">
      {tiles.map(([label, value]) => (
        <Grid key={label} size={{ xs: 6, md: 4, lg: 2 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="h6" sx={{ m: 0 }} aria-label={label}>
                {value}
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}

function ActivityChart() {
  const analytics = useReferralAnalyticsQuery(CHART_DAYS);
  return (
    <Section title={`Clicks and conversions, last ${CHART_DAYS} days`}>
      {analytics.isError ? <Alert severity="error">{AFFILIATE_TEXTS.loadAnalyticsFailed}</Alert> : null}
      {analytics.data ? (
        <LineChart
          height={240}
          xAxis={[{ scaleType: 'point', data: analytics.data.days.map((d) => d.day.slice(5)) }]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[
            { id: 'clicks', label: 'Clicks', data: analytics.data.days.map((d) => d.clicks) },
            { id: 'conversions', label: 'Conversions', data: analytics.data.days.map((d) => d.conversions) },
          ]}
        />
      ) : null}
    </Section>
  );
}

function ProfileForm({ profile }: { profile: PartnerProfile }) {
  const notify = useNotify();
  const [update, { isLoading }] = useUpdatePartnerMutation();
  const [name, setName] = useState(profile.display_name);
  const [payout, setPayout] = useState('');

  const save = async () => {
    const result = await update({
      display_name: name,
      ...(payout.trim() ? { payout_details: payout } : {}),
    });
    if ('error' in result) {
      notify.error(serverDetail(result.error) ?? AFFILIATE_TEXTS.updateProfileFailed);
      return;
    }
    setPayout('');
    notify.success(result.data.message);
  };

  return (
    <Section title="Profile and payouts">
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <TextField label="Display name" value={name} onChange={(e) => setName(e.target.value)} size="small" />
        <TextField
          label="Payout details"
          value={payout}
          onChange={(e) => setPayout(e.target.value)}
          size="small"
          multiline
          minRows={2}
          helperText={
            profile.payout_details_set
              ? `Saved (ending ${profile.payout_details_hint ?? ''}); stored encrypted. Enter new details to replace them.`
              : 'Bank account or UPI id for payouts; stored encrypted.'
          }
        />
        <Box>
          <Button variant="contained" onClick={save} disabled={isLoading}>
            Save profile
          </Button>
        </Box>
      </Stack>
    </Section>
  );
}
