// bench/chat: a visitor's chat over the WebSocket /api/chat/stream, answered by a language model.
//   1. Latency, one visitor at a time, at each knowledge size (10k and 100k chunks): the time from
//      the visitor's message to the request reaching the model, and from the model's first token
//      to the first `data` frame reaching the visitor, beside the fake model's own first-token
//      latency and beside a bare `ws` relay that makes the same model request (same network path
//      without Parley). Targets: ≤ 10 ms p50 before the model request; ≤ 2 ms p95 from first token
//      to first frame.
//   2. Load, at the largest size: CHAT_BENCH_VISITORS visitors (200) chatting for CHAT_BENCH_SECONDS
//      (60), each in its own conversation (message, wait for the stored answer, ~1 s pause, again):
//      p50 and p99 time to first `data` frame, errors, and the server's memory per connection,
//      Parley beside the bare `ws` relay under the same load.
//
//   npm run build && node bench/run.mjs chat
//   CHAT_BENCH_SECONDS=10 CHAT_BENCH_VISITORS=50 CHAT_BENCH_CHUNKS=10000 node bench/chat/run.mjs
//
// CHAT_BENCH_TRACE=1 adds, per size, a timeline of every SQL statement and frame of an opening and
// a follow-up message, and splits first token → first frame into its hops (where the time goes).
// The visitors and the fake model (bench/chat/fake-model.mjs) run in this process, so both ends of
// every interval are read on one clock (performance.now()); each server runs in its own process
// (worker.mjs). See bench/chat/README.md for every environment variable.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyMigratedPglite } from '../shared/pglite-template.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';
import { fmt, ms, printTable, summary, trio } from '../shared/report.mjs';
import { builtServer, startServerChild } from '../shared/server-child.mjs';
import { startFakeModel } from './fake-model.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { WebSocket } = await builtServer([
  'app.js',
  'config.js',
  'core/db/database.js',
  'modules/chat/chat.socket.js',
]);

const env = (name, fallback) => process.env[name] ?? fallback;
const SECONDS = Number(env('CHAT_BENCH_SECONDS', 60));
const VISITORS = Number(env('CHAT_BENCH_VISITORS', 200));
const SIZES = env('CHAT_BENCH_CHUNKS', '10000,100000').split(',').map(Number);
const PROBES = Number(env('CHAT_BENCH_PROBES', 100));
const ROUNDS = Math.max(1, Number(env('CHAT_BENCH_ROUNDS', 2)));
const LOAD = env('CHAT_BENCH_LOAD', '1') !== '0';
const MODEL_MS = Number(env('CHAT_BENCH_MODEL_MS', 50));
const TOKEN_MS = Number(env('CHAT_BENCH_TOKEN_MS', 2));
const PAUSE_MS = Number(env('CHAT_BENCH_PAUSE_MS', 1000));
const SETTLE_MS = Number(env('CHAT_BENCH_SETTLE_MS', 1000));
const TIMEOUT_MS = Number(env('CHAT_BENCH_TIMEOUT_MS', 30_000));
const TURNS_PER_CONVERSATION = 5;
const TARGET_PRE_MODEL_P50 = 10;
const TARGET_FIRST_FRAME_P95 = 2;

const { QUESTIONS } = await import('../shared/corpus.mjs');

// ---------------------------------------------------------------- fake model and clock

/** The probe waiting for its model request (latency phase: one message in flight at a time). */
let probe = null;
const fake = await startFakeModel({
  firstTokenMs: MODEL_MS,
  tokenMs: TOKEN_MS,
  onRequest: (record) => {
    if (probe && !probe.model) probe.model = record;
  },
});
const now = () => performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- child processes

/** Forks worker.mjs in a role; resolves once it listens. `ask(key)` sends and awaits the answer. */
function startServer(role, label, extraEnv) {
  return startServerChild({ dir: here, bench: 'chat', label, env: { BENCH_CHAT_ROLE: role, ...extraEnv } });
}

// ---------------------------------------------------------------- HTTP set-up against Parley

async function call(port, method, url, { body, form, token } = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: form ?? (body ? JSON.stringify(body) : undefined),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

const formOf = (fields) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
};

/** An owner, an LLM setting pointing at the fake, and a public bot answering with it. */
async function setUpBot(port) {
  const signup = await call(port, 'POST', '/api/auth/signup', {
    body: {
      first_name: 'Bench',
      last_name: 'Chat',
      email: `bench-chat-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench-password-123',
      company_name: 'Bench chat',
    },
  });
  const token = signup.access_token;
  const setting = await call(port, 'POST', '/api/settings/llm', {
    token,
    body: {
      name: 'Fake',
      provider: 'openai-compatible',
      base_url: fake.url,
      model: 'bench',
      api_key: 'sk-bench-key-0000',
    },
  });
  const bot = await call(port, 'POST', '/api/chat/bots', {
    token,
    form: formOf({ bot_name: 'Bench helper', is_public: 'true', llm_model: String(setting.id) }),
  });
  return { token, tenantId: signup.user.tenant_id, userId: signup.user.id, bot };
}

// ---------------------------------------------------------------- a visitor over the WebSocket

/**
 * One visitor's socket. `turn(text)` sends a message and resolves when the stored answer arrives
 * (a bot message after at least one `data` frame), with the times of sending and first `data`
 * frame, or with the error that ended it: an error or warning frame, the socket closing, a timeout.
 */
class Visitor {
  constructor(url, botId) {
    this.url = url;
    this.botId = botId;
    this.conversationId = 0;
    this.current = null;
    this.closed = false;
  }

  open() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, { perMessageDeflate: false });
      this.socket = socket;
      socket.once('open', () => resolve(this));
      socket.once('error', reject);
      socket.on('message', (raw) => this.onFrame(raw));
      socket.on('close', () => {
        this.closed = true;
        this.end({ error: 'socket closed' });
      });
    });
  }

  onFrame(raw) {
    const at = now();
    const turn = this.current;
    const frame = JSON.parse(raw.toString());
    if (frame.conversation_id) this.conversationId = frame.conversation_id;
    if (!turn) return;
    if (frame.error) return this.end({ error: `error frame: ${frame.error}` });
    if (frame.type === 'warning') return this.end({ error: `warning frame: ${frame.message}` });
    if (frame.data !== undefined && turn.firstDataAt === null) turn.firstDataAt = at;
    if (frame.final_result_object?.message_type === 'bot' && turn.firstDataAt !== null) {
      this.end({ doneAt: at });
    }
  }

  end(outcome) {
    const turn = this.current;
    if (!turn) return;
    this.current = null;
    clearTimeout(turn.timer);
    turn.resolve({ sentAt: turn.sentAt, firstDataAt: turn.firstDataAt, ...outcome });
  }

  turn(message) {
    if (this.closed) return Promise.resolve({ error: 'socket closed' });
    return new Promise((resolve) => {
      const turn = { resolve, firstDataAt: null, sentAt: 0 };
      turn.timer = setTimeout(() => this.end({ error: 'timeout' }), TIMEOUT_MS);
      this.current = turn;
      const frame = {
        content: {
          bot_id: this.botId,
          conversation_id: this.conversationId,
          message,
          message_type: 'user',
          user_id: null,
          tenant_id: null,
          // As the widget sends it: the id a message sent again after a reconnect is stored once by.
          client_id: randomBytes(16).toString('hex'),
        },
        elements: [],
      };
      turn.sentAt = now();
      this.socket.send(JSON.stringify(frame));
    });
  }

  close() {
    this.closed = true;
    this.socket?.terminate();
  }
}

/** Visitor socket URLs: Parley's with a fresh signed identity each, the bare relay's as they are. */
async function visitorUrls(target, count) {
  if (target.kind === 'bare')
    return Array.from({ length: count }, () => `ws://127.0.0.1:${target.port}/api/chat/stream`);
  const urls = [];
  for (let i = 0; i < count; i++) {
    const identity = await call(target.port, 'POST', '/api/chat/visitor', {
      body: { bot_uuid: target.botUuid },
    });
    urls.push(`ws://127.0.0.1:${target.port}/api/chat/stream?visitor_token=${identity.visitor_token}`);
  }
  return urls;
}

// ---------------------------------------------------------------- statistics

// ---------------------------------------------------------------- latency: one message at a time

let questionIndex = 0;
const nextQuestion = () => QUESTIONS[questionIndex++ % QUESTIONS.length];

/** One message; the model's request and first token matched to it (nothing else is in flight). */
async function measureTurn(visitor, count, samples) {
  if (count % TURNS_PER_CONVERSATION === 0) visitor.conversationId = 0;
  probe = { model: null };
  const result = await visitor.turn(nextQuestion());
  const model = probe.model;
  probe = null;
  if (result.error) throw new Error(`latency probe failed: ${result.error}`);
  if (!model || model.firstTokenAt === null) {
    samples.noModel += 1;
    return;
  }
  samples.preModel.push(model.arrivedAt - result.sentAt);
  samples.modelOwn.push(model.firstTokenAt - model.arrivedAt);
  samples.firstFrame.push(result.firstDataAt - model.firstTokenAt);
  samples.total.push(result.firstDataAt - result.sentAt);
  samples.first[count % TURNS_PER_CONVERSATION === 0 ? 'opening' : 'followUp'].push(
    model.arrivedAt - result.sentAt,
  );
  // Let the answer's storing and announcing finish before the next message.
  await sleep(20);
}

async function latency(parley, bare) {
  const visitors = {};
  for (const target of [parley, bare]) {
    const [url] = await visitorUrls(target, 1);
    visitors[target.kind] = await new Visitor(url, target.botId).open();
  }
  const samples = {};
  const counts = { parley: 0, bare: 0 };
  for (const kind of ['parley', 'bare']) {
    samples[kind] = {
      preModel: [],
      modelOwn: [],
      firstFrame: [],
      total: [],
      first: { opening: [], followUp: [] },
      noModel: 0,
    };
  }
  // Warm-up, then alternating blocks (bare, parley, bare, parley...).
  for (const kind of ['bare', 'parley']) {
    const scratch = {
      preModel: [],
      modelOwn: [],
      firstFrame: [],
      total: [],
      first: { opening: [], followUp: [] },
      noModel: 0,
    };
    for (let i = 0; i < 10; i++) await measureTurn(visitors[kind], counts[kind]++, scratch);
  }
  const perBlock = Math.max(1, Math.round(PROBES / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['bare', 'parley']) {
      for (let i = 0; i < perBlock; i++) await measureTurn(visitors[kind], counts[kind]++, samples[kind]);
    }
  }
  for (const visitor of Object.values(visitors)) visitor.close();
  const out = {};
  for (const kind of ['parley', 'bare']) {
    const s = samples[kind];
    out[kind] = {
      preModel: summary(s.preModel),
      modelOwn: summary(s.modelOwn),
      firstFrame: summary(s.firstFrame),
      total: summary(s.total),
      opening: summary(s.first.opening),
      followUp: summary(s.first.followUp),
      noModel: s.noModel,
    };
  }
  return out;
}

/**
 * CHAT_BENCH_TRACE=1: one opening and one follow-up message with every statement the server sent,
 * on a timeline from the visitor's message (wall clocks of both processes), to see where the time
 * before the model request goes.
 */
async function traceTurns(parley, label) {
  const [url] = await visitorUrls(parley, 1);
  const visitor = await new Visitor(url, parley.botId).open();
  const legs = { toServer: [], inServer: [], toVisitor: [] };
  for (let i = 0; i < 30; i++) {
    if (i % TURNS_PER_CONVERSATION === 0) visitor.conversationId = 0;
    await parley.server.ask({ trace: true }, 'trace');
    probe = { model: null };
    const result = await visitor.turn(nextQuestion());
    const model = probe.model;
    probe = null;
    await sleep(50);
    const statements = await parley.server.ask({ trace: false }, 'trace');
    const sent = performance.timeOrigin + result.sentAt;
    const firstSend = statements.find((q) => q.sql.startsWith('ws.send') && q.sql.includes('"data"'));
    const headers = statements.find((q) => q.sql.startsWith('fetch: model response'));
    if (model?.firstTokenAt && firstSend && headers) {
      legs.toServer.push(headers.at - (performance.timeOrigin + model.firstTokenAt));
      legs.inServer.push(firstSend.at - headers.at);
      legs.toVisitor.push(performance.timeOrigin + result.firstDataAt - firstSend.at);
    }
    if (i > 1) continue;
    const modelAt = model ? model.arrivedAt - result.sentAt : Number.NaN;
    const before = statements.filter((q) => q.at - sent < modelAt && !q.sql.startsWith('ws.send'));
    console.log(
      `\n${label}, ${i === 0 ? 'opening' : 'follow-up'} message: model request at +${ms(modelAt)} ms; ${before.length} statements before it, ` +
        `${ms(before.reduce((n, q) => n + q.ms, 0))} ms inside them:`,
    );
    for (const q of statements) {
      console.log(
        `  +${(q.at - sent).toFixed(1).padStart(6)} ms ${q.ms.toFixed(2).padStart(7)} ms  ${q.sql}`,
      );
    }
  }
  const [a, b, c] = [legs.toServer, legs.inServer, legs.toVisitor].map(summary);
  console.log(
    `\n${label}, first token → first frame over ${a.n} messages, p50 / p95: fake writes its first token → ` +
      `Parley's fetch has the response ${ms(a.p50)} / ${ms(a.p95)} ms → Parley calls ws.send ${ms(b.p50)} / ${ms(b.p95)} ms ` +
      `→ the visitor receives the frame ${ms(c.p50)} / ${ms(c.p95)} ms`,
  );
  visitor.close();
}

// ---------------------------------------------------------------- load: many visitors at once

/** The server's memory once it has settled: full GCs a few times, SETTLE_MS apart, the last kept. */
async function settledMemory(server) {
  let memory;
  for (let i = 0; i < 3; i++) {
    await sleep(SETTLE_MS);
    memory = await server.ask('memory', 'memory');
  }
  return memory;
}

async function load(target) {
  const urls = await visitorUrls(target, VISITORS);
  const cpuBefore = await target.server.ask('cpu', 'cpu');
  const before = await settledMemory(target.server);
  const visitors = [];
  for (let i = 0; i < urls.length; i += 20) {
    visitors.push(
      ...(await Promise.all(urls.slice(i, i + 20).map((url) => new Visitor(url, target.botId).open()))),
    );
  }
  const after = await settledMemory(target.server);

  let peakRss = after.rss;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(1000);
      peakRss = Math.max(peakRss, await target.server.ask('rss', 'rss'));
    }
  })();
  const firstFrame = [];
  const errors = {};
  let completed = 0;
  const started = now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    visitors.map(async (visitor, index) => {
      await sleep((index / visitors.length) * PAUSE_MS); // spread the starts over one pause
      while (now() < deadline) {
        const result = await visitor.turn(nextQuestion());
        if (result.error) {
          const kind = result.error.replace(/:.*/, '');
          errors[kind] = (errors[kind] ?? 0) + 1;
          if (visitor.closed) return;
        } else {
          completed += 1;
          firstFrame.push(result.firstDataAt - result.sentAt);
        }
        await sleep(PAUSE_MS * (0.8 + 0.4 * Math.random()));
      }
    }),
  );
  const elapsed = (now() - started) / 1000;
  sampling = false;
  await sampler;
  const cpuAfter = await target.server.ask('cpu', 'cpu');
  for (const visitor of visitors) visitor.close();
  await sleep(500);
  const cpuUs = cpuAfter.user + cpuAfter.system - (cpuBefore.user + cpuBefore.system);
  return {
    visitors: visitors.length,
    completed,
    rate: completed / elapsed,
    firstFrame: summary(firstFrame),
    errors,
    errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
    rssPerConnection: (after.rss - before.rss) / visitors.length,
    heapPerConnection:
      (after.heapUsed + after.external - before.heapUsed - before.external) / visitors.length,
    idleRss: after.rss,
    peakRss,
    cpuMsPerMessage: completed > 0 ? cpuUs / 1000 / completed : Number.NaN,
  };
}

// ---------------------------------------------------------------- one database

function parleyEnv(dataDir, databaseUrl) {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL']) delete base[key];
  return {
    ...base,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    APP_SECRET: randomBytes(48).toString('base64url'),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    // No console to serve: the bench talks to the API and the WebSocket only.
    WEB_DIST_DIR: dataDir,
    // Limits that would otherwise refuse the bench's own traffic.
    VISITOR_MESSAGES_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
    MONTHLY_MESSAGE_LIMIT: '1000000000',
    PLAN_LIMITS: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

async function benchDatabase(label, databaseUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-chat-'));
  if (!databaseUrl) await copyMigratedPglite(path.join(dataDir, 'pgdata'));
  const servers = [];
  try {
    const parleyServer = await startServer(
      'parley',
      `parley-${label.toLowerCase()}`,
      parleyEnv(dataDir, databaseUrl),
    );
    servers.push(parleyServer);
    const bareServer = await startServer('bare', `bare-${label.toLowerCase()}`, {
      BENCH_CHAT_MODEL_URL: fake.url,
    });
    servers.push(bareServer);
    const owner = await setUpBot(parleyServer.port);
    const parley = {
      kind: 'parley',
      server: parleyServer,
      port: parleyServer.port,
      botId: owner.bot.bot_id,
      botUuid: owner.bot.uuid,
    };
    const bare = { kind: 'bare', server: bareServer, port: bareServer.port, botId: owner.bot.bot_id };

    const latencyRows = [];
    let groupAttached = false;
    let lastSize = 0;
    for (const size of SIZES) {
      const seeded = await parleyServer.ask(
        { seed: { tenantId: owner.tenantId, userId: owner.userId, size } },
        'seeded',
      );
      if (!groupAttached) {
        await call(parleyServer.port, 'PUT', `/api/chat/bots/${owner.bot.bot_id}`, {
          token: owner.token,
          form: formOf({ file_group_ids: JSON.stringify([seeded.groupId]) }),
        });
        groupAttached = true;
      }
      console.log(
        `${label}: ${seeded.total.toLocaleString('en-US')} chunks loaded (${seeded.botChunks.toLocaleString('en-US')} in the bot's file group) in ${(seeded.ms / 1000).toFixed(1)} s; measuring latency`,
      );
      latencyRows.push({
        database: label,
        size,
        botChunks: seeded.botChunks,
        ...(await latency(parley, bare)),
      });
      if (process.env.CHAT_BENCH_TRACE) await traceTurns(parley, `${label} at ${size} chunks`);
      lastSize = size;
    }

    const loadRows = [];
    if (!LOAD) return { latencyRows, loadRows };
    console.log(`${label}: load, ${VISITORS} visitors for ${SECONDS} s, bare ws relay then Parley`);
    loadRows.push({ database: label, server: 'bare ws', size: lastSize, ...(await load(bare)) });
    loadRows.push({ database: label, server: 'parley', size: lastSize, ...(await load(parley)) });
    return { latencyRows, loadRows };
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** On Parley's own figure: the loopback hops the bare relay also pays are part of it. */
function verdict(parley, key, target) {
  return parley[key] <= target ? 'met' : 'MISSED';
}

function printLatency(rows) {
  const header = [
    'database',
    'metric',
    'chunks (bot)',
    'parley p50/p95/p99 ms',
    'bare p50/p95/p99 ms',
    'parley−bare p50',
    'target',
    'verdict',
  ];
  const lines = [];
  for (const row of rows) {
    const chunks = `${fmt(row.size)} (${fmt(row.botChunks)})`;
    const { parley, bare } = row;
    lines.push([
      row.database,
      'message → model request',
      chunks,
      trio(parley.preModel),
      trio(bare.preModel),
      `${ms(parley.preModel.p50 - bare.preModel.p50)} ms`,
      `p50 ≤ ${TARGET_PRE_MODEL_P50} ms`,
      verdict(parley.preModel, 'p50', TARGET_PRE_MODEL_P50),
    ]);
    lines.push([
      row.database,
      'first token → first frame',
      chunks,
      trio(parley.firstFrame),
      trio(bare.firstFrame),
      `${ms(parley.firstFrame.p50 - bare.firstFrame.p50)} ms`,
      `p95 ≤ ${TARGET_FIRST_FRAME_P95} ms`,
      verdict(parley.firstFrame, 'p95', TARGET_FIRST_FRAME_P95),
    ]);
    lines.push([
      row.database,
      "fake model's own first token",
      chunks,
      trio(parley.modelOwn),
      trio(bare.modelOwn),
      '',
      `(set: ${MODEL_MS} ms)`,
      '',
    ]);
    lines.push([
      row.database,
      'message → first frame (total)',
      chunks,
      trio(parley.total),
      trio(bare.total),
      `${ms(parley.total.p50 - bare.total.p50)} ms`,
      '',
      '',
    ]);
  }
  printTable(header, lines);
}

function printLoad(rows) {
  const header = [
    'database',
    'server',
    'visitors',
    'answers (/s)',
    'first frame p50 / p99',
    'errors',
    'RSS per conn (heap+ext)',
    'RSS idle / peak',
    'CPU ms/answer',
  ];
  const lines = rows.map((r) => [
    r.database,
    r.server,
    String(r.visitors),
    `${fmt(r.completed)} (${r.rate.toFixed(1)})`,
    `${ms(r.firstFrame.p50)} / ${ms(r.firstFrame.p99)} ms`,
    r.errorCount === 0
      ? '0'
      : `${r.errorCount} (${Object.entries(r.errors)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`,
    `${kib(r.rssPerConnection)} (${kib(r.heapPerConnection)})`,
    `${mib(r.idleRss)} / ${mib(r.peakRss)}`,
    r.cpuMsPerMessage.toFixed(2),
  ]);
  printTable(header, lines);
}

const loadAverage = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `Chat over WebSocket: Parley beside a bare ws relay making the same model request; fake model: first token after ${MODEL_MS} ms, ` +
    `${fake.words} words ${TOKEN_MS} ms apart; latency: ${PROBES} messages per size one at a time (10 warm-up, ${ROUNDS} alternating rounds); ` +
    `load: ${VISITORS} visitors × ${SECONDS} s at the largest size; node ${process.version}, ${os.cpus().length} CPUs ` +
    `(${os.cpus()[0]?.model ?? 'unknown'}), load average ${loadAverage} at start`,
);

const latencyRows = [];
const loadRows = [];
try {
  if (measuresPglite) {
    const result = await benchDatabase('PGlite');
    latencyRows.push(...result.latencyRows);
    loadRows.push(...result.loadRows);
  }
  const server = await postgresDatabase('chat');
  if (server) {
    try {
      const result = await benchDatabase('PostgreSQL', server.url);
      latencyRows.push(...result.latencyRows);
      loadRows.push(...result.loadRows);
    } finally {
      await sleep(500);
      await server.drop();
    }
  }
} finally {
  await fake.close();
}

console.log('');
printLatency(latencyRows);
console.log('');
if (loadRows.length > 0) printLoad(loadRows);
const noModel = latencyRows.reduce((n, r) => n + r.parley.noModel, 0);
console.log(
  '\nmessage → model request: the visitor sends its frame → the fake model receives the HTTP request (both seen in this process).' +
    '\nfirst token → first frame: the fake writes its first token → the visitor receives the first `data` frame.' +
    '\nbare: a bare `ws` server (own process) that, per message, makes the same streaming request with fetch and relays each chunk: the network path without Parley.' +
    "\nverdict: on Parley's own figure (the loopback hops the bare relay pays too are part of it)." +
    '\nload: each visitor its own conversation, a message, the stored answer, a pause of ~' +
    `${PAUSE_MS} ms, again; first frame = first \`data\` frame after sending. errors: error or warning frames, closed sockets, no answer within ${TIMEOUT_MS / 1000} s.` +
    "\nRSS per conn: the server process RSS after opening the visitors' sockets minus before (full GC both times), per socket; heap+ext the same for V8 heap and external memory." +
    `\nThe visitors, the fake model and the bench run in one process; the machine has ${os.cpus().length} CPUs shared with the servers (and PostgreSQL) and possibly other work: load average ${loadAverage} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end.` +
    (noModel > 0
      ? `\n${noModel} latency messages were answered without the model (no relevant passage) and are not counted.`
      : ''),
);
const missed = latencyRows
  .flatMap((r) => [
    verdict(r.parley.preModel, 'p50', TARGET_PRE_MODEL_P50) === 'MISSED'
      ? `${r.database} ${fmt(r.size)}: message → model request`
      : null,
    verdict(r.parley.firstFrame, 'p95', TARGET_FIRST_FRAME_P95) === 'MISSED'
      ? `${r.database} ${fmt(r.size)}: first token → first frame`
      : null,
  ])
  .filter(Boolean);
console.log(
  missed.length > 0 ? `\nTargets missed: ${missed.join('; ')}` : '\nTargets met at every size and database.',
);
const openingVsFollow = latencyRows
  .map(
    (r) =>
      `${r.database} ${fmt(r.size)}: opening ${ms(r.parley.opening.p50)} ms, follow-up ${ms(r.parley.followUp.p50)} ms`,
  )
  .join('; ');
console.log(
  `Parley message → model request p50 by turn (a new conversation every ${TURNS_PER_CONVERSATION} messages): ${openingVsFollow}`,
);
