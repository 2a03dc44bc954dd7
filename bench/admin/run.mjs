// The admin console's queries on a large platform: workspaces, jobs and the mail outbox pages, each
// beside a baseline in the same run (a bare count over the same table).
//
// PostgreSQL: BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a fresh database,
// dropped afterwards); PGlite when no server is reachable. Sizes: ADMIN_BENCH_TENANTS (2,000),
// ADMIN_BENCH_MAILS (20,000, each with its mail.send job, 1 in 50 failed), ADMIN_BENCH_JOBS (100,000
// other jobs), ADMIN_BENCH_RUNS (15). BENCH_SMOKE=1 shrinks them. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, sql } from '../../apps/server/dist/core/db/database.js';
import { listJobs, listMail, listWorkspaces } from '../../apps/server/dist/modules/admin/admin.queries.js';
import { copyMigratedPglite } from '../shared/pglite-template.mjs';
import { postgresDatabase } from '../shared/postgres.mjs';
import { ms, printTable, summary } from '../shared/report.mjs';

const SMOKE = process.env.BENCH_SMOKE === '1';
const size = (name, full, smoke) => Number(process.env[name] ?? (SMOKE ? smoke : full));
const TENANTS = size('ADMIN_BENCH_TENANTS', 2000, 50);
const MAILS = size('ADMIN_BENCH_MAILS', 20_000, 500);
const JOBS = size('ADMIN_BENCH_JOBS', 100_000, 1000);
const RUNS = size('ADMIN_BENCH_RUNS', 15, 3);

async function seed(db) {
  await db.execute(
    sql`INSERT INTO tenants (name) SELECT 'Tenant ' || g FROM generate_series(1, ${TENANTS}) g`,
  );
  await db.execute(sql`INSERT INTO users (tenant_id, first_name, last_name, email, username)
    SELECT id, 'Ada', 'Lovelace', 'user' || id || '@example.com', 'user' || id FROM tenants`);
  await db.execute(sql`INSERT INTO mail_outbox (tenant_id, to_address, subject, text_body, status)
    SELECT 1 + g % ${TENANTS}, 'mail' || g || '@example.com', 'Hello', 'Hi',
      CASE WHEN g % 50 = 0 THEN 'queued' ELSE 'sent' END FROM generate_series(1, ${MAILS}) g`);
  await db.execute(sql`INSERT INTO jobs (name, data, status, attempts, error, completed_at)
    SELECT 'mail.send', jsonb_build_object('outboxId', id),
      CASE WHEN id % 50 = 0 THEN 'failed' ELSE 'completed' END, 1,
      CASE WHEN id % 50 = 0 THEN 'connect ECONNREFUSED' END, now() FROM mail_outbox`);
  await db.execute(sql`INSERT INTO jobs (name, data, status, attempts, completed_at)
    SELECT 'training.qna-pair', '{}', 'completed', 1, now() FROM generate_series(1, ${JOBS})`);
  await db.execute(sql`ANALYZE`);
}

async function measure(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return summary(times);
}

async function benchOn(label, database) {
  const { db } = database;
  await seed(db);
  const page = { page: 1, pageSize: 20 };
  const now = new Date();
  const rows = [
    ['workspaces page (20)', () => listWorkspaces(db, page, undefined, now), 'count(*) tenants', 'tenants'],
    [
      'workspaces by member email',
      () => listWorkspaces(db, page, 'user1234@', now),
      'count(*) users',
      'users',
    ],
    ['jobs page, counts and kinds', () => listJobs(db, page, {}), 'count(*) jobs', 'jobs'],
    [
      'jobs: failed mail.send',
      () => listJobs(db, page, { status: 'failed', name: 'mail.send' }),
      'count(*) jobs',
      'jobs',
    ],
    ['mail page', () => listMail(db, page, undefined), 'count(*) mail_outbox', 'mail_outbox'],
    ['mail: failed', () => listMail(db, page, 'failed'), 'count(*) mail_outbox', 'mail_outbox'],
  ];
  const lines = [];
  for (const [name, query, baselineName, table] of rows) {
    const ours = await measure(query);
    const bare = await measure(() => db.execute(sql.raw(`SELECT count(*) FROM ${table}`)));
    lines.push([name, baselineName, ms(ours.p50), ms(ours.p95), ms(bare.p50), ms(bare.p95)]);
  }
  console.log(`\n${label}: ${TENANTS} workspaces, ${MAILS} mails, ${MAILS + JOBS} jobs, ${RUNS} runs (ms)`);
  printTable(['query', 'baseline', 'p50', 'p95', 'baseline p50', 'baseline p95'], lines);
}

const pgDb = await postgresDatabase('admin');
if (pgDb) {
  const database = await openDatabase({ kind: 'postgres', url: pgDb.url, poolSize: 4 });
  try {
    await benchOn('PostgreSQL', database);
  } finally {
    await database.close?.();
    await pgDb.drop();
  }
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-bench-admin-'));
  await copyMigratedPglite(dir);
  const database = await openDatabase({ kind: 'pglite', dataDir: dir });
  try {
    await benchOn('PGlite', database);
  } finally {
    await database.close?.();
    rmSync(dir, { recursive: true, force: true });
  }
}
