import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ANALYTICS_PLAN_TEXTS } from '@parley/contracts';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import type { PagePreload } from '../../../app/preload';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { serverDetail } from '../../../shared/api/errors';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useWorkingBots } from '../../bots/hooks/useWorkingBots';
import { type DownloadOutcome, downloadWithSession, saveBlob } from '../../leads/download';
import {
  analyticsApi,
  type PeriodArgs,
  periodQuery,
  useAnalyticsInsightsQuery,
  useAnalyticsOverviewQuery,
  useAnalyticsRevenueQuery,
} from '../api';
import { Charts } from '../components/Charts';
import { Figures } from '../components/Figures';
import { Insights } from '../components/Insights';
import { Revenue } from '../components/Revenue';
import { lastDays } from '../model';

const PERIODS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;

/** The overview of the default period, over every bot, starts with the route. */
export const preload: PagePreload = ({ dispatch }) => {
  dispatch(analyticsApi.util.prefetch('analyticsOverview', { ...lastDays(DEFAULT_DAYS), botId: null }, {}));
};

function downloadFailure(outcome: Exclude<DownloadOutcome, { ok: true }>): string {
  const failed = 'The CSV could not be downloaded.';
  if (outcome.reason === 'timeout') return `${failed} It took too long; try a shorter period.`;
  if (outcome.reason === 'http' && outcome.detail) return `${failed} ${outcome.detail}`;
  return failed;
}

/** The server's reason a panel is not shown (a plan without the level answers 402). */
const refusalOf = (error: unknown) =>
  error ? (serverDetail(error) ?? 'This could not be loaded.') : undefined;

/** /analytics: the workspace's (or one bot's) figures for a period, with charts and a CSV export. */
export function AnalyticsPage() {
  const notify = useNotify();
  const dispatch = useDispatch();
  const [days, setDays] = useState<number>(DEFAULT_DAYS);
  const [botId, setBotId] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const args: PeriodArgs = { ...lastDays(days), botId };
  // A viewer reads analytics without managing bots: the bot filter uses the call their role allows.
  const bots = useWorkingBots();
  const options = { refetchOnMountOrArgChange: FRESH_ON_VISIT_S } as const;
  const overview = useAnalyticsOverviewQuery(args, options);
  // Insights and revenue are the advanced level: asked only once the overview says the plan has it,
  // so a plan without it sees why instead of two refused calls (402s in the browser's console).
  const advanced = overview.data?.levels.advanced === true;
  const notAdvanced = overview.data ? !advanced : false;
  const insights = useAnalyticsInsightsQuery(args, { ...options, skip: !advanced });
  const revenue = useAnalyticsRevenueQuery(args, { ...options, skip: !advanced });
  const advancedRefusal = notAdvanced ? ANALYTICS_PLAN_TEXTS.needsAdvanced : undefined;

  const download = async () => {
    setDownloading(true);
    try {
      const outcome = await downloadWithSession(
        `/api/analytics/export.csv?${periodQuery(args)}`,
        `analytics-${args.from}-to-${args.to}.csv`,
        dispatch,
      );
      if (outcome.ok) saveBlob(outcome.blob, outcome.fileName);
      else notify.error(downloadFailure(outcome));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Analytics"
        subtitle={`${args.from} to ${args.to} (UTC)`}
        actions={
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
            <TextField
              select
              size="small"
              label="Period"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
              sx={{ minWidth: 140 }}
            >
              {PERIODS.map((n) => (
                <MenuItem key={n} value={n}>
                  Last {n} days
                </MenuItem>
              ))}
            </TextField>
            {bots.data && (
              <TextField
                select
                size="small"
                label="Bot"
                value={botId ?? ''}
                onChange={(event) => setBotId(event.target.value ? Number(event.target.value) : null)}
                sx={{ minWidth: 180 }}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">All bots</MenuItem>
                {bots.data.map((bot) => (
                  <MenuItem key={bot.bot_id} value={bot.bot_id}>
                    {bot.bot_name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Button
              variant="outlined"
              startIcon={downloading ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
              onClick={download}
              disabled={downloading || !overview.data?.levels.dashboard}
            >
              Export CSV
            </Button>
          </Stack>
        }
      />
      {overview.isLoading && <CircularProgress size={24} aria-label="Loading analytics" />}
      {overview.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {refusalOf(overview.error)}
        </Alert>
      )}
      {overview.data && (
        <>
          <Figures overview={overview.data} />
          <Charts overview={overview.data} />
        </>
      )}
      <Insights
        insights={advanced ? insights.data : undefined}
        refusal={advancedRefusal ?? refusalOf(insights.error)}
      />
      {/* One note for the level: the revenue panel says nothing more. */}
      {notAdvanced ? null : <Revenue revenue={revenue.data} refusal={refusalOf(revenue.error)} />}
    </>
  );
}
