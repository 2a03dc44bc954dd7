import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { linkCitations, readableOn } from '@parley/chat-client';
import { type ChatMessage, HELPDESK_TEXTS } from '@parley/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { type ChatFrame, frameSeverity } from '../frames';
import { useChatTexts } from '../texts';
import { AnswerNote } from './AnswerNote';
import { BookingButton } from './BookingCard';
import { MarkdownText } from './MarkdownText';
import { MessageSources } from './MessageSources';

type Side = 'left' | 'right';

function Bubble({
  side,
  brandColor,
  label,
  testId,
  sender,
  time,
  note,
  pending = false,
  children,
}: {
  side: Side;
  brandColor: string;
  label?: string;
  testId: string;
  sender?: string;
  /** When it was sent (ISO), shown under the bubble (the inbox shows every message's time). */
  time?: string;
  /** A word under the bubble ("Sending…"). */
  note?: string;
  /** Not sent yet (held until the chat connects): shown faded. */
  pending?: boolean;
  children: ReactNode;
}) {
  const mine = side === 'right';
  return (
    <Box
      component="li"
      data-testid={testId}
      data-sender={sender}
      aria-busy={pending || undefined}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: mine ? 'flex-end' : 'flex-start' }}
    >
      {label ? (
        <Typography variant="caption" color="text.secondary" sx={{ mb: 0.25, px: 0.5 }}>
          {label}
        </Typography>
      ) : null}
      <Box
        sx={{
          maxWidth: '85%',
          px: 1.5,
          py: 1,
          borderRadius: 2,
          borderTopRightRadius: mine ? 4 : undefined,
          borderTopLeftRadius: mine ? undefined : 4,
          bgcolor: mine ? brandColor : 'action.hover',
          color: mine ? readableOn(brandColor) : 'text.primary',
          border: 1,
          borderColor: 'divider',
          whiteSpace: mine ? 'pre-wrap' : undefined,
          wordBreak: 'break-word',
          opacity: pending ? 0.6 : undefined,
        }}
      >
        {children}
      </Box>
      {time ? (
        <Typography
          component="time"
          dateTime={time}
          variant="caption"
          color="text.secondary"
          sx={{ px: 0.5 }}
          data-testid="message-time"
        >
          {new Date(time).toLocaleString()}
        </Typography>
      ) : null}
      {note ? (
        <Typography variant="caption" color="text.secondary" sx={{ px: 0.5 }}>
          {note}
        </Typography>
      ) : null}
    </Box>
  );
}

/** A hand-off notice (a person was asked for, joined, left; the chat closed), centred in its place. */
function SystemNotice({ message }: { message: ChatMessage }) {
  return (
    <Box component="li" data-testid="system-message" sx={{ display: 'flex', justifyContent: 'center' }}>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{
          px: 1.5,
          py: 0.5,
          borderRadius: 2,
          bgcolor: 'action.hover',
          textAlign: 'center',
          maxWidth: '85%',
        }}
      >
        {message.message}
      </Typography>
    </Box>
  );
}

/** A visitor's words; on Instagram and Messenger, marked when they edited them, or said gone when unsent. */
function UserText({ message }: { message: ChatMessage }) {
  if (message.unsent_at)
    return (
      <Typography variant="body2" component="span" sx={{ fontStyle: 'italic', opacity: 0.85 }}>
        {HELPDESK_TEXTS.unsent}
      </Typography>
    );
  return (
    <Typography variant="body2" component="span">
      {message.message}
      {message.edited ? (
        <Typography variant="caption" component="span" sx={{ opacity: 0.8 }}>
          {` (${HELPDESK_TEXTS.edited})`}
        </Typography>
      ) : null}
    </Typography>
  );
}

function MessageItem({
  message,
  brandColor,
  explain,
  onRequestHuman,
  showTime,
  answerFooter,
}: {
  message: ChatMessage;
  brandColor: string;
  /** How much to say under an answer of how it was made: everything, only a model's answer held back, or nothing. */
  explain: 'all' | 'held back' | null;
  onRequestHuman?: () => void;
  showTime: boolean;
  answerFooter?: (message: ChatMessage) => ReactNode;
}) {
  const t = useChatTexts();
  const time = showTime ? message.timestamp : undefined;
  if (message.message_type === 'system') return <SystemNotice message={message} />;
  if (message.message_type === 'user') {
    return (
      <Bubble side="right" brandColor={brandColor} testId="user-message" sender="user" time={time}>
        <UserText message={message} />
      </Bubble>
    );
  }
  const agent = message.message_type === 'helpdesk';
  const person = onRequestHuman ? message.actions.find((action) => action.type === 'human') : undefined;
  const bookings = agent ? [] : message.actions.filter((action) => action.type === 'booking');
  return (
    <Bubble
      side="left"
      brandColor={brandColor}
      label={agent ? t.agent : undefined}
      testId={agent ? 'agent-message' : 'bot-message'}
      sender={message.message_type}
      time={time}
    >
      <Typography variant="body2" component="div">
        <MarkdownText text={agent ? message.message : linkCitations(message.message, message.sources)} />
      </Typography>
      {agent ? null : <MessageSources message={message} />}
      {explain === 'all' || (explain === 'held back' && message.unverified?.length) ? (
        <AnswerNote message={message} />
      ) : null}
      {bookings.map((action) => (
        <BookingButton key={action.url} action={action} />
      ))}
      {agent || !answerFooter ? null : answerFooter(message)}
      {person ? (
        <Button size="small" variant="outlined" onClick={onRequestHuman} sx={{ mt: 1 }}>
          {person.title}
        </Button>
      ) : null}
    </Bubble>
  );
}

function Thinking() {
  const t = useChatTexts();
  return (
    <Box component="li" sx={{ display: 'flex' }} data-testid="bot-thinking">
      <Box
        role="status"
        aria-label={t.thinking}
        sx={{
          px: 1.5,
          py: 1,
          borderRadius: 2,
          bgcolor: 'action.hover',
          display: 'flex',
          gap: 0.5,
          '@keyframes parleyDot': { '0%, 80%, 100%': { opacity: 0.25 }, '40%': { opacity: 1 } },
        }}
      >
        {[0, 1, 2].map((i) => (
          <Box
            key={i}
            sx={{
              width: 6,
              height: 6,
              borderRadius: '50%',
              bgcolor: 'text.secondary',
              animation: `parleyDot 1.2s ${i * 0.15}s infinite ease-in-out`,
            }}
          />
        ))}
      </Box>
    </Box>
  );
}

/** The bot's welcome message a conversation starts with (seq 1). */
export function isSeededWelcome(message: ChatMessage): boolean {
  return message.seq === 1 && message.message_type === 'bot';
}

export type MessageListProps = {
  messages: readonly ChatMessage[];
  welcome: string;
  brandColor: string;
  /** The answer being streamed, shown as it grows. */
  draft: string | null;
  thinking: boolean;
  /** The visitor's message held until the chat connects, shown faded as theirs. */
  pending?: string | null;
  frames: readonly ChatFrame[];
  /** Rendered after the welcome message (suggested questions, lead form, booking card). */
  intro?: ReactNode;
  /** Rendered after the messages (the contact form the hand-off offered). */
  outro?: ReactNode;
  /** The owner's playground: say under each answer how it was made (never shown to visitors). */
  explainAnswers?: boolean;
  /** The inbox: say under an answer when the model's own was held back, and why (never shown to visitors). */
  explainHeldBack?: boolean;
  /**
   * The inbox's paged thread, while older messages are not loaded: shown at the top in place of the
   * welcome (which belongs to the start), e.g. "Loading earlier messages…".
   */
  earlier?: ReactNode;
  /** "Talk to a person" under answers that offer one; absent where a person cannot be asked for now. */
  onRequestHuman?: () => void;
  /** Every message's time under it (the inbox). */
  showTimes?: boolean;
  /** Under each bot answer (the playground's thumbs up and down). */
  answerFooter?: (message: ChatMessage) => ReactNode;
};

/**
 * A chat's messages: the visitor's on the right in the brand colour, the bot's and agents' on the
 * left (bot answers as Markdown with their sources, agent replies labelled). Frames show inline in
 * their colours (spec section 8). Keeps the newest message in view.
 */
export function MessageList({
  messages,
  welcome,
  brandColor,
  draft,
  thinking,
  pending = null,
  frames,
  intro,
  outro,
  explainAnswers = false,
  explainHeldBack = false,
  onRequestHuman,
  showTimes = false,
  answerFooter,
  earlier,
}: MessageListProps) {
  const t = useChatTexts();
  const end = useRef<HTMLDivElement>(null);
  // The server seeds each conversation with the welcome message as seq 1: it takes the welcome's place.
  const seeded = messages.find(isSeededWelcome);
  const shown = seeded ? messages.filter((m) => m !== seeded) : messages;
  const lastSeq = messages.length ? messages[messages.length - 1]?.seq : 0;
  const firstSeq = messages[0]?.seq ?? 0;
  const edges = useRef({ first: firstSeq, last: lastSeq });
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the content grows
  useEffect(() => {
    const before = edges.current;
    edges.current = { first: firstSeq, last: lastSeq };
    // Older messages loaded above (the inbox, scrolled up): the reader stays where they are.
    if (lastSeq === before.last && firstSeq < before.first) return;
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [lastSeq, firstSeq, messages.length, draft, thinking, pending, frames.length]);

  return (
    <Box sx={{ flex: 1, overflowY: 'auto', px: 2, py: 2 }}>
      <Stack
        component="ol"
        spacing={1.5}
        aria-label={t.messages}
        aria-live="polite"
        sx={{ listStyle: 'none', m: 0, p: 0 }}
      >
        {earlier !== undefined ? (
          <Box component="li">{earlier}</Box>
        ) : (
          <Bubble side="left" brandColor={brandColor} testId="welcome-message">
            <Typography variant="body2" component="div">
              <MarkdownText text={seeded?.message ?? welcome} />
            </Typography>
          </Bubble>
        )}
        {intro ? (
          // Hidden when everything in it renders nothing (no suggestions, form or booking).
          <Box component="li" sx={{ '&:has(> :empty)': { display: 'none' } }}>
            {intro}
          </Box>
        ) : null}
        {shown.map((message) => (
          <MessageItem
            key={`${message.conversation_id}:${message.seq}`}
            message={message}
            brandColor={brandColor}
            explain={explainAnswers ? 'all' : explainHeldBack ? 'held back' : null}
            onRequestHuman={onRequestHuman}
            showTime={showTimes}
            answerFooter={answerFooter}
          />
        ))}
        {pending !== null ? (
          <Bubble side="right" brandColor={brandColor} testId="pending-message" note={t.sending} pending>
            <Typography variant="body2" component="span">
              {pending}
            </Typography>
          </Bubble>
        ) : null}
        {outro ? <Box component="li">{outro}</Box> : null}
        {draft ? (
          <Bubble side="left" brandColor={brandColor} testId="streaming-message">
            <Typography variant="body2" component="div">
              <MarkdownText text={draft} />
            </Typography>
          </Bubble>
        ) : thinking && pending === null ? (
          <Thinking />
        ) : null}
        {frames.map((frame) => (
          <Box component="li" key={frame.id} data-testid="chat-frame" data-kind={frame.kind}>
            <Alert severity={frameSeverity(frame.kind)} variant="outlined" sx={{ py: 0 }}>
              {frame.message}
            </Alert>
          </Box>
        ))}
      </Stack>
      <div ref={end} />
    </Box>
  );
}
