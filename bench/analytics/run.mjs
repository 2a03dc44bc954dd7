// bench/analytics: the analytics page's queries on a workspace with ANALYTICS_BENCH_MESSAGES
// (1,000,000) messages, beside the bare SQL count(*) over the same rows, measured in the same run.
//
// The workspace is bulk-inserted with generate_series (not through the API): three bots,
// conversations of ten messages each (a welcome, then question and answer turns) spread over
// ANALYTICS_BENCH_DAYS (90) days and four channels, answer modes mixed (model, Q&A, not found,
// agents), one answer in three citing a source, a hand-off request in one conversation of twenty
// with an agent's reply, ratings, leads with emails and store orders. A second workspace holds as
// many rows again, so the indexes have to tell them apart. Then VACUUM ANALYZE, and the rollup job
// rolls the closed days (timed once).
//
// Measured, ANALYTICS_BENCH_RUNS (30) times each after two warm-ups, p50 / p95 in ms, through the
// built server's AnalyticsService on its own Database (the code the routes call, without HTTP):
// - overview, insights and revenue for the last 30 days (the page's default) and the last 90 days;
// - overview counted live, with the rollup set aside (what the page would cost without it);
// - baseline: SELECT count(*) FROM messages WHERE tenant_id = $1 AND created_at in the period, the
//   bare SQL over the same rows, in the same run.
// Target: p95 ≤ 300 ms for each page query on PostgreSQL.
//
//   npm run build && node bench/run.mjs analytics
//   ANALYTICS_BENCH_MESSAGES=100000 node bench/analytics/run.mjs        # quick
//
// PostgreSQL: BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a fresh database,
// dropped afterwards); PGlite in its place when no server is reachable.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, sql } from '../../apps/server/dist/core/db/database.js';
import { spanRows } from '../../apps/server/dist/modules/analytics/analytics.queries.js';
import { AnalyticsService } from '../../apps/server/dist/modules/analytics/analytics.service.js';
import { rollUpTenant, rollupCutoff } from '../../apps/server/dist/modules/analytics/rollup.js';
import { Entitlements } from '../../apps/server/dist/modules/billing/entitlements.js';
import { copyMigratedPglite } from '../shared/pglite-template.mjs';
import { postgresDatabase } from '../shared/postgres.mjs';
import { fmt, ms, printTable, summary } from '../shared/report.mjs';

const SMOKE = process.env.BENCH_SMOKE === '1';
const MESSAGES = Number(process.env.ANALYTICS_BENCH_MESSAGES ?? (SMOKE ? 20_000 : 1_000_000));
const DAYS = Number(process.env.ANALYTICS_BENCH_DAYS ?? 90);
const RUNS = Number(process.env.ANALYTICS_BENCH_RUNS ?? (SMOKE ? 3 : 30));
const TARGET_MS = 300;
const PER_CONVERSATION = 10;

/** One statement through the Database's own driver (drizzle's sql.raw). */
async function run(database, text) {
  return database.db.execute(sql.raw(text));
}

/** A workspace of `messages` messages over DAYS days ending now, with its bots and events. */
async function seedWorkspace(database, label, messages) {
  const conversations = Math.ceil(messages / PER_CONVERSATION);
  const [{ id: tenantId }] = (
    await run(database, `INSERT INTO tenants (name) VALUES ('${label}') RETURNING id`)
  ).rows;
  const bots = (
    await run(
      database,
      `INSERT INTO bots (tenant_id, bot_name) SELECT ${tenantId}, '${label}_bot_' || i FROM generate_series(1, 3) i RETURNING id`,
    )
  ).rows.map((row) => Number(row.id));
  const botCase = `(ARRAY[${bots.join(',')}])[1 + (i % 3)]`;
  // Conversation i starts at a point spread evenly over the period; channels mixed 70/10/10/10.
  await run(
    database,
    `INSERT INTO conversations (tenant_id, bot_id, visitor_id, name, channel, created_at, last_message_at)
     SELECT ${tenantId}, ${botCase}, 'v_' || i,
            (ARRAY['When do you open?', 'Where is my order?', 'Do you ship abroad?', 'How do I reset it?', 'Question ' || (i % 500)])[1 + (i % 5)],
            (ARRAY['bot','bot','bot','bot','bot','bot','bot','instagram','messenger','whatsapp'])[1 + (i % 10)],
            now() - (${DAYS} * interval '1 day') * (1 - i::float8 / ${conversations}),
            now() - (${DAYS} * interval '1 day') * (1 - i::float8 / ${conversations}) + interval '5 minutes'
       FROM generate_series(1, ${conversations}) i`,
  );
  // Ten messages per conversation, a few seconds apart: seq 1 the welcome, then question / answer.
  await run(
    database,
    `INSERT INTO messages (tenant_id, conversation_id, bot_id, seq, message_type, message_source, message, sources, metadata, created_at)
     SELECT c.tenant_id, c.id, c.bot_id, s,
            CASE WHEN s = 1 THEN 'bot' WHEN s % 2 = 0 THEN 'user'
                 WHEN c.id % 20 = 0 AND s = 9 THEN 'helpdesk' ELSE 'bot' END,
            c.channel,
            CASE WHEN s % 2 = 0 THEN c.name ELSE 'An answer with some words in it.' END,
            CASE WHEN s > 1 AND s % 2 = 1 AND (c.id + s) % 3 = 0
                 THEN jsonb_build_array(jsonb_build_object('source_type', 'web', 'page_url', 'https://docs.example.com/p' || ((c.id + s) % 40), 'page_title', 'Page ' || ((c.id + s) % 40), 'page_number', null))
                 ELSE '[]'::jsonb END,
            CASE WHEN s = 1 THEN '{"welcome": true}'::jsonb
                 WHEN s % 2 = 0 THEN NULL
                 WHEN c.id % 20 = 0 AND s = 9 THEN '{"answer_mode": "helpdesk"}'::jsonb
                 ELSE jsonb_build_object('answer_mode', (ARRAY['llm','llm','llm','qna','extractive','not_found'])[1 + ((c.id + s) % 6)]) END,
            c.created_at + s * interval '20 seconds'
       FROM conversations c CROSS JOIN generate_series(1, ${PER_CONVERSATION}) s
      WHERE c.tenant_id = ${tenantId}`,
  );
  await run(
    database,
    `INSERT INTO conversation_events (tenant_id, conversation_id, from_state, to_state, reason, actor, created_at)
     SELECT tenant_id, id, 'bot', 'human_requested', 'visitor_asked', 'visitor', created_at + interval '150 seconds'
       FROM conversations WHERE tenant_id = ${tenantId} AND id % 20 = 0`,
  );
  await run(
    database,
    `INSERT INTO message_ratings (tenant_id, bot_id, conversation_id, message_id, rater_key, rating, created_at)
     SELECT tenant_id, bot_id, conversation_id, id, 'r' || id, CASE WHEN id % 4 = 0 THEN -1 ELSE 1 END, created_at
       FROM messages WHERE tenant_id = ${tenantId} AND message_type = 'bot' AND seq = 3 AND conversation_id % 10 = 0`,
  );
  await run(
    database,
    `INSERT INTO leads (tenant_id, bot_id, conversation_id, name, email, created_at)
     SELECT tenant_id, bot_id, id, 'Lead ' || id, 'lead' || id || '@example.com', created_at + interval '1 minute'
       FROM conversations WHERE tenant_id = ${tenantId} AND id % 25 = 0`,
  );
  const [{ id: storeId }] = (
    await run(
      database,
      `INSERT INTO stores (tenant_id, platform, domain, name, storefront_url, credentials_sealed)
       VALUES (${tenantId}, 'shopify', '${label}.myshopify.com', 'Shop', 'https://shop.example.com', 'x') RETURNING id`,
    )
  ).rows;
  await run(
    database,
    `INSERT INTO store_records (tenant_id, store_id, kind, external_id, title, lookup_key, content_hash, data)
     SELECT ${tenantId}, ${storeId}, 'order', 'o' || id, '#' || id, id::text, id::text,
            jsonb_build_object('number', '#' || id, 'email', CASE WHEN id % 2 = 0 THEN 'lead' || id || '@example.com' ELSE 'walk-in' || id || '@example.com' END,
              'phone', null, 'total', '49.90', 'refunded', '0.00', 'currency', 'USD',
              'placed_at', to_char((created_at + interval '2 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'cancelled_at', null)
       FROM conversations WHERE tenant_id = ${tenantId} AND id % 25 = 0 AND created_at < now() - interval '2 days'`,
  );
  return tenantId;
}

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function measure(fn) {
  await fn();
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(fn));
  return summary(times);
}

const isoDay = (date) => date.toISOString().slice(0, 10);
const period = (days) => ({
  from: isoDay(new Date(Date.now() - (days - 1) * 86_400_000)),
  to: isoDay(new Date()),
});

/** The plan of the overview's rows over 30 days (ANALYTICS_BENCH_EXPLAIN=1), for analytics.queries.ts. */
async function explain(database, tenantId) {
  const { from, to } = period(30);
  const rolledUntil =
    (
      await run(
        database,
        `SELECT rolled_until::text AS d FROM analytics_rollup_state WHERE tenant_id = ${tenantId}`,
      )
    ).rows[0]?.d ?? null;
  const span = spanRows({
    tenantId,
    from: new Date(`${from}T00:00:00Z`),
    to: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
    botId: null,
    rolledUntil,
  });
  const plan = await database.db.execute(
    sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT metric, sum(value) FROM (${span}) r GROUP BY 1`,
  );
  console.log('\nEXPLAIN ANALYZE of the overview rows, 30 days:\n');
  for (const row of plan.rows) console.log(`  ${Object.values(row)[0]}`);
  console.log('');
}

async function benchOn(kind, database) {
  console.log(`\n## ${kind}: ${fmt(MESSAGES)} messages in the measured workspace (and as many in another)\n`);
  const seedStarted = performance.now();
  const tenantId = await seedWorkspace(database, `bench_a_${Date.now()}`, MESSAGES);
  await seedWorkspace(database, `bench_b_${Date.now()}`, MESSAGES);
  await run(database, 'VACUUM ANALYZE');
  console.log(`seeded in ${fmt((performance.now() - seedStarted) / 1000)} s`);
  const rollupMs = await timed(() => rollUpTenant(database.db, tenantId, rollupCutoff(new Date())));
  const stored = (
    await run(database, `SELECT count(*) AS n FROM analytics_daily WHERE tenant_id = ${tenantId}`)
  ).rows[0].n;
  console.log(`rollup of the closed days: ${fmt(rollupMs)} ms, ${fmt(Number(stored))} rows\n`);

  const service = new AnalyticsService({
    db: database.db,
    clock: { now: () => new Date() },
    entitlements: new Entitlements(database.db, { PLAN_LIMITS: 'off', MONTHLY_MESSAGE_LIMIT: 10_000 }),
    bots: null,
    visitors: null,
    appSecret: 'bench-secret-that-is-long-enough-0123456789',
    ownOrigin: 'http://127.0.0.1',
  });
  // The owner: every bot (a teammate restricted to some bots reads theirs only).
  const auth = { tenantId, userId: 0, user: { all_bots: true, roles: [{ is_owner: true }] } };
  const lines = [];
  const verdicts = [];
  for (const days of [30, DAYS]) {
    const query = period(days);
    const from = `${query.from}T00:00:00Z`;
    const to = new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString();
    const count = await measure(() =>
      run(
        database,
        `SELECT count(*) FROM messages WHERE tenant_id = ${tenantId} AND created_at >= '${from}' AND created_at < '${to}'`,
      ),
    );
    const rows = (
      await run(
        database,
        `SELECT count(*) AS n FROM messages WHERE tenant_id = ${tenantId} AND created_at >= '${from}' AND created_at < '${to}'`,
      )
    ).rows[0].n;
    lines.push([
      `${days} days`,
      `bare SQL count(*) (${fmt(Number(rows))} rows)`,
      ms(count.p50),
      ms(count.p95),
      '',
    ]);
    for (const [name, fn] of [
      ['overview', () => service.overview(auth, query)],
      ['insights', () => service.insights(auth, query)],
      ['revenue', () => service.revenue(auth, query)],
    ]) {
      const s = await measure(fn);
      const ok = s.p95 <= TARGET_MS;
      verdicts.push(ok);
      lines.push([`${days} days`, name, ms(s.p50), ms(s.p95), ok ? 'within target' : 'OVER TARGET']);
    }
    const all = await measure(() =>
      Promise.all([
        service.overview(auth, query),
        service.insights(auth, query),
        service.revenue(auth, query),
      ]),
    );
    lines.push([
      `${days} days`,
      'the page (all three at once)',
      ms(all.p50),
      ms(all.p95),
      all.p95 <= TARGET_MS ? 'within target' : 'OVER TARGET',
    ]);
  }
  if (process.env.ANALYTICS_BENCH_EXPLAIN === '1') await explain(database, tenantId);
  // Without the rollup: every figure counted live from the raw rows.
  await run(
    database,
    `UPDATE analytics_rollup_state SET rolled_until = '1970-01-01' WHERE tenant_id = ${tenantId}`,
  );
  const live = await measure(() => service.overview(auth, period(30)));
  lines.push(['30 days', 'overview counted live (no rollup)', ms(live.p50), ms(live.p95), 'for comparison']);
  printTable(['period', 'query', 'p50 ms', 'p95 ms', `p95 ≤ ${TARGET_MS} ms`], lines);
  return verdicts.every(Boolean);
}

const pgDb = await postgresDatabase('analytics');
if (pgDb) {
  const database = await openDatabase({ kind: 'postgres', url: pgDb.url, poolSize: 4 });
  try {
    const ok = await benchOn('PostgreSQL', database);
    if (!ok && !SMOKE) console.log('\nPostgreSQL: a page query is over the target.');
  } finally {
    await database.close?.();
    await pgDb.drop();
  }
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-bench-analytics-'));
  await copyMigratedPglite(dir);
  const database = await openDatabase({ kind: 'pglite', dataDir: dir });
  try {
    await benchOn('PGlite', database);
  } finally {
    await database.close?.();
    rmSync(dir, { recursive: true, force: true });
  }
}
