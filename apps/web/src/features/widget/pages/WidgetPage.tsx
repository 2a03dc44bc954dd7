import AddComment from '@mui/icons-material/AddComment';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ChatSocketStatus } from '@parley/chat-client';
import { mayAskForPerson, readableOn } from '@parley/chat-client';
import { BOT, type PublicBot, type WidgetTexts, welcomeOf } from '@parley/contracts';
import { type ReactNode, useEffect } from 'react';
import { useParams } from 'react-router';
import { useReportBookingClickMutation } from '../../analytics/api';
import { RateAnswer } from '../../analytics/components/RateAnswer';
import { BotAvatar } from '../../bots/components/BotAvatar';
import { usePublicBotQuery } from '../../chat/api';
import { BookingCard, BookingClickContext } from '../../chat/components/BookingCard';
import { ChatPanel } from '../../chat/components/ChatPanel';
import { ContactSection } from '../../chat/components/ContactSection';
import { LeadSection } from '../../chat/components/LeadSection';
import { SuggestedQuestions } from '../../chat/components/SuggestedQuestions';
import { useVisitorChat, visitorTokenOf } from '../../chat/hooks/useVisitorChat';
import { ChatTexts, useChatTexts } from '../../chat/texts';

/** The whole viewport: covers the blank layout's footer. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: 1300,
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'background.paper',
      }}
    >
      {children}
    </Box>
  );
}

/** /chat/:uuid: a visitor's full-page chat with a public bot, no login. */
export function WidgetPage() {
  const uuid = useParams().uuid ?? '';
  const bot = usePublicBotQuery(uuid, { skip: !uuid });
  if (bot.isLoading) {
    return (
      <Frame>
        <Box sx={{ m: 'auto' }}>
          <CircularProgress aria-label="Loading chat" />
        </Box>
      </Frame>
    );
  }
  if (!bot.data) {
    return (
      <Frame>
        <Box sx={{ m: 'auto', p: 3, textAlign: 'center' }}>
          <Typography variant="h6" component="h1">
            This chat is not available
          </Typography>
          <Typography variant="body2" color="text.secondary">
            The bot does not exist or is not public.
          </Typography>
        </Box>
      </Frame>
    );
  }
  // Visitors read the page in the language the bot speaks to them in (as its website widget).
  return (
    <ChatTexts.Provider value={bot.data.texts}>
      <WidgetChat bot={bot.data} />
    </ChatTexts.Provider>
  );
}

function ConnectionLine({ status }: { status: ChatSocketStatus }) {
  const t = useChatTexts();
  if (status === 'open') return null;
  const text = status === 'failed' ? t.offline : status === 'closed' ? t.connectionLost : t.connecting;
  return (
    <Stack
      direction="row"
      spacing={1}
      alignItems="center"
      role="status"
      data-testid="connection-status"
      sx={{ px: 2, py: 0.5, bgcolor: 'action.hover' }}
    >
      {status === 'failed' ? null : <CircularProgress size={12} />}
      <Typography variant="caption" color="text.secondary">
        {text}
      </Typography>
    </Stack>
  );
}

/** Connected, the header says whether a person could join now (the bot answers either way). */
function statusLine(t: WidgetTexts, status: ChatSocketStatus, agentsOnline: boolean): string {
  if (status === 'open') return agentsOnline ? t.online : t.away;
  return status === 'failed' ? t.offline : t.connecting;
}

function WidgetChat({ bot }: { bot: PublicBot }) {
  const t = useChatTexts();
  const chat = useVisitorChat(bot);
  useEffect(() => {
    const page = document.documentElement;
    const before = page.lang;
    page.lang = t.lang;
    return () => {
      page.lang = before;
    };
  }, [t.lang]);
  const brandColor = bot.brand_color || BOT.defaultBrandColor;
  const onBrand = readableOn(brandColor);
  const welcome = welcomeOf(bot.welcome_message, bot.bot_name);
  const started = chat.messages.some((m) => m.message_type === 'user');
  const canSend = chat.canSend;
  const connected = chat.status === 'open';
  // Kept by the chat once it has asked for an identity: read per render, as it arrives after the first.
  const visitorToken = visitorTokenOf(bot.uuid);
  const [reportBookingClick] = useReportBookingClickMutation();
  // A visitor opening the booking page counts in the bot's analytics, as from the website widget.
  const bookingClicked = () => {
    if (!visitorToken) return;
    const conversation = chat.conversationId ? { conversation_id: chat.conversationId } : {};
    void reportBookingClick({ visitor_token: visitorToken, ...conversation });
  };

  const intro = (
    <Stack spacing={1.5}>
      {started ? null : (
        <SuggestedQuestions questions={bot.suggestion_questions} onPick={chat.send} disabled={!canSend} />
      )}
      <LeadSection
        uuid={bot.uuid}
        config={bot.lead_form_config}
        conversationId={chat.conversationId}
        visitorToken={visitorToken}
        messages={chat.messages}
      />
      {bot.booking ? <BookingCard booking={bot.booking} /> : null}
    </Stack>
  );

  return (
    <BookingClickContext.Provider value={bookingClicked}>
      <Frame>
        <Stack
          component="header"
          direction="row"
          spacing={1.5}
          alignItems="center"
          sx={{
            px: 2,
            py: 1.25,
            bgcolor: brandColor,
            color: onBrand,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <BotAvatar name={bot.bot_name} image={bot.profile_image} color={brandColor} size={36} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="h1" fontWeight={600} noWrap>
              {bot.bot_name}
            </Typography>
            <Typography
              variant="caption"
              sx={{ opacity: 0.8 }}
              data-testid="connection-status"
              data-status={chat.status}
            >
              {statusLine(t, chat.status, chat.agentsOnline)}
            </Typography>
          </Box>
          <Tooltip title={t.newChat}>
            <IconButton aria-label={t.newChat} onClick={chat.newChat} sx={{ color: onBrand }}>
              <AddComment />
            </IconButton>
          </Tooltip>
        </Stack>
        <ChatPanel
          messages={chat.messages}
          welcome={welcome}
          brandColor={brandColor}
          draft={chat.draft}
          thinking={chat.thinking}
          pending={chat.pending}
          frames={chat.frames}
          intro={intro}
          outro={
            <ContactSection
              conversationId={chat.conversationId}
              messages={chat.messages}
              visitorToken={visitorToken}
              onSent={chat.received}
            />
          }
          onSend={chat.send}
          placeholder={t.placeholder}
          sendDisabled={!canSend}
          humanButton={bot.human_button}
          onRequestHuman={canSend && connected ? chat.requestHuman : undefined}
          footer={<ConnectionLine status={chat.status} />}
          answerFooter={(message) => (
            <RateAnswer
              message={message}
              visitorToken={visitorToken}
              // Rated down, an answer offers a person, unless it offers one already or none may be asked for.
              onRequestHuman={
                canSend &&
                connected &&
                mayAskForPerson(bot.human_button, chat.messages) &&
                !message.actions.some((action) => action.type === 'human')
                  ? chat.requestHuman
                  : undefined
              }
            />
          )}
        />
      </Frame>
    </BookingClickContext.Provider>
  );
}
