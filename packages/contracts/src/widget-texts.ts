/**
 * Every word the website widget itself shows a visitor, in each visitor language. Not here: what the
 * owner wrote (welcome, suggestions, lead form, booking) and what the server sends (answers, notices,
 * its `detail` of a refusal); but the default welcome, which the owner did not write, is.
 *
 * The widget builds in English only; the server sends the bot's language as `PublicBot.texts`
 * (WIDGET_TEXTS of widget-texts-translations.ts), so the translations stay out of the widget's
 * bundle. Every entry is a string: those that take a value are templates with named placeholders
 * (`{name}`), filled by fillText. This module imports nothing, so the widget takes it without zod.
 */

export type WidgetTexts = {
  /** The language's BCP 47 code, the widget's `lang`. */
  lang: string;
  openChat: string;
  /** The launcher's name for screen readers while answers wait unread: `{count}` of them. */
  openChatUnread: string;
  closeChat: string;
  close: string;
  /** The chat panel's name for screen readers: `{name}` is the bot's. */
  chatWith: string;
  newChat: string;
  /** A bot's default welcome (defaultWelcome, welcomeIn): `{name}` is the business's. */
  welcome: string;
  online: string;
  away: string;
  offline: string;
  connecting: string;
  reconnecting: string;
  unavailable: string;
  humanAvailable: string;
  messages: string;
  suggestedQuestions: string;
  bookMeeting: string;
  bookTime: string;
  thinking: string;
  agent: string;
  sources: string;
  /** After a source's title: `{n}` is its page number. */
  page: string;
  /** A source's freshness: `{when}` is a relative time in the language ("3 days ago", "yesterday"). */
  synced: string;
  syncedJustNow: string;
  qna: string;
  qnaTitle: string;
  goodAnswer: string;
  badAnswer: string;
  /** BAD_ANSWER_OFFER of the chat client. */
  badAnswerOffer: string;
  /** PERSON_BUTTON (HANDOFF_TEXTS.button) of the contracts. */
  person: string;
  connectionLost: string;
  /** MESSAGES.realtime.unableToEstablish. */
  unableToEstablish: string;
  /** MESSAGES.realtime.sendFailed (a socket error frame's code `send_failed`). */
  sendFailed: string;
  /** Under a message held until the chat connects (it goes once connected). */
  sending: string;
  /** The rate limit's warning (a socket frame's code `too_fast`). */
  tooFast: string;
  /** The API could not be reached at all. */
  unreachable: string;
  /** The API refused without saying why: `{status}` is the HTTP status. */
  requestFailed: string;
  /** The visitor identity was refused (403): this site may not embed the bot. */
  notAllowed: string;
  /** The visitor identity was refused (404): the bot is gone. */
  botNotFound: string;
  placeholder: string;
  messageLabel: string;
  sendMessage: string;
  send: string;
  notNow: string;
  /** A required field left empty: `{label}` is the field's (a translation may leave it out). */
  required: string;
  invalidEmail: string;
  /** A field over 500 characters: `{label}` is the field's (a translation may leave it out). */
  tooLong: string;
  leadFailed: string;
  /** HANDOFF_TEXTS.contactFailed. */
  contactFailed: string;
  /** LEAD_TEXTS.received. */
  thanks: string;
  /** CONTACT_FORM's title and its fields' labels. */
  contactTitle: string;
  contactName: string;
  contactEmail: string;
  contactQuestion: string;
  poweredBy: string;
};

/**
 * The widget's words as they were before it spoke other languages: browser tests click them. Those the
 * contracts and chat client also keep are written out, not imported (the contracts' hand-off and lead
 * texts would bring zod into the widget, +25 KB gzip); tests check they stay the same.
 */
export const WIDGET_TEXTS_ENGLISH: WidgetTexts = {
  lang: 'en',
  openChat: 'Open chat',
  openChatUnread: 'Open chat, unread messages: {count}',
  closeChat: 'Close chat',
  close: 'Close',
  chatWith: 'Chat with {name}',
  newChat: 'New chat',
  welcome: 'Welcome to {name}! How can I help you today?',
  online: 'Online',
  away: 'Our team is away',
  offline: 'Offline',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  unavailable: 'Unavailable',
  humanAvailable: 'A human is available',
  messages: 'Messages',
  suggestedQuestions: 'Suggested questions',
  bookMeeting: 'Book a meeting',
  bookTime: 'Book a time',
  thinking: 'The bot is thinking',
  agent: 'Agent',
  sources: 'Sources',
  page: 'p. {n}',
  synced: 'synced {when}',
  syncedJustNow: 'synced just now',
  qna: 'Q&A',
  qnaTitle: 'Answered from Q&A',
  goodAnswer: 'Good answer',
  badAnswer: 'Bad answer',
  badAnswerOffer: "Sorry that didn't help. Someone from our team can answer instead.",
  person: 'Talk to a person',
  connectionLost: 'Connection lost. Reconnecting…',
  unableToEstablish:
    'Unable to establish connection to the server. Please refresh the page or try again later.',
  sendFailed: 'Failed to send message. Please try again.',
  sending: 'Sending…',
  tooFast: 'You are sending messages too quickly. Please wait a moment.',
  unreachable: 'The chat could not be reached. Please try again later.',
  requestFailed: 'Request failed ({status})',
  notAllowed: 'This site is not allowed to embed this bot',
  botNotFound: 'Bot not found',
  placeholder: 'Type your message…',
  messageLabel: 'Message',
  sendMessage: 'Send message',
  send: 'Send',
  notNow: 'Not now',
  required: '{label} is required',
  invalidEmail: 'Enter a valid email address',
  tooLong: '{label} is at most 500 characters',
  leadFailed: 'The details could not be sent. Please try again.',
  contactFailed: 'Your details could not be sent. Please try again.',
  thanks: 'Thank you! Your details have been received.',
  contactTitle: 'Leave your contact details',
  contactName: 'Name',
  contactEmail: 'Email',
  contactQuestion: 'Your question',
  poweredBy: 'Powered by Parley',
};

/** A template with its `{placeholders}` filled; one not given stays as written. */
export function fillText(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : placeholder,
  );
}
