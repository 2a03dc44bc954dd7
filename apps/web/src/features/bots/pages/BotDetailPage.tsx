import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Bot } from '@parley/contracts';
import { Link, useParams, useSearchParams } from 'react-router';
import { httpStatus } from '../../../shared/api/errors';
import { PageHeader } from '../../../shared/components/PageHeader';
import { CalendarBookingPanel } from '../../calendar/components/CalendarBookingPanel';
import { LeadsPanel } from '../../leads/components/LeadsPanel';
import { useBotQuery } from '../api';
import { BotAppearanceTab } from '../components/BotAppearanceTab';
import { BotAvatar } from '../components/BotAvatar';
import { BotEmbedTab } from '../components/BotEmbedTab';
import { BotInstructionsTab } from '../components/BotInstructionsTab';
import { BotKnowledgeTab } from '../components/BotKnowledgeTab';
import { BotNotFound } from '../components/BotNotFound';
import { type BotTabId, BotTabs, botTab } from '../components/BotTabs';

function parseId(raw: string | undefined): number | null {
  return raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
}

function TabPanel({ tab, bot }: { tab: BotTabId; bot: Bot }) {
  switch (tab) {
    case 'knowledge':
      return <BotKnowledgeTab bot={bot} />;
    case 'instructions':
      return <BotInstructionsTab bot={bot} />;
    case 'appearance':
      return <BotAppearanceTab bot={bot} />;
    case 'calendar':
      return <CalendarBookingPanel botId={bot.bot_id} />;
    case 'leads':
      return <LeadsPanel botId={bot.bot_id} />;
    case 'embed':
      return <BotEmbedTab bot={bot} />;
  }
}

/** /bot/:botId: one bot's knowledge, instructions, appearance, booking, leads and embed code. */
export function BotDetailPage() {
  const botId = parseId(useParams().botId);
  const [params, setParams] = useSearchParams();
  const tab = botTab(params.get('tab'));
  const bot = useBotQuery(botId ?? 0, { skip: botId === null });

  if (botId === null || (bot.isError && httpStatus(bot.error) === 404)) return <BotNotFound />;
  if (bot.isLoading) return <CircularProgress aria-label="Loading bot" />;
  if (!bot.data) {
    return bot.isError ? <Alert severity="error">The bot could not be loaded. Try again later.</Alert> : null;
  }
  const data = bot.data;

  return (
    <>
      <PageHeader
        title={data.bot_name}
        subtitle={data.description ?? undefined}
        actions={
          <>
            <Button component={Link} to="/bot">
              All bots
            </Button>
            <Button variant="contained" component={Link} to={`/bot/${data.bot_id}/playground`}>
              Playground
            </Button>
          </>
        }
      />
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mt: -1, mb: 2 }}>
        <BotAvatar name={data.bot_name} image={data.profile_image} color={data.brand_color} size={40} />
        <Typography variant="body2" color="text.secondary">
          Created {new Date(data.created_at).toLocaleDateString()}
        </Typography>
      </Stack>
      <BotTabs
        value={tab}
        onChange={(next) => setParams(next === 'knowledge' ? {} : { tab: next }, { replace: true })}
      />
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2, sm: 3 } }}
        role="tabpanel"
        id="bot-tab-panel"
        aria-labelledby={`bot-tab-${tab}`}
      >
        {/* Keyed by bot and tab so each form starts from the saved values. */}
        <TabPanel key={`${data.bot_id}-${tab}`} tab={tab} bot={data} />
      </Paper>
    </>
  );
}
