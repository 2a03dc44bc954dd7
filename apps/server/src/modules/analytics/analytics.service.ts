import {
  ANALYTICS_LIMITS,
  ANALYTICS_PLAN_TEXTS,
  type AnalyticsInsights,
  type AnalyticsLevels,
  type AnalyticsOverview,
  type AnalyticsPeriodQuery,
  type AnalyticsRevenue,
  type AnswerCounts,
  type BookingClickRequest,
  type DailyRow,
  type HomeAnalytics,
  type RatingRequest,
  type RatingResponse,
} from '@parley/contracts';
import { stringify } from 'csv-stringify/sync';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../core/clock.js';
import { type Db, queryRows } from '../../core/db/database.js';
import { notFound, paymentRequired } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { Entitlements } from '../billing/entitlements.js';
import type { BotCache } from '../bots/bot-cache.js';
import { requireBot, workedBots } from '../bots/bots.queries.js';
import { conversations, messages } from '../chat/chat.schema.js';
import type { VisitorTokens } from '../chat/visitor.js';
import { requireOrigin } from '../chat/widget-origins.js';
import { isRestricted, worksWithBot } from '../handoff/inbox-scope.js';
import { markHelpful, recordQuestion, withdrawQuestion } from '../unanswered/unanswered.service.js';
import {
  type BotIds,
  citedKeys,
  countRows,
  dayStart,
  eventCounts,
  isoDay,
  knownSources,
  type MetricRow,
  rolledUntilOf,
  type Span,
  topKeys,
  unansweredTop,
} from './analytics.queries.js';
import { bookingClicks, messageRatings } from './analytics.schema.js';
import { RaterKeys } from './rater.js';
import { revenueOf } from './revenue.js';

const DAY_MS = 86_400_000;
const {
  needsBasic: NEEDS_BASIC,
  needsAdvanced: NEEDS_ADVANCED,
  needsDashboard: NEEDS_DASHBOARD,
} = ANALYTICS_PLAN_TEXTS;

export type Period = {
  from: Date;
  to: Date;
  fromDay: string;
  toDay: string;
  botId: number | null;
  /** The bots whose figures are read: the one asked for, a restricted teammate's, or null (all). */
  botIds: BotIds;
};

/** The answer modes of the bot itself (its sources, an order check, the booking button). */
const BOT_MODES = new Set(['llm', 'extractive', 'order', 'booking']);
const UNANSWERED_MODES = new Set(['not_found', 'limit']);
// The reply to a greeting or thanks (small_talk) answers no question: it counts neither way.
/** Answers made from the bot's knowledge: a thumbs down on one queues its question (queueDisliked). */
const FROM_KNOWLEDGE = new Set(['qna', 'llm', 'extractive', 'unsure']);

/** A bot message a rating is about, with what the queue of unanswered questions needs of it. */
type RatedMessage = {
  tenantId: number;
  botId: number;
  conversationId: number;
  seq: number;
  mode: string | null;
};

/** Who answered, from the `messages` rows keyed `<message_type>:<answer_mode>`. */
export function answersOf(rows: readonly MetricRow[]): AnswerCounts {
  const counts: AnswerCounts = { bot: 0, not_sure: 0, qna: 0, agents: 0, unanswered: 0, held_back: 0 };
  for (const row of rows) {
    if (row.metric !== 'messages') continue;
    const [type, mode = '', heldBack] = row.key.split(':');
    if (heldBack) counts.held_back += row.value;
    if (type === 'helpdesk') counts.agents += row.value;
    else if (type !== 'bot') continue;
    else if (mode === 'qna') counts.qna += row.value;
    else if (mode === 'unsure') counts.not_sure += row.value;
    else if (BOT_MODES.has(mode)) counts.bot += row.value;
    else if (UNANSWERED_MODES.has(mode)) counts.unanswered += row.value;
  }
  return counts;
}

export function answerRate(answers: AnswerCounts): number | null {
  // An answer the bot said it was not sure of is still an answer: the visitor was given the quote.
  const answered = answers.bot + answers.not_sure + answers.qna + answers.agents;
  const all = answered + answers.unanswered;
  return all === 0 ? null : answered / all;
}

const sum = (rows: readonly MetricRow[], test: (row: MetricRow) => boolean) =>
  rows.reduce((total, row) => (test(row) ? total + row.value : total), 0);

type DailyFull = DailyRow & {
  visitor_messages: number;
  answers: AnswerCounts;
  handoff_requests: number;
};

/** Per day and channel, every count of the CSV (the chart uses conversations and messages). */
function dailyOf(rows: readonly MetricRow[]): DailyFull[] {
  const byKey = new Map<string, MetricRow[]>();
  for (const row of rows) {
    const key = `${row.day}|${row.channel}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, group]) => {
      const [day, channel] = key.split('|') as [string, string];
      return {
        day,
        channel,
        conversations: sum(group, (r) => r.metric === 'conversations'),
        messages: sum(group, (r) => r.metric === 'messages'),
        visitor_messages: sum(group, (r) => r.metric === 'messages' && r.key.startsWith('user:')),
        answers: answersOf(group),
        handoff_requests: sum(group, (r) => r.metric === 'handoff_requests'),
      };
    });
}

/**
 * The analytics of a workspace: figures for a period (closed days from the rollup, the last days
 * live), ratings and booking clicks from the widget, revenue by the attribution rule. The billing
 * levels decide what a plan sees (docs/analytics.md); with PLAN_LIMITS off everything is allowed.
 */
export class AnalyticsService {
  private readonly raterKeys: RaterKeys;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      entitlements: Entitlements;
      bots: BotCache;
      visitors: VisitorTokens;
      appSecret: string;
      ownOrigin: string;
    },
  ) {
    this.raterKeys = new RaterKeys(deps.appSecret);
  }

  /**
   * The period of a query: UTC days, both included; the last 30 days by default. A teammate the
   * owner restricted to some bots reads only those bots' figures: another bot answers 404.
   */
  async periodOf(auth: AuthContext, query: AnalyticsPeriodQuery): Promise<Period> {
    const tenantId = auth.tenantId;
    const today = isoDay(this.deps.clock.now());
    const toDay = query.to ?? today;
    const fromDay =
      query.from ?? isoDay(new Date(dayStart(toDay).getTime() - (ANALYTICS_LIMITS.defaultDays - 1) * DAY_MS));
    if (query.bot_id !== undefined) {
      await requireBot(this.deps.db, tenantId, query.bot_id);
      if (!(await worksWithBot(this.deps.db, auth, query.bot_id))) throw notFound('Bot not found');
    }
    return {
      from: dayStart(fromDay),
      to: new Date(dayStart(toDay).getTime() + DAY_MS),
      fromDay,
      toDay,
      botId: query.bot_id ?? null,
      botIds: query.bot_id !== undefined ? [query.bot_id] : await this.botsOf(auth),
    };
  }

  /** Every bot (null), or the ids of those a restricted teammate works with. */
  private async botsOf(auth: AuthContext): Promise<BotIds> {
    if (!isRestricted(auth)) return null;
    const rows = await queryRows<{ id: number }>(
      this.deps.db,
      sql`${workedBots(auth.tenantId, auth.userId)}`,
    );
    return rows.map((row) => Number(row.id));
  }

  async levels(tenantId: number): Promise<AnalyticsLevels> {
    const has = (feature: Parameters<Entitlements['hasFeature']>[1]) =>
      this.deps.entitlements.hasFeature(tenantId, feature);
    const [basic, advanced, dashboard] = await Promise.all([
      has('basic_analytics'),
      has('advanced_analytics'),
      has('analytics_dashboard'),
    ]);
    return { basic, advanced, dashboard };
  }

  private async span(tenantId: number, period: Period): Promise<Span> {
    const rolledUntil = await rolledUntilOf(this.deps.db, tenantId);
    return { tenantId, from: period.from, to: period.to, botIds: period.botIds, rolledUntil };
  }

  async overview(auth: AuthContext, query: AnalyticsPeriodQuery): Promise<AnalyticsOverview> {
    const tenantId = auth.tenantId;
    const levels = await this.levels(tenantId);
    if (!levels.basic) throw paymentRequired(NEEDS_BASIC);
    const period = await this.periodOf(auth, query);
    const [rows, events] = await Promise.all([
      this.span(tenantId, period).then((span) => countRows(this.deps.db, span)),
      eventCounts(this.deps.db, tenantId, period.from, period.to, period.botIds),
    ]);
    const answers = answersOf(rows);
    const answered = sum(rows, (r) => r.metric === 'first_reply_count');
    const seconds = sum(rows, (r) => r.metric === 'first_reply_seconds');
    return {
      period: { from: period.fromDay, to: period.toDay },
      bot_id: period.botId,
      levels,
      conversations: sum(rows, (r) => r.metric === 'conversations'),
      messages: sum(rows, (r) => r.metric === 'messages'),
      visitor_messages: sum(rows, (r) => r.metric === 'messages' && r.key.startsWith('user:')),
      answers,
      answer_rate: answerRate(answers),
      handoff_requests: sum(rows, (r) => r.metric === 'handoff_requests'),
      first_reply_seconds: { mean: answered ? Math.round(seconds / answered) : null, answered },
      leads: events.leads,
      booking_clicks: events.booking_clicks,
      // Only bots whose `analytics` flag is on collect visitor-level details.
      visitors: events.tracked > 0 ? events.visitors : null,
      daily: levels.dashboard
        ? dailyOf(rows).map(({ day, channel, conversations, messages }) => ({
            day,
            channel,
            conversations,
            messages,
          }))
        : null,
    };
  }

  async insights(auth: AuthContext, query: AnalyticsPeriodQuery): Promise<AnalyticsInsights> {
    const tenantId = auth.tenantId;
    if (!(await this.deps.entitlements.hasFeature(tenantId, 'advanced_analytics')))
      throw paymentRequired(NEEDS_ADVANCED);
    const period = await this.periodOf(auth, query);
    const span = await this.span(tenantId, period);
    const db = this.deps.db;
    const top = ANALYTICS_LIMITS.topRows;
    const [questions, unanswered, cited, allCited, known, events] = await Promise.all([
      topKeys(db, span, 'question', top),
      unansweredTop(db, tenantId, period.from, period.to, period.botIds, top),
      topKeys(db, span, 'cited', top),
      citedKeys(db, span),
      knownSources(db, tenantId, 500),
      eventCounts(db, tenantId, period.from, period.to, period.botIds),
    ]);
    const rated = events.up + events.down;
    return {
      top_questions: questions.map((row) => ({ text: row.key, count: row.value })),
      unanswered_questions: unanswered,
      sources_cited: cited.map((row) => ({ ...sourceOf(row.key), count: row.value })),
      sources_never_cited: known
        .filter((source) => !allCited.has(source.key))
        .slice(0, top * 2)
        .map(({ key: _key, ...source }) => source),
      satisfaction: { up: events.up, down: events.down, score: rated ? events.up / rated : null },
    };
  }

  async revenue(auth: AuthContext, query: AnalyticsPeriodQuery): Promise<AnalyticsRevenue> {
    const tenantId = auth.tenantId;
    if (!(await this.deps.entitlements.hasFeature(tenantId, 'advanced_analytics')))
      throw paymentRequired(NEEDS_ADVANCED);
    const period = await this.periodOf(auth, query);
    const events = await eventCounts(this.deps.db, tenantId, period.from, period.to, period.botIds);
    return revenueOf(this.deps.db, tenantId, period.from, period.to, period.botIds, events);
  }

  /** The period's figures per day and channel as CSV (the dashboard level). */
  async csv(auth: AuthContext, query: AnalyticsPeriodQuery): Promise<{ filename: string; body: string }> {
    const tenantId = auth.tenantId;
    if (!(await this.deps.entitlements.hasFeature(tenantId, 'analytics_dashboard')))
      throw paymentRequired(NEEDS_DASHBOARD);
    const period = await this.periodOf(auth, query);
    const rows = await countRows(this.deps.db, await this.span(tenantId, period));
    const body = stringify(
      dailyOf(rows).map((row) => [
        row.day,
        row.channel,
        row.conversations,
        row.messages,
        row.visitor_messages,
        row.answers.bot,
        row.answers.not_sure,
        row.answers.qna,
        row.answers.agents,
        row.answers.unanswered,
        row.handoff_requests,
        row.answers.held_back,
      ]),
      {
        header: true,
        columns: [
          'day',
          'channel',
          'conversations',
          'messages',
          'visitor_messages',
          'answered_by_bot',
          'answered_not_sure',
          'answered_by_qna',
          'agent_messages',
          'unanswered',
          'handoff_requests',
          'model_answers_held_back',
        ],
      },
    );
    const bot = period.botId ? `-bot-${period.botId}` : '';
    return { filename: `analytics-${period.fromDay}-to-${period.toDay}${bot}.csv`, body };
  }

  /** Home's summary: the last 30 days; revenue only with the advanced level. */
  async home(auth: AuthContext): Promise<HomeAnalytics | null> {
    const tenantId = auth.tenantId;
    const levels = await this.levels(tenantId);
    if (!levels.basic) return null;
    const period = await this.periodOf(auth, {});
    const [rows, events] = await Promise.all([
      this.span(tenantId, period).then((span) => countRows(this.deps.db, span)),
      levels.advanced ? eventCounts(this.deps.db, tenantId, period.from, period.to, period.botIds) : null,
    ]);
    const revenue = events
      ? (await revenueOf(this.deps.db, tenantId, period.from, period.to, period.botIds, events)).revenue
      : [];
    return {
      period: { from: period.fromDay, to: period.toDay },
      conversations: sum(rows, (r) => r.metric === 'conversations'),
      answer_rate: answerRate(answersOf(rows)),
      revenue,
    };
  }

  /**
   * A thumbs up or down on a bot answer, once per message per rater: a visitor (their signed token,
   * from a site the bot allows) on their own conversation, or a signed-in user in the playground on
   * theirs. Anything else answers 404, like a message that does not exist.
   */
  async rate(
    request: RatingRequest,
    caller: { auth: AuthContext | null; origin: string | undefined },
  ): Promise<RatingResponse> {
    const rater = await this.raterOf(request.visitor_token, caller);
    const [message] = await this.deps.db
      .select({
        id: messages.id,
        tenantId: messages.tenantId,
        botId: messages.botId,
        conversationId: messages.conversationId,
        seq: messages.seq,
        mode: sql<string | null>`${messages.metadata}->>'answer_mode'`,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          eq(messages.id, request.message_id),
          eq(messages.messageType, 'bot'),
          eq(conversations.tenantId, rater.tenantId),
          rater.kind === 'visitor'
            ? and(eq(conversations.botId, rater.botId), eq(conversations.visitorId, rater.visitorId))
            : eq(conversations.userId, rater.userId),
        ),
      );
    if (!message) throw notFound('Message not found');
    const raterKey = this.raterKeys.keyOf(rater);
    const where = and(eq(messageRatings.messageId, message.id), eq(messageRatings.raterKey, raterKey));
    if (request.rating === null) {
      await this.deps.db.delete(messageRatings).where(where);
      await this.followRating(message, rater.kind, null);
      return { message_id: message.id, rating: null };
    }
    const value = request.rating === 'up' ? 1 : -1;
    await this.deps.db
      .insert(messageRatings)
      .values({
        tenantId: message.tenantId,
        botId: message.botId,
        conversationId: message.conversationId,
        messageId: message.id,
        raterKey,
        visitorId: rater.kind === 'visitor' && rater.collects ? rater.visitorId : null,
        rating: value,
      })
      .onConflictDoUpdate({
        target: [messageRatings.messageId, messageRatings.raterKey],
        set: { rating: value, updatedAt: sql`now()` },
      });
    await this.followRating(message, rater.kind, request.rating);
    return { message_id: message.id, rating: request.rating };
  }

  /**
   * A visitor's thumbs down on an answer from the bot's knowledge puts the question it answered in
   * the owner's queue of unanswered questions: the site's answer was wrong or not enough, and a Q&A
   * pair the owner writes there will answer it next time. Taken back (up, or no rating), it leaves
   * the queue again.
   */
  private async followRating(
    message: RatedMessage,
    rater: 'visitor' | 'user',
    rating: 'up' | 'down' | null,
  ): Promise<void> {
    if (rater !== 'visitor' || !FROM_KNOWLEDGE.has(message.mode ?? '')) return;
    const question = await this.questionBefore(message);
    if (question === null) return;
    const asked = { ...message, question, reason: 'disliked' as const };
    if (rating === 'down') await recordQuestion(this.deps.db, asked);
    else await withdrawQuestion(this.deps.db, asked);
    // An answer said not sure was queued as it was given: a thumbs up says the quote helped.
    if (message.mode === 'unsure') await markHelpful(this.deps.db, asked, rating === 'up');
  }

  /** The visitor's message the rated answer answered. */
  private async questionBefore(message: RatedMessage): Promise<string | null> {
    const [asked] = await this.deps.db
      .select({ text: messages.message })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, message.conversationId),
          eq(messages.messageType, 'user'),
          lt(messages.seq, message.seq),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(1);
    return asked?.text ?? null;
  }

  /** Who rates: the visitor of a valid token (from a site the bot allows), else the signed-in user. */
  private async raterOf(
    token: string | undefined,
    caller: { auth: AuthContext | null; origin: string | undefined },
  ) {
    if (token) {
      const visitor = await this.visitorOf(token, caller.origin);
      return { kind: 'visitor' as const, ...visitor };
    }
    if (caller.auth)
      return {
        kind: 'user' as const,
        tenantId: caller.auth.tenantId,
        userId: caller.auth.userId,
      };
    throw notFound('Message not found');
  }

  private async visitorOf(token: string, origin: string | undefined) {
    const claims = this.deps.visitors.check(token);
    const bot = claims ? await this.deps.bots.byUuid(claims.botUuid) : null;
    if (!claims || !bot) throw notFound('Bot not found');
    requireOrigin(bot.allowedOrigins, origin, this.deps.ownOrigin);
    return { tenantId: bot.tenantId, botId: bot.id, visitorId: claims.visitorId, collects: bot.analytics };
  }

  /** A click on the booking button, reported by the widget: counted for the bot (and its conversation). */
  async bookingClick(request: BookingClickRequest, origin: string | undefined): Promise<void> {
    const visitor = await this.visitorOf(request.visitor_token, origin);
    let conversationId: number | null = null;
    if (request.conversation_id !== undefined) {
      const [own] = await this.deps.db
        .select({ id: conversations.id })
        .from(conversations)
        .where(
          and(
            eq(conversations.id, request.conversation_id),
            eq(conversations.tenantId, visitor.tenantId),
            eq(conversations.botId, visitor.botId),
            eq(conversations.visitorId, visitor.visitorId),
          ),
        );
      if (!own) throw notFound('Conversation not found');
      conversationId = own.id;
    }
    await this.deps.db.insert(bookingClicks).values({
      tenantId: visitor.tenantId,
      botId: visitor.botId,
      conversationId,
      visitorId: visitor.collects ? visitor.visitorId : null,
    });
  }
}

/** A citation key back as its parts (analytics.queries.ts keys them url, title, type). */
function sourceOf(key: string) {
  const [url = '', title = '', sourceType = ''] = key.split('\t');
  return { title: title || url || sourceType, url: url || null, source_type: sourceType };
}
