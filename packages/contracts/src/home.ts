import { z } from 'zod';
import { HomeAnalytics } from './analytics.js';
import { MessageLimit } from './chat.js';
import { type RouteRule, signedIn } from './rules.js';

/**
 * Home (console.md section 2: the landing page after login) in one call. Everyone reads Home
 * (section 6), so the route needs only a session; each part of the answer is narrowed to what the
 * caller's permissions reach, the same rules the routes behind each part apply.
 */
export const HOME_ROUTE_RULES = {
  'GET /home/summary': signedIn,
} as const satisfies Record<string, RouteRule>;

/** How much of each list Home shows; `bot_count` says how many bots there are in all. */
export const HOME_LIMITS = { bots: 6, conversations: 5, questions: 3, leads: 3 } as const;

/** How many days Home counts new leads over, one bar each. */
export const HOME_LEAD_DAYS = 7;

/** The getting-started steps of a new workspace, in the order Home lists them. */
export const CHECKLIST_STEPS = [
  'create_bot',
  'add_knowledge',
  'try_bot',
  'embed_widget',
  'invite_teammate',
] as const;
export type ChecklistStep = (typeof CHECKLIST_STEPS)[number];

export const HomeBot = z.object({
  bot_id: z.number().int(),
  bot_name: z.string(),
  description: z.string().nullable(),
  profile_image: z.string().nullable(),
  brand_color: z.string(),
});
export type HomeBot = z.infer<typeof HomeBot>;

export const HomeConversation = z.object({
  conversation_id: z.number().int(),
  bot_id: z.number().int(),
  bot_name: z.string(),
  /** The conversation's name: its first question, or 'New Chat'. */
  name: z.string(),
  channel: z.string(),
  last_message_at: z.string(),
  unread_count: z.number().int(),
});
export type HomeConversation = z.infer<typeof HomeConversation>;

/** A question of a bot's unanswered queue: visitors asked it (in its wordings), the bot did not know or was not sure. */
export const HomeQuestion = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  bot_name: z.string(),
  question: z.string(),
  asked_count: z.number().int(),
});
export type HomeQuestion = z.infer<typeof HomeQuestion>;

/** A visitor who left their details: what the leads page lists, enough to recognise them. */
export const HomeLead = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  bot_name: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  created_at: z.string(),
});
export type HomeLead = z.infer<typeof HomeLead>;

/**
 * New leads of the bots whose leads the caller reads (as GET /chat/bots/:id/leads), the console's
 * test chats left out. Days are spans of 24 hours back from now, so they need no time zone and add
 * up to the count.
 */
export const HomeLeads = z.object({
  /** Leads in the last HOME_LEAD_DAYS days. */
  last_7_days: z.number().int(),
  /** The same leads per day, oldest first: the last entry is the last 24 hours. */
  per_day: z.array(z.number().int()).length(HOME_LEAD_DAYS),
  /** The newest leads, however old, newest first. */
  items: z.array(HomeLead),
  /** Whether one of those bots has its lead form on (what the card says while there are none). */
  form_enabled: z.boolean(),
});
export type HomeLeads = z.infer<typeof HomeLeads>;

/** `allowed`: whether the caller may do the step themselves (Home links only those). */
export const ChecklistItem = z.object({
  step: z.enum(CHECKLIST_STEPS),
  done: z.boolean(),
  allowed: z.boolean(),
});
export type ChecklistItem = z.infer<typeof ChecklistItem>;

export const HomeSummary = z.object({
  /**
   * `workspace`: the bots a bot manager works with (all of the workspace for an owner, as GET
   * /chat/bots/user/:id); `assigned`: the bots assigned to someone who does not manage bots.
   */
  bots_scope: z.enum(['workspace', 'assigned']),
  bots: z.array(HomeBot),
  bot_count: z.number().int(),
  /** Newest first; null without read on the Inbox. */
  conversations: z.array(HomeConversation).nullable(),
  /** This month's bot messages; null without read on Manage Bots (as GET /chat/message-limit). */
  usage: MessageLimit.nullable(),
  /** The workspace's getting-started steps; null when the caller may do none of them. */
  checklist: z.array(ChecklistItem).nullable(),
  /** The last 30 days: conversations, answer rate and revenue; null without read on Analytics. */
  analytics: HomeAnalytics.nullable(),
  /**
   * The most asked questions waiting in the unanswered queues of the bots the caller manages, and
   * how many wait in all; null without read on Manage Bots (as GET /unanswered/bot/:botId).
   */
  questions: z.object({ items: z.array(HomeQuestion), total: z.number().int() }).nullable(),
  /** New leads; null without read on Leads (as GET /chat/bots/:id/leads). */
  leads: HomeLeads.nullable(),
});
export type HomeSummary = z.infer<typeof HomeSummary>;
