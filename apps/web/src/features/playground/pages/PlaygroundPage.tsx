import AddComment from '@mui/icons-material/AddComment';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Fullscreen from '@mui/icons-material/Fullscreen';
import ManageSearch from '@mui/icons-material/ManageSearch';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BOT, BOTS_SUBJECT, type Bot, type ChatMessage, welcomeOf } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { httpStatus } from '../../../shared/api/errors';
import { setChatFullScreen } from '../../../shared/lib/shell-events';
import { RateAnswer } from '../../analytics/components/RateAnswer';
import { useBotQuery } from '../../bots/api';
import { BotAvatar } from '../../bots/components/BotAvatar';
import { BotNotFound } from '../../bots/components/BotNotFound';
import { useCalendarBookingQuery } from '../../calendar/api';
import { usePublicBotQuery } from '../../chat/api';
import { BookingCard } from '../../chat/components/BookingCard';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { ContactSection } from '../../chat/components/ContactSection';
import { LeadSection } from '../../chat/components/LeadSection';
import { SuggestedQuestions } from '../../chat/components/SuggestedQuestions';
import { useStreamingChat } from '../../chat/hooks/useStreamingChat';
import { type AskedInChat, RetrievalPreview } from '../../knowledge/components/RetrievalPreview';
import { useCompanyLlmsQuery } from '../../llm/api';
import { useAbility } from '../../permissions/hooks/useAbility';
import { QnaDialog } from '../../qna/components/QnaDialog';
import { askedBefore, explainable, missedAnswer } from '../lib/asked';
import { playgroundCaption } from '../lib/caption';

function parseId(raw: string | undefined): number | null {
  return raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
}

/** /bot/:botId/playground: try a bot as a visitor would see it, answers streamed with their sources. */
export function PlaygroundPage() {
  const botId = parseId(useParams().botId);
  const bot = useBotQuery(botId ?? 0, { skip: botId === null });

  // Leaving the page leaves full-screen mode too.
  useEffect(() => () => setChatFullScreen(false), []);

  if (botId === null || (bot.isError && httpStatus(bot.error) === 404)) return <BotNotFound />;
  if (bot.isLoading) return <CircularProgress aria-label="Loading bot" />;
  if (!bot.data) {
    return bot.isError ? <Alert severity="error">The bot could not be loaded. Try again later.</Alert> : null;
  }
  return <Playground bot={bot.data} />;
}

function Playground({ bot }: { bot: Bot }) {
  const chat = useStreamingChat(bot.bot_id);
  const booking = useCalendarBookingQuery(bot.bot_id);
  // Only to name the bot's model and say whether it is on; a bot without one needs no list.
  const models = useCompanyLlmsQuery(undefined, { skip: bot.llm_model === null });
  const fullScreen = useAppSelector((state) => state.ui.chatFullScreen);
  // Playground defaults (spec section 9) where the bot leaves them unset.
  const brandColor = bot.brand_color || BOT.defaultBrandColor;
  // As visitors are greeted: a default welcome is said in the bot's visitor language (its public view's).
  const shown = usePublicBotQuery(bot.uuid, { refetchOnMountOrArgChange: true });
  const welcome = shown.data?.welcome_message || welcomeOf(bot.welcome_message, bot.bot_name);
  const started = chat.messages.some((m) => m.message_type === 'user');
  const [previewOpen, setPreviewOpen] = useState(false);
  const [asked, setAsked] = useState<AskedInChat | null>(null);
  const explain = (answer: ChatMessage) => {
    setAsked(askedBefore(chat.messages, answer));
    setPreviewOpen(true);
  };
  // A question the bot could not answer here is answered with a pair at once: the owner's test
  // chats never reach the unanswered queue.
  const mayAddPairs = useAbility().can('create', BOTS_SUBJECT);
  const [answering, setAnswering] = useState<string | null>(null);
  const answerWithPair = (answer: ChatMessage) =>
    setAnswering(askedBefore(chat.messages, answer)?.query ?? '');

  const intro = (
    <Stack spacing={1.5}>
      {started ? null : (
        <SuggestedQuestions
          questions={bot.suggestion_questions}
          onPick={chat.send}
          disabled={chat.thinking}
        />
      )}
      <LeadSection
        uuid={bot.uuid}
        config={bot.lead_form_config}
        conversationId={chat.conversationId}
        messages={chat.messages}
      />
      {booking.data ? <BookingCard booking={booking.data} /> : null}
    </Stack>
  );

  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: fullScreen ? 'calc(100vh - 48px)' : 'calc(100vh - 220px)',
        minHeight: 420,
      }}
    >
      <Stack
        direction="row"
        spacing={1.5}
        alignItems="center"
        useFlexGap
        flexWrap="wrap"
        sx={{ mb: 2, pr: fullScreen ? 22 : 0 }}
      >
        <Button component={Link} to={`/bot/${bot.bot_id}`} startIcon={<ArrowBack />} size="small">
          Back to bot
        </Button>
        <BotAvatar name={bot.bot_name} image={bot.profile_image} color={brandColor} size={40} />
        <Box sx={{ flex: 1, minWidth: 160 }}>
          <Typography variant="h6" component="h1" lineHeight={1.2}>
            {bot.bot_name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {playgroundCaption(bot, models.data)}
          </Typography>
        </Box>
        <Button
          size="small"
          startIcon={<ManageSearch />}
          onClick={() => {
            setAsked(null);
            setPreviewOpen(true);
          }}
        >
          What the bot finds
        </Button>
        <Button variant="outlined" size="small" startIcon={<AddComment />} onClick={chat.newChat}>
          New chat
        </Button>
        {fullScreen ? null : (
          <Button size="small" startIcon={<Fullscreen />} onClick={() => setChatFullScreen(true)}>
            Full screen
          </Button>
        )}
      </Stack>
      <Paper
        variant="outlined"
        sx={{
          flex: 1,
          minHeight: 0,
          display: 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
          borderTop: 4,
          borderTopColor: brandColor,
        }}
        role="region"
        aria-label={`Chat with ${bot.bot_name}`}
      >
        <ChatPanel
          messages={chat.messages}
          welcome={welcome}
          brandColor={brandColor}
          draft={chat.draft}
          thinking={chat.thinking}
          frames={chat.frames}
          intro={intro}
          outro={
            <ContactSection
              conversationId={chat.conversationId}
              messages={chat.messages}
              onSent={chat.received}
            />
          }
          explainAnswers
          answerFooter={(message) => (
            <Stack direction="row" alignItems="center" spacing={1} useFlexGap flexWrap="wrap">
              <RateAnswer message={message} />
              {explainable(message) ? (
                <Button size="small" onClick={() => explain(message)}>
                  Why this answer?
                </Button>
              ) : null}
              {mayAddPairs && missedAnswer(message) ? (
                <Button size="small" onClick={() => answerWithPair(message)}>
                  Answer it with a Q&A pair
                </Button>
              ) : null}
            </Stack>
          )}
          onSend={chat.send}
          sendDisabled={chat.thinking}
          humanButton={bot.human_button}
          onRequestHuman={chat.conversationId === null ? undefined : () => void chat.requestHuman()}
        />
      </Paper>
      <Drawer anchor="right" open={previewOpen} onClose={() => setPreviewOpen(false)}>
        <RetrievalPreview botId={bot.bot_id} asked={asked} />
      </Drawer>
      {answering !== null ? (
        <QnaDialog botId={bot.bot_id} question={answering} onClose={() => setAnswering(null)} />
      ) : null}
    </Box>
  );
}
