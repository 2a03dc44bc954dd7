import type { LeadFormConfig } from './bots.js';
import { fillText, WIDGET_TEXTS_ENGLISH, type WidgetTexts } from './widget-texts.js';

/** Business constants and limits (spec console.md section 9 and integrations-and-billing.md section 9). */
/** The button that asks for a person, wherever a visitor sees it (HANDOFF_TEXTS.button). */
export const PERSON_BUTTON = 'Talk to a person';

/**
 * An answer that did not surely answer: the bot said it did not know (`not_found`), or quoted
 * sources that hold only part of the question and said it was not sure (`unsure`). Either offers a
 * person, opens a lead form shown on no answer, and gives a request for a person that follows it
 * its reason.
 */
export const missedAnswer = (mode: string | null | undefined): boolean =>
  mode === 'not_found' || mode === 'unsure';

/**
 * The languages a bot speaks to its visitors in: the widget's own words, the hand-off's notices and
 * the bot's own lines. A bot's `visitor_language` is one of them, or `auto`: the language its
 * sources are written in, when that is one of these, else English.
 */
export const VISITOR_LANGUAGES = [
  'english',
  'spanish',
  'french',
  'german',
  'italian',
  'portuguese',
  'dutch',
  'danish',
  'swedish',
  'norwegian',
  'finnish',
  'russian',
  'hungarian',
  'turkish',
] as const;
export type VisitorLanguage = (typeof VISITOR_LANGUAGES)[number];
/** Each language by its own name, as an owner picks it. */
export const VISITOR_LANGUAGE_NAMES: Record<VisitorLanguage, string> = {
  english: 'English',
  spanish: 'Español',
  french: 'Français',
  german: 'Deutsch',
  italian: 'Italiano',
  portuguese: 'Português',
  dutch: 'Nederlands',
  danish: 'Dansk',
  swedish: 'Svenska',
  norwegian: 'Norsk',
  finnish: 'Suomi',
  russian: 'Русский',
  hungarian: 'Magyar',
  turkish: 'Türkçe',
};

export const SOCKET = {
  maxReconnectAttempts: 10,
  backoffBaseMs: 1000,
  backoffJitterMs: 1000,
  backoffCapMs: 30_000,
  userReconnectDelayMs: 3000,
  adminOpenTimeoutMs: 10_000,
  adminConnectionWaitMs: 10_000,
  pingIntervalMs: 30_000,
  /**
   * A visitor's message whose stored copy has not come back by then: the socket is taken for dead
   * (a phone that changed network keeps it looking open), reopened, and the message sent again.
   */
  confirmTimeoutMs: 10_000,
  chunkBatchMs: 16,
  presencePollMs: 5000,
} as const;

export const UI_TIMING = {
  logoutRedirectMs: 300,
  toastMs: 2000,
  /** A success notice: long enough to read, in the one toast queue (it no longer also shows in the page). */
  noticeMs: 4000,
  /** At most this many toasts at once: older ones leave, so repeated notices never pile up. */
  maxToasts: 3,
  alertMs: 10_000,
  blobDownloadTimeoutMs: 10_000,
  scrollTopAfterPx: 400,
} as const;

export const LAYOUT = {
  navigationWidth: 208,
  collapsedNavigationWidth: 66,
  boxedMaxWidth: 1440,
  toolbarHeight: 64,
  breakpoints: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 },
} as const;

export const LISTS = { defaultPage: 1, defaultSize: 10 } as const;

export const BOT = {
  nameMaxLength: 50,
  defaultTemperature: 1,
  /** Sources listed under an answer: 3 unless the owner sets 1 to 5. */
  defaultCitations: 3,
  maxCitations: 5,
  /** An answer whose best passage holds less than this share of the question's words offers a person. */
  defaultHandoffConfidence: 0.34,
  /**
   * A new bot's brand colour (the widget's launcher and header): a blue that shows on white and on
   * dark pages and carries white text. White (#ffffff) made an invisible launcher on white pages.
   */
  defaultBrandColor: '#1a56db',
  /** The greeting of bots made before greetings named the business; still recognised in the inbox. */
  legacyWelcomeMessage: "Welcome I'm here to help you with your queries",
  newConversationName: 'New Chat',
} as const;

/**
 * The rules of name fields (console.md section 5), shown under each field before anyone types, and
 * again after a refusal, whose spec text ("Only alphanumeric characters and underscores are allowed")
 * does not say that a bot name may hold spaces.
 */
export const NAME_RULES = {
  bot: `Letters, digits, underscores and spaces; at most ${BOT.nameMaxLength} characters.`,
  fileGroup: 'Letters, digits and underscores, no spaces (for example shop_faq).',
} as const;

/** A field's refusal followed by its rule, or the rule alone. */
export const withRule = (error: string | null | undefined, rule: string): string =>
  error ? `${error}. ${rule}` : rule;

/**
 * The name a greeting gives the business: the workspace's name when someone chose it at sign-up,
 * else the bot's (underscores read as spaces). "Jane's workspace", the automatic name, names no business.
 */
export function businessName(workspaceName: string | null | undefined, botName: string): string {
  const workspace = workspaceName?.trim() ?? '';
  if (workspace && !/'s workspace$/i.test(workspace)) return workspace;
  return botName.replaceAll('_', ' ').replace(/\s+/g, ' ').trim() || workspace || 'us';
}

/** A new bot's greeting, and the one shown when a bot has none: a sentence that names the business. */
export function defaultWelcome(name: string, texts: WidgetTexts = WIDGET_TEXTS_ENGLISH): string {
  return fillText(texts.welcome, { name: name.trim() || 'us' });
}

/** What a bot greets with: its own welcome message, or the default one naming it. */
export function welcomeOf(welcome: string | null | undefined, botName: string): string {
  return welcomeIn(welcome, botName, WIDGET_TEXTS_ENGLISH);
}

/**
 * What a bot greets with in a visitor language: the owner's own welcome as written; the default one
 * (a bot's greeting until its owner edits it, written in English when the bot was made) in the
 * language's words, naming the same business.
 */
export function welcomeIn(welcome: string | null | undefined, botName: string, texts: WidgetTexts): string {
  const own = welcome?.trim();
  if (!own) return defaultWelcome(businessName(null, botName), texts);
  const named = DEFAULT_WELCOME.exec(own)?.[1];
  return named === undefined ? own : defaultWelcome(named, texts);
}

/** Whether a bot greets with the default welcome: it has none, or the one it was made with. */
export const isDefaultWelcome = (welcome: string | null | undefined): boolean =>
  !welcome?.trim() || DEFAULT_WELCOME.test(welcome.trim());

/** The English default welcome, its business's name captured. */
const DEFAULT_WELCOME = new RegExp(
  `^${WIDGET_TEXTS_ENGLISH.welcome
    .split('{name}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('(.+)')}$`,
);

/**
 * The contact form a visitor is offered when they ask for a person and nobody from the team can
 * come (issue 31 item 5): the same on every bot, whether or not its own lead form is on. Kept here,
 * free of zod, because the widget shows it. What it sends is POST /chat/conversations/{id}/contact.
 */
export const CONTACT_FORM = {
  enabled: true,
  title: 'Leave your contact details',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
    { name: 'question', label: 'Your question', type: 'text', required: true },
  ],
  show_when: 'no_answer',
  after_messages: 1,
} as const satisfies LeadFormConfig;

export const CALENDAR_PROVIDERS = ['google', 'calendly', 'cal', 'tidycal'] as const;

export const SYNC = {
  defaultLimit: 100,
  shopifyPageSize: 50,
  shopifyCustomers: 1000,
  wooPageSize: 50,
} as const;

/** Security limits of accounts (issue "Server foundation"). */
export const AUTH_LIMITS = {
  accessTokenMaxSeconds: 900,
  otpDigits: 6,
  otpTtlMinutes: 10,
  otpMaxAttempts: 5,
  invitationTtlDays: 7,
} as const;
