import { type MessageAction, VISITOR_LANGUAGES, WIDGET_TEXTS } from '@parley/contracts';
import type { MessageRow } from '../chat/chat.queries.js';
import { replyTexts } from '../chat/reply-texts.js';
import { asksForHuman } from '../handoff/intent.js';
import { partsFor, split, TEXT_LIMIT } from './channel-text.js';
import { GraphError } from './meta.client.js';

/**
 * The buttons under a bot's answer as Instagram, Messenger and WhatsApp show them. Only the way to
 * a person travels: the lead and contact forms exist on the web only, and a booking's link is in
 * the answer's words already. It goes as a quick reply (Messenger, Instagram) or a reply button
 * (WhatsApp) on the answer's last part, and a tap comes back with PERSON_PAYLOAD.
 */
export const PERSON_PAYLOAD = 'PARLEY_TALK_TO_PERSON';

/** WhatsApp refuses reply-button titles past 20 characters; Messenger and Instagram cut quick replies there. */
export const BUTTON_TITLE_LIMIT = 20;

/** WhatsApp's interactive message carries at most 1,024 characters of body (a text message 4,096). */
export const INTERACTIVE_BODY_LIMIT = 1024;

export type ChannelButton = { title: string; payload: string };

/** One message of an answer as a channel sends it: its words, and the button riding on it. */
export type OutgoingPart = { text: string; button?: ChannelButton };

type Channel = keyof typeof TEXT_LIMIT;
type Outgoing = Pick<MessageRow, 'message' | 'sources' | 'metadata'>;

/**
 * Titles of "Talk to a person" that do not fit in 20 characters, said shorter in the same language
 * (a word cut in the middle reads badly on a button), in words that still ask for a person when
 * typed (handoff/intent.ts).
 */
const SHORT_TITLES: Record<string, string> = {
  [WIDGET_TEXTS.spanish.person]: 'Hablar con alguien',
  [WIDGET_TEXTS.french.person]: 'Parler à quelqu’un',
  [WIDGET_TEXTS.german.person]: 'Mit jemandem reden',
  [WIDGET_TEXTS.italian.person]: 'Parla con qualcuno',
  [WIDGET_TEXTS.dutch.person]: 'Met iemand praten',
  [WIDGET_TEXTS.russian.person]: 'Говорить с человеком',
  [WIDGET_TEXTS.hungarian.person]: 'Beszélek valakivel',
  [WIDGET_TEXTS.finnish.person]: 'Puhu ihmisen kanssa',
};

/** A button title within the limit: its short form, else cut at a word with an ellipsis. */
export function buttonTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length <= BUTTON_TITLE_LIMIT) return trimmed;
  const short = SHORT_TITLES[trimmed];
  if (short) return short;
  const room = trimmed.slice(0, BUTTON_TITLE_LIMIT - 1);
  const cut = trimmed[room.length] === ' ' ? room.length : room.lastIndexOf(' ');
  return `${(cut > BUTTON_TITLE_LIMIT / 2 ? room.slice(0, cut) : room).trimEnd()}…`;
}

/** The answer's "Talk to a person" action, if it has one; every other action stays on the web. */
export function personActionOf(message: Pick<MessageRow, 'metadata'>): MessageAction | null {
  const actions = (message.metadata as { actions?: MessageAction[] } | null)?.actions ?? [];
  return actions.find((action) => action.type === 'human') ?? null;
}

/**
 * The line that tells a visitor how to ask for a person when the button cannot be shown, in the
 * button's language; none when the answer says so already ("Would you like to talk to a person…").
 */
export function personHint(text: string, title: string): string | null {
  if (asksForHuman(text)) return null;
  const language = VISITOR_LANGUAGES.find((l) => WIDGET_TEXTS[l].person === title) ?? 'english';
  return replyTexts('', ['english'], language).offerHumanLater.trim();
}

/**
 * An answer as the channel's messages: its text split as partsFor splits it, the person button on
 * the last one (on WhatsApp that one is cut to an interactive body's 1,024 characters). `plain`: the
 * channel refused the button, so the last part says in words how to ask for a person instead. The
 * parts before the last are the same either way, so a send that switches to plain midway resumes
 * where it was.
 */
export function outgoingParts(channel: Channel, message: Outgoing, plain = false): OutgoingPart[] {
  const texts = partsFor(channel, message);
  const action = personActionOf(message);
  if (!action) return texts.map((text): OutgoingPart => ({ text }));
  const last = texts.at(-1)!;
  const tail = channel === 'whatsapp' ? split(last, INTERACTIVE_BODY_LIMIT) : [last];
  const parts: OutgoingPart[] = [...texts.slice(0, -1), ...tail].map((text) => ({ text }));
  const end = parts.at(-1)!;
  if (!plain) {
    end.button = { title: buttonTitle(action.title), payload: PERSON_PAYLOAD };
    return parts;
  }
  const hint = personHint(message.message, action.title);
  if (!hint) return parts;
  const joined = `${end.text}\n\n${hint}`;
  if (joined.length <= TEXT_LIMIT[channel]) end.text = joined;
  else parts.push({ text: hint });
  return parts;
}

/**
 * Graph's answers to a message it will not take as built: an invalid or missing parameter (100;
 * WhatsApp's 131008 and 131009) or a kind of message the account or the app cannot send (131051).
 * Throttling, a dead token, a closed window or a user who blocked the page are not among them:
 * text would meet the same.
 */
const REFUSED_AS_BUILT = new Set([100, 131008, 131009, 131051]);

/** Whether a part sent with a button was refused for what it carries, so it goes again as text. */
export const buttonRefused = (part: OutgoingPart, error: unknown): boolean =>
  part.button !== undefined &&
  error instanceof GraphError &&
  error.kind === 'permanent' &&
  error.code !== null &&
  REFUSED_AS_BUILT.has(error.code);
