// bench/retrieval child: one database. Fills chunks in bulk up to each size, then measures
// RetrievalService.search for natural questions beside the same SQL statements sent straight to the
// driver, in alternating blocks, on the SQL path and with the in-memory first stage, and reports
// over IPC.
//   BENCH_DB_URL     PostgreSQL database (absent: in-memory PGlite)
//   BENCH_SIZES      chunk counts to measure at (10000,100000)
//   BENCH_ROUNDS     measured rounds per size (2); each round asks every question once each way
//   BENCH_BOT_SHARE  fraction of the chunks in the bot's attached file group (0.1)
//   BENCH_EXPLAIN    print EXPLAIN ANALYZE of one search's statements to stderr
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chunkLoader } from '../shared/chunk-loader.mjs';
import { chunkText, paragraphs, pick, QUESTIONS as questions } from '../shared/corpus.mjs';
import { migratedPgliteDump } from '../shared/pglite-template.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));

const { openDatabase } = await import(dist('core/db/database.js'));
const { tenants, fileGroups, bots, botFileGroups, qna } = await import(dist('core/db/schema.js'));
const { RetrievalService } = await import(dist('modules/knowledge/retrieval.service.js'));
const { LexicalIndexCache } = await import(dist('modules/knowledge/lexical-index.js'));
const { default: pg } = await import(pathToFileURL(serverRequire.resolve('pg')).href);

const url = process.env.BENCH_DB_URL;
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const BOT_SHARE = Number(process.env.BENCH_BOT_SHARE ?? 0.1);
const OTHER_GROUPS_SHARE = 0.2; // the same tenant's file groups the bot does not use
const OTHER_TENANTS = 9; // the rest: other tenants' file groups
const CHUNKS_PER_DOCUMENT = 50;
const BATCH = 1000;

const database = await openDatabase(
  url ? { kind: 'postgres', url } : { kind: 'pglite', loadDataDir: await migratedPgliteDump() },
);
const db = database.db;
const client = db.$client;

// The bot's tenant: one file group attached to the bot, four others it does not use, and Q&A.
const [tenant] = await db.insert(tenants).values({ name: 'Bench retrieval' }).returning();
const groups = await db
  .insert(fileGroups)
  .values([0, 1, 2, 3, 4].map((i) => ({ tenantId: tenant.id, groupName: `bench_group_${i}` })))
  .returning();
const [bot] = await db.insert(bots).values({ tenantId: tenant.id, botName: 'Bench' }).returning();
await db.insert(botFileGroups).values({ tenantId: tenant.id, botId: bot.id, fileGroupId: groups[0].id });
await db.insert(qna).values(
  Array.from({ length: 50 }, () => {
    const answer = pick(paragraphs);
    return {
      tenantId: tenant.id,
      botId: bot.id,
      question: `${answer.split(/(?<=[.!?])\s/)[0].slice(0, 120)}?`,
      answer,
      trained: true,
    };
  }),
);
const others = [];
for (let t = 0; t < OTHER_TENANTS; t++) {
  const [other] = await db
    .insert(tenants)
    .values({ name: `Other ${t}` })
    .returning();
  const [group] = await db.insert(fileGroups).values({ tenantId: other.id, groupName: 'docs' }).returning();
  others.push({ tenantId: other.id, collectionId: group.id });
}

/** Where the n-th chunk goes: the bot's group, the tenant's other groups, or another tenant. */
function placeOf(n) {
  const x = (n * 0.6180339887) % 1; // evenly spread, whatever the size
  if (x < BOT_SHARE) return { tenantId: tenant.id, collectionId: groups[0].id };
  if (x < BOT_SHARE + OTHER_GROUPS_SHARE)
    return { tenantId: tenant.id, collectionId: groups[1 + (n % 4)].id };
  return others[n % others.length];
}

let botChunks = 0;
const loader = chunkLoader(db, {
  placeOf,
  chunkText,
  chunksPerDocument: CHUNKS_PER_DOCUMENT,
  batch: BATCH,
  onPlaced: (place) => {
    if (place.collectionId === groups[0].id && place.tenantId === tenant.id) botChunks += 1;
  },
});
const fill = (total) => loader.fill(total);

// CPU of the PostgreSQL server processes serving this database (on this machine), from /proc.
const monitor = url ? new pg.Client({ connectionString: url }) : null;
if (monitor) await monitor.connect();
const TICK_US = 1e6 / 100;
let serverPids = [];
async function refreshServerPids() {
  if (!monitor) return;
  const { rows } = await monitor.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  serverPids = rows.map((r) => r.pid);
}
function serverCpuUs() {
  if (!monitor) return 0;
  let total = 0;
  for (const pid of serverPids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * TICK_US;
    } catch {
      return Number.NaN;
    }
  }
  return total;
}

// The two ways a search runs: all in SQL (while a collection's index builds, or with
// RETRIEVAL_INDEX_MB=0), and with the in-memory first stage (BM25 candidates, read by id).
const lexical = new LexicalIndexCache(db, { maxBytes: 256 * 1024 * 1024 });
const stages = { sql: new RetrievalService(db), memory: new RetrievalService(db, null, undefined, lexical) };

/**
 * The statements one search sends (Promise.all of the chunk and Q&A statements), recorded as
 * `client.query` arguments. PGlite's named prepared statements bypass `query` (wire protocol: Parse
 * once, then Bind), so there each Bind is recorded with its statement's text and text parameters.
 */
let recording = null;
async function captureCalls(retrieval, question) {
  const original = client.query;
  const calls = [];
  client.query = function (...args) {
    calls.push(args);
    return original.apply(this, args);
  };
  recording = calls;
  try {
    return { calls, result: await retrieval.search(tenant.id, bot.id, question, 8) };
  } finally {
    client.query = original;
    recording = null;
  }
}

if (client.execProtocolStream) {
  const execProtocolStream = client.execProtocolStream;
  client.execProtocolStream = function (message, ...rest) {
    const bound = boundStatement(message);
    if (bound && recording) recording.push(bound);
    return execProtocolStream.call(this, message, ...rest);
  };
}

/** Texts of the statements PGlite parsed, by name (a Parse message: 'P', length, name, text). */
const parsedTexts = new Map();
const decoder = new TextDecoder();
/** A named statement's Bind as [text, parameters]; Parse messages only remember their text. */
function boundStatement(message) {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const cstring = (at) => {
    const end = message.indexOf(0, at);
    return [decoder.decode(message.subarray(at, end)), end + 1];
  };
  const type = String.fromCharCode(message[0]);
  if (type === 'P') {
    const [name, at] = cstring(5);
    parsedTexts.set(name, cstring(at)[0]);
    return null;
  }
  if (type !== 'B') return null;
  const [, afterPortal] = cstring(5);
  let [name, at] = cstring(afterPortal);
  at += 2 + 2 * view.getInt16(at); // parameter format codes (text here)
  const count = view.getInt16(at);
  at += 2;
  const params = [];
  for (let i = 0; i < count; i++) {
    const length = view.getInt32(at);
    at += 4;
    params.push(length < 0 ? null : decoder.decode(message.subarray(at, at + length)));
    if (length > 0) at += length;
  }
  // Unnamed statements are PGlite's own `query`, recorded there already.
  return name ? [parsedTexts.get(name), params] : null;
}

async function block(ops) {
  const latencies = [];
  const serverBefore = serverCpuUs();
  const cpuBefore = process.cpuUsage();
  for (const op of ops) {
    const started = performance.now();
    await op();
    latencies.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const server = serverCpuUs() - serverBefore;
  return { latencies, cpuUs: cpu.user + cpu.system, serverCpuUs: server };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
function summary(blocks) {
  const latencies = blocks.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const n = latencies.length;
  return {
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    cpuUsPerOp: blocks.reduce((s, b) => s + b.cpuUs, 0) / n,
    serverCpuUsPerOp: monitor ? blocks.reduce((s, b) => s + b.serverCpuUs, 0) / n : 0,
    ops: n,
  };
}

/** EXPLAIN ANALYZE of each statement of one search, to stderr (BENCH_EXPLAIN=1). */
async function explain(list, size) {
  for (const [first, second] of list) {
    // pg is called with a config object (and the parameters), PGlite with text and parameters.
    const [text, params] = typeof first === 'string' ? [first, second] : [first.text, second ?? first.values];
    const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    const plan = result.rows.map((row) => row['QUERY PLAN']).join('\n');
    console.error(`\n--- ${url ? 'PostgreSQL' : 'PGlite'}, ${size} chunks ---\n${text}\n${plan}`);
  }
}

/** Resolves on the parent's next message (the go-ahead to measure). */
const nextMessage = () => new Promise((resolve) => process.once('message', resolve));

// Databases load at the same time (one each per core) and are measured one at a time: after each
// load this process says so and waits for the go-ahead.
for (const size of SIZES) {
  const loadStarted = performance.now();
  await fill(size);
  const loadMs = performance.now() - loadStarted;
  process.send({ loaded: size });
  await nextMessage();

  // The bot's collections changed with the load: their indexes are built again, timed alone.
  const buildStarted = performance.now();
  await stages.memory.search(tenant.id, bot.id, questions[0], 8);
  await lexical.idle();
  const index = { buildMs: performance.now() - buildStarted, bytes: lexical.usedBytes };
  const sqlPath = await measure(stages.sql, size);
  const missed = lexical.stats.missed;
  const memory = await measure(stages.memory);
  if (lexical.stats.missed !== missed) throw new Error('the in-memory stage fell back to SQL while measured');
  process.send({ result: { size, botChunks, loadMs, index, sql: sqlPath, memory } });
}

/**
 * One stage's p50/p95 beside its bare statements. The warm-up records each question's statements
 * exactly as the service sends them: the bot's collections first, then the chunk and Q&A ones at once.
 */
async function measure(retrieval, explainAt) {
  // One search first: the service reads its vocabulary's stems (synonyms, chat words) once, on its
  // first search, and the statements recorded below are those of a search in steady use.
  await retrieval.search(tenant.id, bot.id, questions[0], 8);
  const calls = [];
  let hits = 0;
  for (const question of questions) {
    const recorded = await captureCalls(retrieval, question);
    calls.push(recorded.calls);
    hits += recorded.result.hits.length;
  }
  const parleyOps = questions.map((question) => () => retrieval.search(tenant.id, bot.id, question, 8));
  // Collections, chunks, Q&A and the corpus figures answers are judged by (each question word's
  // stems, or with the SQL path their counts): the bare path replays them, the collections first.
  if (calls.some((list) => list.length < 2 || list.length > 4))
    throw new Error(
      `expected 2 to 4 statements per search (collections, chunks, Q&A, corpus figures), saw ${calls.map((l) => l.length)}: update the bare path`,
    );
  const bareOps = calls.map(([scope, ...rest]) => async () => {
    await client.query(...scope);
    await Promise.all(rest.map((args) => client.query(...args)));
  });
  if (process.env.BENCH_EXPLAIN && explainAt) await explain(calls[0], explainAt);
  for (const op of bareOps) await op();
  await refreshServerPids();

  const rounds = { parley: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) {
    rounds.bare.push(await block(bareOps));
    rounds.parley.push(await block(parleyOps));
  }
  return { meanHits: hits / questions.length, parley: summary(rounds.parley), bare: summary(rounds.bare) };
}

if (monitor) await monitor.end();
await database.close();
process.send({ done: true, questions: questions.length });
process.disconnect();
