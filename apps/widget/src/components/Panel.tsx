import {
  type ChatSocketStatus,
  contactFormDue,
  leadFormDue,
  mayAskForPerson,
  takesMessages,
} from '@parley/chat-client';
import { type MarkdownOptions, renderMarkdown } from '@parley/chat-client/markdown';
import { type ChatMessage, fillText, type PublicBot, welcomeOf } from '@parley/contracts';
import { Fragment, type Ref } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { imageUrl } from '../api';
import type { SessionState } from '../session';
import { contactFormIn, useTexts, type WidgetTexts } from '../texts';
import { onPhone } from '../viewport';
import { useArrivals } from './arrivals';
import { Composer } from './Composer';
import { CloseIcon, NewChatIcon } from './icons';
import { LeadForm } from './LeadForm';
import { Markdown } from './Markdown';
import { BookingButton, Message, type Rate } from './Message';

export type LeadState = 'form' | 'sent' | 'dismissed';

type Props = {
  apiBase: string;
  bot: PublicBot;
  state: SessionState;
  open: boolean;
  markdown: MarkdownOptions;
  inputRef: Ref<HTMLTextAreaElement>;
  /** The panel itself, which takes the focus when it opens on a phone. */
  dialogRef?: Ref<HTMLElement>;
  lead: LeadState;
  /** The lead was sent during this page's life, after the message with this seq (0: before any). */
  leadSentAfter: number | null;
  onSend: (text: string) => boolean;
  onLead: (fields: Record<string, string>) => Promise<string | null>;
  onLeadDismiss: () => void;
  /** The contact form of a visitor nobody could come to; resolves to the server's error text, or null. */
  onContact: (fields: Record<string, string>) => Promise<string | null>;
  onNewChat: () => void;
  onClose: () => void;
  onRequestHuman: () => void;
  onRate?: Rate;
  onBookingClick?: () => void;
};

/** Escape closes the chat, wherever the focus is inside it. */
export function closeOnEscape(onClose: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };
}

const FRAME_CLASS = {
  error: 'error',
  warning: 'warning',
  confirmation: 'success',
  helpdesk_control: 'success',
};

/** The bot's welcome message a conversation starts with (seq 1). */
const isSeededWelcome = (m: ChatMessage) => m.seq === 1 && m.message_type === 'bot';

/** Connected, the header says whether a person could join now: the bot answers either way. */
function statusText(t: WidgetTexts, status: ChatSocketStatus, gaveUp: boolean, agentsOnline: boolean) {
  if (status === 'open') return agentsOnline ? t.online : t.away;
  if (status === 'failed' || gaveUp) return t.offline;
  return status === 'closed' ? t.reconnecting : t.connecting;
}

function dotClass(state: SessionState): string {
  if (state.status === 'open') return state.agentsOnline ? 'open' : 'away';
  return state.gaveUp ? 'failed' : state.status;
}

function Avatar({ apiBase, bot }: { apiBase: string; bot: PublicBot }) {
  const [broken, setBroken] = useState(false);
  const src = imageUrl(apiBase, bot.profile_image);
  if (src && !broken) return <img class="avatar" src={src} alt="" onError={() => setBroken(true)} />;
  return (
    <span class="avatar" aria-hidden="true">
      {(bot.bot_name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}

/** An answer's words without its Markdown: an inert template parses it, so no image loads. */
function plainText(text: string, markdown: MarkdownOptions): string {
  const holder = document.createElement('template');
  holder.innerHTML = renderMarkdown(text, markdown);
  return (holder.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * What a screen reader is told of each new answer (the bot's, an agent's, a notice): once, whole,
 * with who said it. The message list is no live region: it would read a streamed answer in pieces
 * and a history, as it loads, all at once.
 */
function Announcer({ messages, markdown }: { messages: readonly ChatMessage[]; markdown: MarkdownOptions }) {
  const t = useTexts();
  const [said, setSaid] = useState({ text: '', count: 0 });
  useArrivals(messages, (message) => {
    const who = message.message_type === 'helpdesk' ? `${t.agent}: ` : '';
    // The same words twice must still change the region, or they would not be read again.
    setSaid((was) => ({ text: who + plainText(message.message, markdown), count: was.count + 1 }));
  });
  return (
    <div class="sr" role="status" data-testid="announcer">
      {said.text}
      {said.count % 2 ? '\u00a0' : ''}
    </div>
  );
}

/** The chat panel: header, messages with the intro (suggestions, booking, lead form), composer. */
export function Panel(props: Props) {
  const { apiBase, bot, state, open, markdown, lead, leadSentAfter } = props;
  const t = useTexts();
  const contactForm = useMemo(() => contactFormIn(t), [t]);
  const body = useRef<HTMLDivElement>(null);
  const seeded = state.messages.find(isSeededWelcome);
  const shown = seeded ? state.messages.filter((m) => m !== seeded) : state.messages;
  const started = state.messages.some((m) => m.message_type === 'user');
  const connected = state.status === 'open';
  // A message may be sent while the chat connects or reconnects: it is held and goes once connected.
  const canSend = takesMessages(state.status) && !state.gaveUp && state.blocked === null && !state.thinking;
  const config = bot.lead_form_config;
  const leadDue = lead === 'form' && leadFormDue(config, state.messages);
  const leadBeforeChat = config?.show_when === 'before_chat';
  const welcome = welcomeOf(bot.welcome_message, bot.bot_name);
  // A person can be asked for unless one is already coming or here (or the owner turned it off).
  const requestHuman =
    mayAskForPerson(bot.human_button, state.messages) && connected ? props.onRequestHuman : undefined;

  const leadBlock =
    leadDue && config ? (
      <li class="row" style={{ alignItems: 'stretch' }}>
        <LeadForm config={config} onSubmit={props.onLead} onDismiss={props.onLeadDismiss} />
      </li>
    ) : null;
  // The thank-you stays where the form was: after the message that was last when it was sent.
  const thanks = (
    <li class="frame success" role="status">
      {t.thanks}
    </li>
  );
  const thanksAfter =
    leadSentAfter !== null && shown.some((m) => m.seq === leadSentAfter) ? leadSentAfter : null;

  // Keeps the newest content in view as it grows, unless the visitor scrolled up to read: a long
  // answer streaming in would pull them down at every piece. Their own message brings them back.
  const atEnd = useRef(true);
  useEffect(() => {
    atEnd.current = true;
  }, [open, state.pending]);
  useEffect(() => {
    const element = body.current;
    if (element && open && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [
    open,
    state.messages.length,
    state.draft,
    state.thinking,
    state.pending,
    state.frames.length,
    leadDue,
    leadSentAfter,
  ]);
  const onScroll = () => {
    const element = body.current;
    if (element) atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
  };

  // Nobody could come: the contact form, until sent or put off ("Not now" puts off this offer only).
  const [contactPutOff, setContactPutOff] = useState<number | null>(null);
  const contact = contactFormDue(state.messages);
  const contactBlock =
    contact && contact.offeredAt !== contactPutOff ? (
      <li class="row" style={{ alignItems: 'stretch' }}>
        <LeadForm
          key={contact.offeredAt}
          config={contactForm}
          initial={{ question: contact.question }}
          onSubmit={props.onContact}
          onDismiss={() => setContactPutOff(contact.offeredAt)}
        />
      </li>
    ) : null;

  const questions = bot.suggestion_questions.filter((q) => q.trim());
  return (
    <section
      ref={props.dialogRef}
      id="parley-chat-panel"
      class="panel"
      tabIndex={-1}
      role="dialog"
      // Filling a phone's screen it is modal: a screen reader does not wander to the page behind.
      aria-modal={open && onPhone()}
      aria-label={fillText(t.chatWith, { name: bot.bot_name })}
      hidden={!open}
      onKeyDown={closeOnEscape(props.onClose)}
    >
      <header class="header">
        <Avatar apiBase={apiBase} bot={bot} />
        <div class="title">
          <h2 class="name">{bot.bot_name}</h2>
          <div class="status" data-testid="connection-status" data-status={state.status}>
            <span class={`dot ${dotClass(state)}`} />
            {state.blocked ? t.unavailable : statusText(t, state.status, state.gaveUp, state.agentsOnline)}
          </div>
        </div>
        <button
          class="icon-btn"
          type="button"
          aria-label={t.newChat}
          title={t.newChat}
          onClick={props.onNewChat}
        >
          <NewChatIcon />
        </button>
        <button
          class="icon-btn"
          type="button"
          aria-label={t.closeChat}
          title={t.close}
          onClick={props.onClose}
        >
          <CloseIcon size={20} />
        </button>
      </header>
      {state.agentsOnline && connected ? (
        <div class="human" role="status">
          {t.humanAvailable}
        </div>
      ) : null}
      <Announcer messages={state.messages} markdown={markdown} />
      <div class="body" ref={body} onScroll={onScroll}>
        <ol class="list" aria-label={t.messages}>
          <li class="row" data-testid="welcome-message">
            <div class="bubble">
              <Markdown text={seeded?.message ?? welcome} options={markdown} />
            </div>
          </li>
          {!started && questions.length ? (
            <li>
              <fieldset class="chips" aria-label={t.suggestedQuestions}>
                {questions.map((question) => (
                  <button
                    key={question}
                    class="chip"
                    type="button"
                    disabled={!canSend}
                    onClick={() => props.onSend(question)}
                  >
                    {question}
                  </button>
                ))}
              </fieldset>
            </li>
          ) : null}
          {!started && bot.booking ? (
            <li>
              <section class="card" aria-label={t.bookMeeting}>
                <h3>{bot.booking.title}</h3>
                {bot.booking.message ? <p>{bot.booking.message}</p> : null}
                <BookingButton
                  action={{ title: t.bookTime, url: bot.booking.url }}
                  onClick={props.onBookingClick}
                />
              </section>
            </li>
          ) : null}
          {leadBeforeChat ? leadBlock : null}
          {leadSentAfter !== null && thanksAfter === null ? thanks : null}
          {shown.map((message) => (
            <Fragment key={`${message.conversation_id}:${message.seq}`}>
              <Message
                message={message}
                markdown={markdown}
                onRequestHuman={requestHuman}
                onRate={props.onRate}
                onBookingClick={props.onBookingClick}
              />
              {message.seq === thanksAfter ? thanks : null}
            </Fragment>
          ))}
          {state.pending !== null ? (
            <li class="row mine pending" data-testid="pending-message" aria-busy="true">
              <div class="bubble" dir="auto">
                {state.pending}
              </div>
              <div class="note">{t.sending}</div>
            </li>
          ) : null}
          {contactBlock}
          {leadBeforeChat || contactBlock ? null : leadBlock}
          {state.draft ? (
            <li class="row" data-testid="streaming-message">
              <div class="bubble">
                <Markdown text={state.draft} options={markdown} />
              </div>
            </li>
          ) : state.thinking && state.pending === null ? (
            <li class="row">
              <div class="bubble typing" role="status" aria-label={t.thinking}>
                <i />
                <i />
                <i />
              </div>
            </li>
          ) : null}
          {state.frames.map((frame) => (
            <li
              key={frame.id}
              class={`frame ${FRAME_CLASS[frame.kind]}`}
              role={frame.kind === 'error' ? 'alert' : 'status'}
              data-testid="chat-frame"
              data-kind={frame.kind}
            >
              {frame.message}
            </li>
          ))}
        </ol>
      </div>
      {state.blocked ? (
        <div class="conn failed" role="alert">
          {state.blocked}
        </div>
      ) : connected ? null : (
        <div class={`conn${state.gaveUp ? ' failed' : ''}`} role="status">
          {state.gaveUp ? t.unableToEstablish : state.status === 'closed' ? t.connectionLost : t.connecting}
        </div>
      )}
      {requestHuman && bot.human_button === 'always' ? (
        <div class="person">
          <button class="btn plain" type="button" onClick={requestHuman}>
            {t.person}
          </button>
        </div>
      ) : null}
      <Composer inputRef={props.inputRef} onSend={props.onSend} disabled={!canSend} />
      {bot.show_branding ? (
        <a class="branding" href="https://parley.chat" target="_blank" rel="noopener noreferrer">
          {t.poweredBy}
        </a>
      ) : null}
    </section>
  );
}
