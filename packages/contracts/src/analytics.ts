import { z } from 'zod';
import { BodyId, IdText, inputText } from './common.js';
import { need, open, type RouteRule } from './rules.js';

/**
 * Analytics (issue 21): figures per workspace, or per bot, for a chosen period. Read on the
 * Analytics subject; visitors rate answers and report booking clicks through two public routes
 * authenticated like the widget's other calls (the signed visitor token) or by a session (playground).
 */
export const ANALYTICS_ROUTE_RULES = {
  'GET /analytics/overview': need('Analytics', 'read'),
  'GET /analytics/insights': need('Analytics', 'read'),
  'GET /analytics/revenue': need('Analytics', 'read'),
  'GET /analytics/export.csv': need('Analytics', 'read'),
  'POST /analytics/ratings': open,
  'POST /analytics/booking-clicks': open,
} as const satisfies Record<string, RouteRule>;

export const ANALYTICS_LIMITS = {
  /** Longest period one request may cover, in days. */
  maxDays: 366,
  /** Default period: the last 30 days. */
  defaultDays: 30,
  /** Rows of each "most" list. */
  topRows: 10,
  /** An order counts for the last conversation of the same customer within this many days before it. */
  attributionDays: 7,
  /** Ratings and booking clicks one IP address may send per minute. */
  publicPerMinute: 60,
} as const;

/** The attribution rule, as the console and docs state it. */
export const ATTRIBUTION_RULE =
  'An order counts for the last conversation with the same customer (email or phone, from a lead form or WhatsApp) in the 7 days before the order was placed; that conversation’s bot and channel get the order.';

/** What each billing level unlocks (docs/analytics.md). */
export const ANALYTICS_LEVELS = {
  basic_analytics: 'Counts: conversations, messages, answers, hand-offs, leads and booking clicks',
  advanced_analytics: 'Questions, sources, satisfaction and revenue',
  analytics_dashboard: 'Daily charts and the CSV export',
} as const;

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const Day = (label: string) =>
  inputText()
    .regex(isoDay, `${label} must be a date (YYYY-MM-DD)`)
    // A day that exists (no 30 February), in years the database and the period arithmetic both hold.
    .refine((text) => {
      const time = Date.parse(`${text}T00:00:00Z`);
      return (
        !Number.isNaN(time) &&
        new Date(time).toISOString().slice(0, 10) === text &&
        text >= '2000' &&
        text < '3000'
      );
    }, `${label} must be a real date between 2000 and 2999`);

/**
 * The period (UTC days, both included) and an optional bot. Without dates: the last 30 days to today.
 */
export const AnalyticsPeriodQuery = z
  .object({
    from: Day('from').optional(),
    to: Day('to').optional(),
    bot_id: IdText('bot_id must be a positive whole number').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine(
    (q) =>
      !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYTICS_LIMITS.maxDays,
    { message: `The period may cover at most ${ANALYTICS_LIMITS.maxDays} days`, path: ['to'] },
  );
export type AnalyticsPeriodQuery = z.infer<typeof AnalyticsPeriodQuery>;

/** Why a part of analytics is not shown: the plan does not include its level (402 details, and the page's notes). */
export const ANALYTICS_PLAN_TEXTS = {
  needsBasic: 'Analytics are not included in your plan. Upgrade your plan to see them.',
  needsAdvanced: 'Questions, sources, satisfaction and revenue need the advanced analytics of a higher plan.',
  needsDashboard: 'The CSV export needs the analytics dashboard of a higher plan.',
} as const;

/** Which levels the workspace's plan includes (all of them when plans limit nothing). */
export const AnalyticsLevels = z.object({
  basic: z.boolean(),
  advanced: z.boolean(),
  dashboard: z.boolean(),
});
export type AnalyticsLevels = z.infer<typeof AnalyticsLevels>;

/** Channels as analytics names them: the widget and the playground are `web`. */
export const ANALYTICS_CHANNELS = ['web', 'instagram', 'messenger', 'whatsapp'] as const;

export const DailyRow = z.object({
  day: z.string(),
  channel: z.string(),
  conversations: z.number().int(),
  messages: z.number().int(),
});
export type DailyRow = z.infer<typeof DailyRow>;

/** Who answered the visitors' questions. */
export const AnswerCounts = z.object({
  /** The bot, from its sources (a model or quoted passages), an order check or the booking button. */
  bot: z.number().int(),
  /** The bot, quoting sources that hold only part of the question, saying it was not sure. */
  not_sure: z.number().int(),
  /** A matching Q&A pair. */
  qna: z.number().int(),
  /** Messages of agents. */
  agents: z.number().int(),
  /** Questions the bot found nothing for (or could not answer past the month's credits). */
  unanswered: z.number().int(),
  /**
   * Of all the above, the bot's answers given instead of its language model's, which stated figures
   * (a price, a time, a number) the sources do not hold, or give for something else (docs/llm.md).
   */
  held_back: z.number().int(),
});
export type AnswerCounts = z.infer<typeof AnswerCounts>;

export const AnalyticsOverview = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  bot_id: z.number().int().nullable(),
  levels: AnalyticsLevels,
  conversations: z.number().int(),
  messages: z.number().int(),
  visitor_messages: z.number().int(),
  answers: AnswerCounts,
  /** Answered (bot, not sure included, Q&A, agents) over all answers, 0..1; null with no answers. */
  answer_rate: z.number().nullable(),
  handoff_requests: z.number().int(),
  /** Mean seconds from a hand-off request to the first agent message, over the requests answered. */
  first_reply_seconds: z.object({ mean: z.number().nullable(), answered: z.number().int() }),
  leads: z.number().int(),
  booking_clicks: z.number().int(),
  /** Distinct visitors: only for bots that collect visitor-level details (their `analytics` flag). */
  visitors: z.number().int().nullable(),
  /** Per day and channel; null without the dashboard level. */
  daily: z.array(DailyRow).nullable(),
});
export type AnalyticsOverview = z.infer<typeof AnalyticsOverview>;

export const CountedText = z.object({ text: z.string(), count: z.number().int() });
export const CitedSource = z.object({
  title: z.string(),
  url: z.string().nullable(),
  source_type: z.string(),
  count: z.number().int(),
});
export type CitedSource = z.infer<typeof CitedSource>;

export const AnalyticsInsights = z.object({
  top_questions: z.array(CountedText),
  unanswered_questions: z.array(CountedText),
  sources_cited: z.array(CitedSource),
  /** The bot's documents no answer of the period cited. */
  sources_never_cited: z.array(CitedSource.omit({ count: true })),
  satisfaction: z.object({
    up: z.number().int(),
    down: z.number().int(),
    /** Thumbs up over all ratings, 0..1; null with none. */
    score: z.number().nullable(),
  }),
});
export type AnalyticsInsights = z.infer<typeof AnalyticsInsights>;

export const Money = z.object({ currency: z.string(), amount_minor: z.number().int() });
export type Money = z.infer<typeof Money>;

export const RevenueRow = z.object({
  bot_id: z.number().int(),
  bot_name: z.string(),
  channel: z.string(),
  orders: z.number().int(),
  revenue: z.array(Money),
});
export type RevenueRow = z.infer<typeof RevenueRow>;

export const AnalyticsRevenue = z.object({
  rule: z.string(),
  orders: z.number().int(),
  /** Per currency, in minor units (cents). */
  revenue: z.array(Money),
  by_bot: z.array(RevenueRow),
  bookings: z.number().int(),
  leads: z.number().int(),
  campaign_replies: z.number().int(),
});
export type AnalyticsRevenue = z.infer<typeof AnalyticsRevenue>;

/** A visitor's (or, in the playground, the owner's) thumbs on one bot answer; null takes it back. */
export const RatingRequest = z.object({
  message_id: BodyId('Message'),
  rating: z.enum(['up', 'down']).nullable(),
  visitor_token: inputText().max(4000).optional(),
});
export type RatingRequest = z.infer<typeof RatingRequest>;
export const RatingResponse = z.object({
  message_id: z.number().int(),
  rating: z.enum(['up', 'down']).nullable(),
});
export type RatingResponse = z.infer<typeof RatingResponse>;

/** The widget reports a click on the booking button (the intro's or an answer's). */
export const BookingClickRequest = z.object({
  visitor_token: inputText().max(4000),
  conversation_id: BodyId('Conversation').optional(),
});
export type BookingClickRequest = z.infer<typeof BookingClickRequest>;

/** Home's analytics summary: the last 30 days. Null without read on Analytics. */
export const HomeAnalytics = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  conversations: z.number().int(),
  answer_rate: z.number().nullable(),
  revenue: z.array(Money),
});
export type HomeAnalytics = z.infer<typeof HomeAnalytics>;
