import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { LIVE_JOIN } from '../knowledge/knowledge.schema.js';

/**
 * The figures behind the analytics page, as rows of (day, bot_id, channel, metric, key, value).
 * One SQL makes them from the raw tables (messages, conversations, hand-off events) for any span of
 * time; the rollup job stores its rows for days that are over (analytics_daily), and the page reads
 * those stored rows for closed days and the same SQL live for the last days. A new source of
 * figures is one more branch of `liveRows`, not a new query.
 *
 * Why this stays fast at 1,000,000 messages per workspace (EXPLAIN on PostgreSQL 15, bench/analytics):
 * - The live branch reads messages through `messages_tenant_month_idx (tenant_id, created_at)`: an
 *   index range scan over yesterday and today only, a few thousand rows, never the whole history.
 *   Conversations and hand-off events read `conversations_tenant_created_idx` and
 *   `conversation_events_tenant_created_idx` the same way; the first agent reply after a request is
 *   one probe of `messages_conversation_seq_key (conversation_id, seq)` per request.
 * - Closed days come from `analytics_daily`, whose primary key starts (tenant_id, day): an index
 *   range scan over a few rows per day, bot, channel and metric (plus one per question and per cited
 *   source, which the "most asked" lists group and cut to ten).
 * - Without the rollup the same counts need a bitmap heap scan of every message of the period and
 *   the jsonb `metadata` of each (its answer mode): about the bare count(*) and then some, which the
 *   benchmark prints beside these queries.
 *
 * EXPLAIN ANALYZE of the overview's rows over 30 days, 1,000,000 messages (ANALYTICS_BENCH_EXPLAIN=1):
 *   Append (13,894 rows)
 *     Index Scan using analytics_daily_..._pk: tenant_id = 1 AND day in [10-28, 11-25)   13,026 rows
 *     HashAggregate <- Index Scan using messages_tenant_month_idx (2 live days)           19,102 rows
 *     cited: Index Scan using messages_tenant_month_idx, Filter message_type, sources;
 *            Memoize over jsonb_array_elements (hits 2,476, misses 40)
 *     Index Scan using conversations_tenant_created_idx (conversations, questions)       1,909 rows
 *     Bitmap Index Scan on conversation_events_tenant_created_idx                            96 rows
 *       -> Index Scan using messages_conversation_seq_key per request (first agent reply)
 *   Execution Time: 43 ms (the bare count(*) over the period's 330,212 messages: 41 ms)
 */

export type MetricRow = {
  day: string;
  bot_id: number;
  channel: string;
  metric: string;
  key: string;
  value: number;
};

/** Channels as analytics names them: the widget's and the playground's conversations are `web`. */
const channelOf = (column: SQL) =>
  sql`(CASE WHEN ${column} IN ('instagram', 'messenger', 'whatsapp') THEN ${column} ELSE 'web' END)`;
const dayOf = (column: SQL) => sql`((${column}) AT TIME ZONE 'UTC')::date`;

/** A question as the "most asked" list groups it: lower case, spaces collapsed, no end punctuation. */
export const questionKey = (column: SQL) =>
  sql`left(regexp_replace(regexp_replace(lower(trim(${column})), '\\s+', ' ', 'g'), '[?!.]+$', ''), 200)`;

/**
 * The bots a figure is read for: null, every bot of the workspace; else only these (one bot asked
 * for, or the bots a restricted teammate works with; none at all reads nothing).
 */
export type BotIds = readonly number[] | null;

export const inBots = (column: SQL, botIds: BotIds): SQL => {
  if (botIds === null) return sql``;
  if (botIds.length === 0) return sql`AND false`;
  return sql`AND ${column} IN (${sql.join(
    botIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
};

/**
 * A conversation of the owner's playground (is_test) is a test, not a visitor: none of its rows
 * count. `id` is a conversation id column of the row counted; one probe of the primary key.
 */
export const notTest = (id: SQL): SQL =>
  sql`AND NOT EXISTS (SELECT 1 FROM conversations tc WHERE tc.id = ${id} AND tc.is_test)`;

/**
 * The playground's conversations with a message in [from, ...): the messages of the period belong
 * to conversations whose last message is that late or later (last_message_at is set with each
 * message, in its statement), read by conversations_tenant_idx (tenant_id, last_message_at). Few
 * rows, hashed once, so the messages' scan stays an index range scan with no join per message.
 */
const testConversations = (tenantId: number, from: Date) =>
  sql`(SELECT tc.id FROM conversations tc WHERE tc.tenant_id = ${tenantId}
        AND tc.last_message_at >= ${from.toISOString()}::timestamptz AND tc.is_test)`;

/** The rows of [from, to) made from the raw tables; `botIds` narrows them to some bots. */
export function liveRows(tenantId: number, from: Date, to: Date, botIds: BotIds): SQL {
  const messagesIn = sql`m.tenant_id = ${tenantId} AND m.created_at >= ${from.toISOString()}::timestamptz
    AND m.created_at < ${to.toISOString()}::timestamptz ${inBots(sql`m.bot_id`, botIds)}
    AND m.conversation_id NOT IN ${testConversations(tenantId, from)}`;
  const conversationsIn = sql`c.tenant_id = ${tenantId} AND c.created_at >= ${from.toISOString()}::timestamptz
    AND c.created_at < ${to.toISOString()}::timestamptz ${inBots(sql`c.bot_id`, botIds)} AND NOT c.is_test`;
  const eventsIn = sql`e.tenant_id = ${tenantId} AND e.created_at >= ${from.toISOString()}::timestamptz
    AND e.created_at < ${to.toISOString()}::timestamptz AND e.to_state = 'human_requested'
    ${inBots(sql`c.bot_id`, botIds)} AND NOT c.is_test`;
  return sql`
    SELECT ${dayOf(sql`m.created_at`)} AS day, m.bot_id, ${channelOf(sql`m.message_source`)} AS channel,
           'messages' AS metric, m.message_type || ':' || coalesce(m.metadata->>'answer_mode', '')
             -- An answer given instead of a model's that stated figures no source holds.
             || CASE WHEN m.metadata ? 'unverified' THEN ':held_back' ELSE '' END AS key,
           count(*) AS value
      FROM messages m WHERE ${messagesIn}
     GROUP BY 1, 2, 3, 5
    UNION ALL
    SELECT day, bot_id, channel, 'cited', key, count(*) FROM (
      SELECT DISTINCT m.id, ${dayOf(sql`m.created_at`)} AS day, m.bot_id, ${channelOf(sql`m.message_source`)} AS channel,
             coalesce(s->>'page_url', '') || E'\\t' || coalesce(s->>'page_title', '') || E'\\t' || coalesce(s->>'source_type', '') AS key
        FROM messages m CROSS JOIN LATERAL jsonb_array_elements(m.sources) s
       WHERE ${messagesIn} AND m.message_type = 'bot' AND m.sources <> '[]'::jsonb
    ) cited GROUP BY 1, 2, 3, 5
    UNION ALL
    SELECT ${dayOf(sql`c.created_at`)}, c.bot_id, ${channelOf(sql`c.channel`)}, 'conversations', '', count(*)
      FROM conversations c WHERE ${conversationsIn}
     GROUP BY 1, 2, 3
    UNION ALL
    SELECT ${dayOf(sql`c.created_at`)}, c.bot_id, ${channelOf(sql`c.channel`)}, 'question', ${questionKey(sql`c.name`)}, count(*)
      FROM conversations c WHERE ${conversationsIn} AND c.name <> 'New Chat'
     GROUP BY 1, 2, 3, 5
    UNION ALL
    SELECT day, bot_id, channel, metric, '', sum(value)::bigint FROM (
      SELECT ${dayOf(sql`e.created_at`)} AS day, c.bot_id, ${channelOf(sql`c.channel`)} AS channel, r.seconds
        FROM conversation_events e
        JOIN conversations c ON c.id = e.conversation_id
        LEFT JOIN LATERAL (
          SELECT extract(epoch FROM min(m.created_at) - e.created_at) AS seconds
            FROM messages m
           WHERE m.conversation_id = e.conversation_id AND m.message_type = 'helpdesk'
             AND m.created_at >= e.created_at
        ) r ON true
       WHERE ${eventsIn}
    ) requests
    CROSS JOIN LATERAL (VALUES
      ('handoff_requests', 1::bigint),
      ('first_reply_count', CASE WHEN seconds IS NULL THEN 0 ELSE 1 END),
      ('first_reply_seconds', coalesce(round(seconds), 0)::bigint)
    ) figures(metric, value)
     GROUP BY 1, 2, 3, 4`;
}

/** The rows stored by the rollup for [fromDay, untilDay). */
function storedRows(tenantId: number, fromDay: string, untilDay: string, botIds: BotIds): SQL {
  const bot = inBots(sql`bot_id`, botIds);
  return sql`
    SELECT day::text AS day, bot_id, channel, metric, key, value FROM analytics_daily
     WHERE tenant_id = ${tenantId} AND day >= ${fromDay}::date AND day < ${untilDay}::date ${bot}`;
}

export type Span = {
  tenantId: number;
  from: Date;
  to: Date;
  botIds: BotIds;
  rolledUntil: string | null;
};

/** A UTC day as `YYYY-MM-DD`, and back to its first instant. */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
export const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

/** Every row of the span: stored rows for the days rolled up, live rows for the rest. */
export function spanRows({ tenantId, from, to, botIds, rolledUntil }: Span): SQL {
  const fromDay = isoDay(from);
  const split = rolledUntil && rolledUntil > fromDay ? dayStart(rolledUntil) : from;
  if (split >= to) return storedRows(tenantId, fromDay, isoDay(to), botIds);
  if (split <= from)
    return sql`SELECT day::text AS day, bot_id, channel, metric, key, value FROM (${liveRows(tenantId, from, to, botIds)}) live`;
  return sql`${storedRows(tenantId, fromDay, rolledUntil!, botIds)}
    UNION ALL
    SELECT day::text, bot_id, channel, metric, key, value FROM (${liveRows(tenantId, split, to, botIds)}) live`;
}

/** The counts per day, channel, metric and key (every metric but the per-question and per-source ones). */
export async function countRows(db: DbOrTx, span: Span): Promise<MetricRow[]> {
  const rows = await queryRows<MetricRow>(
    db,
    sql`SELECT day, channel, metric, key, sum(value)::bigint AS value FROM (${spanRows(span)}) r
         WHERE metric NOT IN ('question', 'cited')
         GROUP BY 1, 2, 3, 4 ORDER BY 1, 2`,
  );
  return rows.map((row) => ({ ...row, bot_id: 0, value: Number(row.value) }));
}

/** The keys of one metric with the largest sums (most asked questions, most cited sources). */
export async function topKeys(
  db: DbOrTx,
  span: Span,
  metric: 'question' | 'cited',
  limit: number,
): Promise<Array<{ key: string; value: number }>> {
  const rows = await queryRows<{ key: string; value: string }>(
    db,
    sql`SELECT key, sum(value)::bigint AS value FROM (${spanRows(span)}) r
         WHERE metric = ${metric} GROUP BY key ORDER BY 2 DESC, 1 LIMIT ${limit}`,
  );
  return rows.map((row) => ({ key: row.key, value: Number(row.value) }));
}

/** Every cited key of the span (for "never cited": the bot's documents not among them). */
export async function citedKeys(db: DbOrTx, span: Span): Promise<Set<string>> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`SELECT DISTINCT key FROM (${spanRows(span)}) r WHERE metric = 'cited'`,
  );
  return new Set(rows.map((row) => row.key));
}

export async function rolledUntilOf(db: DbOrTx, tenantId: number): Promise<string | null> {
  const [row] = await queryRows<{ rolled_until: string }>(
    db,
    sql`SELECT rolled_until::text AS rolled_until FROM analytics_rollup_state WHERE tenant_id = ${tenantId}`,
  );
  return row?.rolled_until ?? null;
}

/** Live counts that stay small (one row per event): leads, booking clicks, ratings, unanswered, visitors. */
export async function eventCounts(
  db: DbOrTx,
  tenantId: number,
  from: Date,
  to: Date,
  botIds: BotIds,
): Promise<{
  leads: number;
  booking_clicks: number;
  up: number;
  down: number;
  visitors: number;
  tracked: number;
}> {
  const bot = (column: SQL) => inBots(column, botIds);
  const range = (column: SQL) =>
    sql`${column} >= ${from.toISOString()}::timestamptz AND ${column} < ${to.toISOString()}::timestamptz`;
  const [row] = await queryRows<Record<string, string>>(
    db,
    sql`SELECT
      (SELECT count(*) FROM leads l WHERE l.tenant_id = ${tenantId} AND ${range(sql`l.created_at`)} ${bot(sql`l.bot_id`)} ${notTest(sql`l.conversation_id`)}) AS leads,
      (SELECT count(*) FROM booking_clicks b WHERE b.tenant_id = ${tenantId} AND ${range(sql`b.created_at`)} ${bot(sql`b.bot_id`)}) AS booking_clicks,
      (SELECT count(*) FROM message_ratings r WHERE r.tenant_id = ${tenantId} AND ${range(sql`r.created_at`)} ${bot(sql`r.bot_id`)} AND r.rating > 0 ${notTest(sql`r.conversation_id`)}) AS up,
      (SELECT count(*) FROM message_ratings r WHERE r.tenant_id = ${tenantId} AND ${range(sql`r.created_at`)} ${bot(sql`r.bot_id`)} AND r.rating < 0 ${notTest(sql`r.conversation_id`)}) AS down,
      (SELECT count(DISTINCT c.visitor_id) FROM conversations c JOIN bots b ON b.id = c.bot_id AND b.analytics
        WHERE c.tenant_id = ${tenantId} AND ${range(sql`c.created_at`)} ${bot(sql`c.bot_id`)} AND c.visitor_id IS NOT NULL AND NOT c.is_test) AS visitors,
      (SELECT count(*) FROM bots b WHERE b.tenant_id = ${tenantId} AND b.analytics ${bot(sql`b.id`)}) AS tracked`,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    leads: n('leads'),
    booking_clicks: n('booking_clicks'),
    up: n('up'),
    down: n('down'),
    visitors: n('visitors'),
    tracked: n('tracked'),
  };
}

/**
 * The unanswered questions of the period, most asked first (the unanswered module's groups); a
 * question queued for a thumbs down was answered, so it is not counted here.
 */
export async function unansweredTop(
  db: DbOrTx,
  tenantId: number,
  from: Date,
  to: Date,
  botIds: BotIds,
  limit: number,
): Promise<Array<{ text: string; count: number }>> {
  const bot = inBots(sql`g.bot_id`, botIds);
  const rows = await queryRows<{ text: string; count: string }>(
    db,
    sql`SELECT g.question AS text, count(*) AS count
          FROM unanswered_questions q JOIN unanswered_groups g ON g.id = q.group_id
         WHERE q.tenant_id = ${tenantId} AND q.asked_at >= ${from.toISOString()}::timestamptz
           AND q.asked_at < ${to.toISOString()}::timestamptz AND q.reason <> 'disliked' ${bot}
           ${notTest(sql`q.conversation_id`)}
         GROUP BY g.id, g.question ORDER BY 2 DESC, 1 LIMIT ${limit}`,
  );
  return rows.map((row) => ({ text: row.text, count: Number(row.count) }));
}

/**
 * The workspace's sources (distinct pages, files, Q&A), keyed as citations are, for "never cited".
 * Per workspace, not per bot: a document may serve several bots through shared collections.
 */
export async function knownSources(
  db: DbOrTx,
  tenantId: number,
  limit: number,
): Promise<Array<{ key: string; title: string; url: string | null; source_type: string }>> {
  const rows = await queryRows<{ url: string | null; title: string | null; source_type: string }>(
    db,
    sql`SELECT DISTINCT c.page_url AS url, c.page_title AS title, c.source_type
          FROM chunks c ${LIVE_JOIN} WHERE c.tenant_id = ${tenantId}
         ORDER BY 2, 1 LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    key: `${row.url ?? ''}\t${row.title ?? ''}\t${row.source_type}`,
    title: row.title ?? row.url ?? row.source_type,
    url: row.url,
    source_type: row.source_type,
  }));
}
