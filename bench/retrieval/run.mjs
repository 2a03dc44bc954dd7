// bench/retrieval: p50 and p95 latency of RetrievalService.search (a bot's full-text search over its
// attached sources, and its Q&A match) for natural questions, at 10k and 100k chunks, beside the
// bare SQL it runs: the very statements and parameters the service sends, captured at the driver and
// sent straight to it in the order the service does (the bot's collection ids first, then the chunk
// and Q&A statements concurrently). Both ways a search runs are measured: the SQL path (all matches
// ranked in SQL) and the in-memory first stage (BM25 candidates read by id), whose index build time
// and size are printed too. On embedded PGlite and, when reachable, a PostgreSQL server. Target:
// Parley at most 1.5 times its bare query (p50).
//
//   npm run build && node bench/retrieval/run.mjs
//
// Chunks are loaded in bulk (multi-row inserts of corpus text at the lengths Parley's chunker cuts,
// 10% in the bot's attached file group, 20% in its tenant's other groups, 70% in other tenants),
// then VACUUM ANALYZE. Each database is in its own process (worker.mjs); they load at the same time
// (one core each) and are measured one at a time. Bare and Parley run in alternating blocks of every question, so a change of machine load weighs on both alike.
// Environment:
//   BENCH_DATABASE_URL   PostgreSQL server to use (a fresh database is created on it and dropped);
//                        default postgres://postgres@127.0.0.1:5432/test, skipped if unreachable
//   BENCH_SIZES          chunk counts (10000,100000)
//   BENCH_ROUNDS         measured rounds per size (2), after a warm-up pass
//   BENCH_BOT_SHARE      fraction of chunks in the bot's attached file group (0.1)
//   BENCH_DATABASES      which to measure: pglite,postgres (both)
//   BENCH_CPU_PROF_DIR   write a V8 CPU profile of each worker process there (--cpu-prof)
//   BENCH_EXPLAIN        print EXPLAIN ANALYZE of one search's statements at each size
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkWorker } from '../shared/fork-worker.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const serverDist = path.join(root, 'apps/server/dist');

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const TARGET = 1.5;

for (const file of ['core/db/database.js', 'modules/knowledge/retrieval.service.js']) {
  if (!existsSync(path.join(serverDist, file))) {
    console.error(`apps/server/dist/${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

/** Starts worker.mjs on one database; its messages are read in order with next(). */
function startWorker(label, dbUrl) {
  const child = forkWorker({
    dir: here,
    bench: 'retrieval',
    label,
    dbUrl,
    env: { BENCH_ROUNDS: String(ROUNDS) },
  });
  const queue = [];
  const waiting = [];
  let exited = null;
  child.on('message', (message) => {
    const resolve = waiting.shift();
    if (resolve) resolve(message);
    else queue.push(message);
  });
  child.once('exit', (code, signal) => {
    exited = new Error(`worker on ${label} exited early (${signal ?? `code ${code}`})`);
    for (const resolve of waiting.splice(0)) resolve(exited);
  });
  return {
    label,
    child,
    next: async () => {
      const message =
        queue.shift() ?? (exited ? exited : await new Promise((resolve) => waiting.push(resolve)));
      if (message instanceof Error) throw message;
      return message;
    },
  };
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

function printTable(rows) {
  const header = [
    'database',
    'stage',
    'chunks (bot)',
    'parley p50/p95',
    'bare p50/p95',
    'ratio p50 (p95)',
    'CPU µs/op parley/bare',
    `target ≤ ${TARGET}`,
  ];
  const cpu = (s) =>
    s.serverCpuUsPerOp > 0 ? `${fmt(s.cpuUsPerOp)}+${fmt(s.serverCpuUsPerOp)}` : fmt(s.cpuUsPerOp);
  const lines = rows.map(({ database, stage, size, botChunks, parley, bare }) => {
    const ratio = parley.p50 / bare.p50;
    return [
      database,
      stage,
      `${fmt(size)} (${fmt(botChunks)})`,
      `${ms(parley.p50)} / ${ms(parley.p95)} ms`,
      `${ms(bare.p50)} / ${ms(bare.p95)} ms`,
      `${ratio.toFixed(2)} (${(parley.p95 / bare.p95).toFixed(2)})`,
      `${cpu(parley)} / ${cpu(bare)}`,
      ratio <= TARGET ? 'met' : 'MISSED',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const line of lines) console.log(format(line));
}

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const server = await postgresDatabase('retrieval');
const workers = [];
const rows = [];
let questions = 0;
try {
  if (measuresPglite) workers.push({ database: 'PGlite', ...startWorker('pglite') });
  if (server) workers.push({ database: 'PostgreSQL', ...startWorker('postgres', server.url) });
  // Every database loads at once (one core each), then each is measured alone.
  for (const _size of SIZES) {
    for (const worker of workers) await worker.next(); // { loaded }
    for (const worker of workers) {
      worker.child.send('measure');
      const { result } = await worker.next();
      const { sql, memory, ...common } = result;
      rows.push({ database: worker.database, stage: 'SQL', ...common, ...sql });
      rows.push({ database: worker.database, stage: 'in-memory', ...common, ...memory });
    }
  }
  for (const worker of workers) questions = (await worker.next()).questions;
} finally {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  if (server) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.drop();
  }
}
rows.sort((a, b) =>
  a.database !== b.database
    ? a.database === 'PGlite'
      ? -1
      : 1
    : a.size - b.size || (a.stage === 'SQL' ? -1 : 1),
);

console.log(
  `Retrieval: RetrievalService.search beside its bare SQL; ${questions} natural questions (eval/retrieval), ` +
    `limit 8, 1 warm-up pass + ${ROUNDS} alternating rounds per size; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`,
);
console.log('');
printTable(rows);
console.log(
  "\nparley: RetrievalService.search(tenant, bot, question, 8): the bot's collections (with their content versions and the question's lexemes), then the chunk and Q&A statements in parallel, then fusion." +
    "\nstage SQL: the chunk statement ranks every match (OR tsquery, ts_rank_cd) and the Q&A match stems the bot's trained questions. in-memory: BM25 over the bot's collections' in-memory index picks the chunks, read by id; the Q&A match is in memory, its answer read by id when one matches." +
    '\nbare: the same statements with the same parameters, captured at the driver and sent straight to it (PGlite.query / pg Pool.query): the first, then the others in parallel.' +
    "\nchunks (bot): chunks in the database (in the bot's attached file group). Target judged on p50; p95 ratio shown in brackets." +
    '\nCPU µs/op: CPU time of the measuring process per search (PGlite runs inside it); on PostgreSQL + that of its server processes (/proc).',
);
const firsts = rows.filter((r) => r.stage === 'SQL');
console.log(
  `Bulk load (chunks inserted, GIN index built, VACUUM ANALYZE): ${firsts
    .map((r) => `${r.database} to ${fmt(r.size)}: ${(r.loadMs / 1000).toFixed(1)} s`)
    .join('; ')}`,
);
console.log(
  `In-memory index of the bot's collections (built in the background after a change, SQL path meanwhile): ${firsts
    .map(
      (r) =>
        `${r.database} at ${fmt(r.size)}: ${fmt(r.index.buildMs)} ms, ${(r.index.bytes / 1048576).toFixed(1)} MiB`,
    )
    .join('; ')}`,
);
const missed = rows.filter((r) => r.parley.p50 / r.bare.p50 > TARGET);
console.log(
  missed.length > 0
    ? `\nTarget missed on: ${missed.map((r) => `${r.database} ${r.stage} at ${fmt(r.size)}`).join(', ')}`
    : `\nTarget met: retrieval at most ${TARGET}× its bare query on every database and size.`,
);
