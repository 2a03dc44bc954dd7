// bench/inbox: visitors on one Parley node, agents on another (issue 6 item 9).
//   INBOX_BENCH_CONVERSATIONS (100) visitors, each in its own conversation, on node A
//   (/api/chat/stream) send a message about every INBOX_BENCH_INTERVAL_MS (1000, ±20%) for
//   INBOX_BENCH_SECONDS (30); INBOX_BENCH_AGENTS (2) help-desk sockets on node B
//   (/api/chat/helpdesk) must each receive every message exactly once. Measured: the time from the
//   visitor's ws.send to an agent socket receiving the `message` frame for it, p50 / p95 / p99,
//   beside a bare `ws` relay pair in the same topology (relay A for visitors, relay B for agents, in
//   two processes, joined by a `ws` link), and a second bare pair joined by PostgreSQL
//   LISTEN/NOTIFY (the hop Parley's nodes use). Target: Parley's p99 ≤ 2 × the bare `ws` relay's.
//   Parley runs two phases: every conversation held by the agent (the bot silent: pure delivery),
//   and the bot answering each message (embedded answerer, no model) while the agent watches.
//
//   npm run build && node bench/run.mjs inbox
//   INBOX_BENCH_SECONDS=10 INBOX_BENCH_CONVERSATIONS=20 node bench/inbox/run.mjs        # quick
//   INBOX_BENCH_TRACE=1 BENCH_CPU_PROF_DIR=/tmp/prof node bench/inbox/run.mjs           # where the time goes
//
// Visitors and agents live in this process, so both ends of every interval are read on one clock
// (performance.now()); every server runs in its own process (worker.mjs). PostgreSQL is required
// (two nodes cannot share PGlite): a fresh database, dropped afterwards. See bench/inbox/README.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresDatabase } from '../shared/postgres.mjs';
import { fmt, ms, printTable, summary, trio } from '../shared/report.mjs';
import { builtServer, startServerChild } from '../shared/server-child.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { WebSocket } = await builtServer([
  'app.js',
  'config.js',
  'core/db/database.js',
  'modules/helpdesk/helpdesk.socket.js',
]);

const env = (name, fallback) => process.env[name] ?? fallback;
const SECONDS = Number(env('INBOX_BENCH_SECONDS', 30));
const CONVERSATIONS = Number(env('INBOX_BENCH_CONVERSATIONS', 100));
const AGENTS = Math.max(1, Number(env('INBOX_BENCH_AGENTS', 2)));
const INTERVAL_MS = Number(env('INBOX_BENCH_INTERVAL_MS', 1000));
const ROUNDS = Math.max(1, Number(env('INBOX_BENCH_ROUNDS', 2)));
const DRAIN_MS = Number(env('INBOX_BENCH_DRAIN_MS', 10_000));
const PHASES = env('INBOX_BENCH_PHASES', 'silent,bot')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
const BASELINES = env('INBOX_BENCH_BASELINES', 'ws,notify,stored')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const ROLE_A = env('INBOX_BENCH_ROLE_A', 'all');
const TRACE = Boolean(process.env.INBOX_BENCH_TRACE);
const TARGET_RATIO = 2;

const now = () => performance.now();
const wallOf = (t) => performance.timeOrigin + t;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// ---------------------------------------------------------------- child processes

/** Forks worker.mjs in a role; resolves once it listens. `ask(message, key)` awaits the answer. */
function startServer(label, extraEnv) {
  return startServerChild({ dir: here, bench: 'inbox', label, env: extraEnv });
}

function parleyEnv(dataDir, databaseUrl, appSecret, processRole) {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL']) delete base[key];
  return {
    ...base,
    BENCH_INBOX_ROLE: 'parley',
    BENCH_INBOX_PROCESS_ROLE: processRole,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The same secret on both nodes: a token issued by one is accepted by the other.
    APP_SECRET: appSecret,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    // No console to serve: an empty directory.
    WEB_DIST_DIR: dataDir,
    // Limits that would otherwise refuse the bench's own traffic.
    VISITOR_MESSAGES_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
    AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
    MONTHLY_MESSAGE_LIMIT: '1000000000',
    PLAN_LIMITS: 'off',
  };
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

/** The owner (who is also the agent) and a public bot without a model (the embedded answerer). */
async function setUpOwner(port) {
  const signup = await call(port, 'POST', '/api/auth/signup', {
    body: {
      first_name: 'Bench',
      last_name: 'Inbox',
      email: `bench-inbox-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench-password-123',
      company_name: 'Bench inbox',
    },
  });
  const form = new FormData();
  form.append('bot_name', 'Bench inbox bot');
  form.append('is_public', 'true');
  const bot = await call(port, 'POST', '/api/chat/bots', { token: signup.access_token, form });
  return { token: signup.access_token, tenantId: signup.user.tenant_id, userId: signup.user.id, bot };
}

// ---------------------------------------------------------------- sockets

/** Every message sent, by its (unique) text: which target, when, and each agent's receipts. */
const sent = new Map();
/** Agent receipts of Parley messages by message id (INBOX_BENCH_TRACE: joined with the nodes' hops). */
const receivedById = new Map();
const unknownFrames = { count: 0 };

function openSocket(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `frame` and resolves with the first frame that `match` accepts (or rejects after 30 s). */
function exchange(socket, frame, match, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onFrame);
      reject(new Error(`no answer to ${what} within 30 s`));
    }, 30_000);
    const onFrame = (raw) => {
      const parsed = JSON.parse(raw.toString());
      if (!match(parsed)) return;
      clearTimeout(timer);
      socket.off('message', onFrame);
      resolve(parsed);
    };
    socket.on('message', onFrame);
    if (frame) socket.send(JSON.stringify(frame));
  });
}

const opening = (messageType, ids = {}) => ({
  content: {
    bot_id: 0,
    conversation_id: 0,
    message: 'connection',
    message_type: messageType,
    user_id: ids.userId ?? null,
    tenant_id: ids.tenantId ?? null,
  },
  elements: [],
});

/** An agent's socket: every `message` frame of a visitor's message is matched to its sending. */
async function openAgent(target, url, index) {
  const socket = await openSocket(url);
  const agent = { socket, index, errors: 0, closed: false };
  await exchange(
    socket,
    opening('helpdesk', { userId: target.userId, tenantId: target.tenantId }),
    (f) => f.type === 'connected' || f.error,
    'the agent opening frame',
  ).then((f) => {
    if (f.error) throw new Error(`agent socket refused: ${f.error}`);
  });
  socket.on('message', (raw) => {
    const at = now();
    const frame = JSON.parse(raw.toString());
    if (frame.error) agent.errors += 1;
    if (frame.type !== 'message' || frame.final_result_object?.message_type !== 'user') return;
    const record = sent.get(frame.final_result_object.message);
    if (!record || record.target !== target.name) {
      if (record === undefined && !String(frame.final_result_object.message).startsWith('opening '))
        unknownFrames.count += 1;
      return;
    }
    const count = (record.receipts[index] ?? 0) + 1;
    record.receipts[index] = count;
    if (count === 1) {
      record.latencies.push(at - record.sentAt);
      const id = frame.final_result_object.id;
      if (TRACE && !record.warmUp && id !== undefined && !receivedById.has(id))
        receivedById.set(id, { sentAt: record.sentAt, receivedAt: at, phase: record.phase });
    }
  });
  socket.on('close', () => {
    agent.closed = true;
  });
  return agent;
}

/** A visitor's socket with its conversation; `send(text)` records the moment of ws.send. */
async function openVisitor(target, url, botId) {
  const socket = await openSocket(url);
  const visitor = { socket, conversationId: 0, errors: {}, closed: false };
  await exchange(socket, opening('user'), (f) => f.type === 'connected', 'the visitor opening frame');
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString());
    const kind = frame.error ? 'error frame' : frame.type === 'warning' ? 'warning frame' : null;
    if (kind) visitor.errors[kind] = (visitor.errors[kind] ?? 0) + 1;
  });
  socket.on('close', () => {
    visitor.closed = true;
  });
  visitor.frame = (text) => ({
    content: {
      bot_id: botId,
      conversation_id: visitor.conversationId,
      message: text,
      message_type: 'user',
      user_id: null,
      tenant_id: null,
    },
    elements: [],
  });
  visitor.send = (text, phase, warmUp = false) => {
    const record = { target: target.name, phase, warmUp, sentAt: 0, receipts: [], latencies: [] };
    sent.set(text, record);
    const frame = JSON.stringify(visitor.frame(text));
    record.sentAt = now();
    socket.send(frame);
    return record;
  };
  return visitor;
}

/**
 * Parley's visitors for one phase: a visitor identity each, the socket, and a first message that
 * starts the conversation (the bot answers it); for the silent phase the agent then takes every
 * conversation over, on node B, so the bot says nothing more there.
 */
async function parleyVisitors(parley, phase) {
  const visitors = [];
  for (let i = 0; i < CONVERSATIONS; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, CONVERSATIONS - i) }, async (_, j) => {
        const identity = await call(parley.portA, 'POST', '/api/chat/visitor', {
          body: { bot_uuid: parley.botUuid },
        });
        const visitor = await openVisitor(
          parley,
          `ws://127.0.0.1:${parley.portA}/api/chat/stream?visitor_token=${identity.visitor_token}`,
          parley.botId,
        );
        const answered = await exchange(
          visitor.socket,
          visitor.frame(`opening ${phase} ${i + j}`),
          (f) => f.final_result_object?.message_type === 'bot' && f.final_result_object.seq > 1,
          'the opening message',
        );
        visitor.conversationId = answered.conversation_id;
        return visitor;
      }),
    );
    visitors.push(...batch);
  }
  if (phase === 'silent') {
    for (let i = 0; i < visitors.length; i += 20) {
      await Promise.all(
        visitors.slice(i, i + 20).map((v) =>
          call(parley.portB, 'PATCH', `/api/chat/conversations/${v.conversationId}/helpdesk-control`, {
            token: parley.token,
            body: { tenant_id: parley.tenantId, is_helpdesk_in_control: true },
          }),
        ),
      );
    }
  }
  return visitors;
}

// ---------------------------------------------------------------- statistics

// ---------------------------------------------------------------- one block of load

/**
 * One scenario's visitors send for `seconds`: each starts at a random point of the first interval,
 * then sends every INTERVAL_MS ±20%. Then waits (at most DRAIN_MS) for every agent to have every
 * message. Adds the block's records and its servers' CPU time to the scenario.
 */
async function block(scenario, seconds, round) {
  const cpuBefore = await Promise.all(scenario.servers.map((s) => s.ask('cpu', 'cpu')));
  const records = [];
  const started = now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    scenario.visitors.map(async (visitor, v) => {
      await sleep(Math.random() * INTERVAL_MS);
      let n = 0;
      while (now() < deadline && !visitor.closed) {
        const text = `inbox-bench ${scenario.name} r${round} v${v} #${n++}`;
        records.push(visitor.send(text, scenario.phase, round === 'w'));
        await sleep(INTERVAL_MS * (0.8 + 0.4 * Math.random()));
      }
    }),
  );
  const drainDeadline = now() + DRAIN_MS;
  const agents = scenario.agents.length;
  const complete = () => records.every((r) => r.latencies.length === agents);
  while (!complete() && now() < drainDeadline) await sleep(50);
  await sleep(200); // late duplicates
  const cpuAfter = await Promise.all(scenario.servers.map((s) => s.ask('cpu', 'cpu')));
  scenario.cpuUs += cpuAfter.reduce(
    (sum, c, i) => sum + c.user + c.system - cpuBefore[i].user - cpuBefore[i].system,
    0,
  );
  scenario.records.push(...records);
  scenario.seconds += (now() - started) / 1000;
}

function resultOf(scenario) {
  const agents = scenario.agents.length;
  let missing = 0;
  let duplicates = 0;
  const latencies = [];
  for (const record of scenario.records) {
    for (let a = 0; a < agents; a++) {
      const count = record.receipts[a] ?? 0;
      if (count === 0) missing += 1;
      if (count > 1) duplicates += count - 1;
    }
    latencies.push(...record.latencies);
  }
  const errors = {};
  for (const visitor of scenario.visitors) {
    for (const [kind, n] of Object.entries(visitor.errors)) errors[kind] = (errors[kind] ?? 0) + n;
    if (visitor.closed) errors['visitor socket closed'] = (errors['visitor socket closed'] ?? 0) + 1;
  }
  for (const agent of scenario.agents) {
    if (agent.errors) errors['agent error frame'] = (errors['agent error frame'] ?? 0) + agent.errors;
    if (agent.closed) errors['agent socket closed'] = (errors['agent socket closed'] ?? 0) + 1;
  }
  return {
    name: scenario.name,
    link: scenario.link,
    messages: scenario.records.length,
    rate: scenario.records.length / scenario.seconds,
    deliveries: latencies.length,
    latency: summary(latencies),
    missing,
    duplicates,
    errors,
    errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
    cpuMsPerMessage: scenario.records.length ? scenario.cpuUs / 1000 / scenario.records.length : Number.NaN,
  };
}

// ---------------------------------------------------------------- INBOX_BENCH_TRACE

/** Per Parley message, its hops: joined by message id from the agents' receipts and both nodes. */
async function hops(parley) {
  const [a, b] = await Promise.all([
    parley.nodeA.ask({ hops: true }, 'hops'),
    parley.nodeB.ask({ hops: true }, 'hops'),
  ]);
  const atA = new Map(a.map((h) => [h.id, h]));
  const atB = new Map(b.map((h) => [h.id, h]));
  const legs = {};
  for (const [id, r] of receivedById) {
    const ha = atA.get(id);
    const hb = atB.get(id);
    if (!ha?.notify || !hb?.notified || !hb.sent) continue;
    const sentAt = wallOf(r.sentAt);
    const receivedAt = wallOf(r.receivedAt);
    legs[r.phase] ??= { toNotify: [], notifyCall: [], toB: [], inB: [], toAgent: [], total: [] };
    const l = legs[r.phase];
    l.toNotify.push(ha.notify - sentAt);
    l.notifyCall.push(ha.notified_back - ha.notify);
    l.toB.push(hb.notified - ha.notify);
    l.inB.push(hb.sent - hb.notified);
    l.toAgent.push(receivedAt - hb.sent);
    l.total.push(receivedAt - sentAt);
  }
  receivedById.clear();
  return legs;
}

/** One message at a time with every statement and frame of both nodes on a timeline. */
async function timeline(parley, visitor) {
  let last = null;
  for (let i = 0; i < 5; i++) {
    await Promise.all([
      parley.nodeA.ask({ trace: true }, 'trace'),
      parley.nodeB.ask({ trace: true }, 'trace'),
    ]);
    const record = visitor.send(`inbox-bench trace #${i}`, 'trace');
    const until = now() + 5000;
    while (record.latencies.length < parley.agentCount && now() < until) await sleep(5);
    await sleep(50);
    const [a, b] = await Promise.all([
      parley.nodeA.ask({ trace: false }, 'trace'),
      parley.nodeB.ask({ trace: false }, 'trace'),
    ]);
    last = { record, a, b };
  }
  const { record, a, b } = last;
  const sentAt = wallOf(record.sentAt);
  console.log(
    `\nParley (bot silent), one message alone: agent receives it at +${ms(record.latencies[0])} ms; every statement and frame of both nodes:`,
  );
  const rows = [...a.map((q) => ({ ...q, node: 'A' })), ...b.map((q) => ({ ...q, node: 'B' }))].sort(
    (x, y) => x.at - y.at,
  );
  for (const q of rows) {
    console.log(
      `  ${q.node} +${(q.at - sentAt).toFixed(2).padStart(7)} ms ${q.ms.toFixed(2).padStart(6)} ms  ${q.sql}`,
    );
  }
}

// ---------------------------------------------------------------- report

// ---------------------------------------------------------------- the run

const startLoad = loadAverage();
console.log(
  `Inbox delivery: visitors on node A → agents on node B; ${CONVERSATIONS} conversations per scenario, a message each every ~${INTERVAL_MS} ms (±20%), ` +
    `${SECONDS} s per scenario in ${ROUNDS} alternating rounds, ${AGENTS} agent sockets; Parley node A role ${ROLE_A}, node B role api, on PostgreSQL; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${startLoad} at start` +
    (TRACE ? '; INBOX_BENCH_TRACE on (statements and frames timed in the nodes)' : '') +
    (process.env.BENCH_CPU_PROF_DIR ? `; CPU profiles to ${process.env.BENCH_CPU_PROF_DIR}` : ''),
);

const database = await postgresDatabase('inbox');
if (!database) {
  console.log('bench/inbox needs a PostgreSQL server (two nodes cannot share PGlite): skipped.');
  process.exit(0);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-inbox-'));
const servers = [];
const sockets = [];
const results = [];
let traceLegs = null;
try {
  const appSecret = randomBytes(48).toString('base64url');
  // Node A first: it applies the migrations; B then finds them done.
  const nodeA = await startServer('parley-a', parleyEnv(dataDir, database.url, appSecret, ROLE_A));
  servers.push(nodeA);
  const nodeB = await startServer('parley-b', parleyEnv(dataDir, database.url, appSecret, 'api'));
  servers.push(nodeB);
  const owner = await setUpOwner(nodeA.port);
  const parley = {
    name: 'parley',
    nodeA,
    nodeB,
    portA: nodeA.port,
    portB: nodeB.port,
    token: owner.token,
    tenantId: owner.tenantId,
    userId: owner.userId,
    botId: owner.bot.bot_id,
    botUuid: owner.bot.uuid,
    agentCount: AGENTS,
  };
  const scenarios = [];
  for (const link of BASELINES) {
    if (!['ws', 'notify', 'stored'].includes(link))
      throw new Error(`INBOX_BENCH_BASELINES: ws, notify or stored, not ${link}`);
    const relayB = await startServer(`relay-agents-${link}`, {
      BENCH_INBOX_ROLE: 'relay-agents',
      BENCH_INBOX_LINK: link,
      BENCH_INBOX_DB_URL: database.url,
    });
    servers.push(relayB);
    const relayA = await startServer(`relay-visitors-${link}`, {
      BENCH_INBOX_ROLE: 'relay-visitors',
      BENCH_INBOX_LINK: link,
      BENCH_INBOX_DB_URL: database.url,
      BENCH_INBOX_RELAY_URL: `ws://127.0.0.1:${relayB.port}`,
    });
    servers.push(relayA);
    const target = { name: `bare ${link}` };
    const agents = [];
    for (let a = 0; a < AGENTS; a++)
      agents.push(await openAgent(target, `ws://127.0.0.1:${relayB.port}/api/chat/helpdesk`, a));
    const visitors = [];
    for (let v = 0; v < CONVERSATIONS; v++)
      visitors.push(await openVisitor(target, `ws://127.0.0.1:${relayA.port}/api/chat/stream`, 1));
    scenarios.push({
      name: target.name,
      link: { ws: 'ws link A→B', notify: 'NOTIFY A→B', stored: 'INSERT+NOTIFY A→B' }[link],
      phase: 'bare',
      servers: [relayA, relayB],
      agents,
      visitors,
      records: [],
      cpuUs: 0,
      seconds: 0,
    });
  }
  const parleyAgents = [];
  for (let a = 0; a < AGENTS; a++) {
    parleyAgents.push(
      await openAgent(
        parley,
        `ws://127.0.0.1:${nodeB.port}/api/chat/helpdesk?token=${owner.token}&tenant_id=${owner.tenantId}&user_id=${owner.userId}`,
        a,
      ),
    );
  }
  for (const phase of PHASES) {
    if (phase !== 'silent' && phase !== 'bot')
      throw new Error(`INBOX_BENCH_PHASES: silent or bot, not ${phase}`);
    const visitors = await parleyVisitors(parley, phase);
    scenarios.push({
      name: phase === 'silent' ? 'parley, bot silent' : 'parley, bot answering',
      link: 'NOTIFY A→B',
      phase,
      servers: [nodeA, nodeB],
      agents: parleyAgents,
      visitors,
      records: [],
      cpuUs: 0,
      seconds: 0,
    });
  }
  for (const s of scenarios)
    sockets.push(...s.agents.map((a) => a.socket), ...s.visitors.map((v) => v.socket));
  console.log(
    `set up: ${scenarios.map((s) => s.name).join(', ')}; ${PHASES.length * CONVERSATIONS} Parley conversations; load average ${loadAverage()}`,
  );

  // A short warm-up of each, then alternating rounds (forward, backward, ...).
  for (const scenario of scenarios) {
    await block({ ...scenario, records: [], cpuUs: 0, seconds: 0 }, Math.min(3, SECONDS / ROUNDS), 'w');
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) {
      await block(scenario, SECONDS / ROUNDS, round);
      console.log(
        `round ${round + 1}/${ROUNDS}: ${scenario.name} done (${scenario.records.length} messages so far), load average ${loadAverage()}`,
      );
    }
  }
  if (TRACE && PHASES.length > 0) {
    traceLegs = await hops(parley);
    const silent = scenarios.find((s) => s.phase === 'silent') ?? scenarios.find((s) => s.phase === 'bot');
    await timeline(parley, silent.visitors[0]);
  }
  results.push(...scenarios.map(resultOf));
} finally {
  for (const socket of sockets) socket.terminate();
  for (const server of servers.reverse()) await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await sleep(300);
  await database.drop();
}

console.log('');
const bareWs = results.find((r) => r.name === 'bare ws');
const bareStored = results.find((r) => r.name === 'bare stored');
printTable(
  [
    'server',
    'A→B hop',
    'messages (/s)',
    'deliveries',
    'p50 / p95 / p99 ms',
    'max ms',
    'missing',
    'duplicates',
    'errors',
    'CPU ms/msg (A+B)',
  ],
  results.map((r) => [
    r.name,
    r.link,
    `${fmt(r.messages)} (${r.rate.toFixed(0)})`,
    fmt(r.deliveries),
    trio(r.latency),
    ms(r.latency.max),
    String(r.missing),
    String(r.duplicates),
    r.errorCount === 0
      ? '0'
      : `${r.errorCount} (${Object.entries(r.errors)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`,
    r.cpuMsPerMessage.toFixed(2),
  ]),
);
if (bareWs) {
  console.log('');
  printTable(
    [
      'Parley phase',
      'p99 Parley',
      'p99 bare ws',
      'ratio',
      'target',
      'verdict',
      'delivered exactly once',
      'p99 bare stored (ratio)',
    ],
    results
      .filter((r) => r.name.startsWith('parley'))
      .map((r) => {
        const ratio = r.latency.p99 / bareWs.latency.p99;
        return [
          r.name,
          `${ms(r.latency.p99)} ms`,
          `${ms(bareWs.latency.p99)} ms`,
          `${ratio.toFixed(1)}×`,
          `p99 ≤ ${TARGET_RATIO}× bare`,
          ratio <= TARGET_RATIO ? 'met' : 'MISSED',
          r.missing === 0 && r.duplicates === 0 && r.errorCount === 0 ? 'yes' : 'NO',
          bareStored
            ? `${ms(bareStored.latency.p99)} ms (${(r.latency.p99 / bareStored.latency.p99).toFixed(1)}×)`
            : '',
        ];
      }),
    1,
  );
}
if (traceLegs) {
  console.log(
    '\nWhere Parley spends the time, per message (p50 / p95 / p99 ms), from the nodes’ own clocks:',
  );
  const names = [
    ['toNotify', 'visitor ws.send → node A sends the storing statement (receive, parse, bot)'],
    ['notifyCall', 'node A: storing statement (checks, insert, NOTIFY, commit) → answered'],
    ['toB', 'node A sends the statement → node B has the notification (PostgreSQL)'],
    ['inB', 'node B: notification → ws.send of the `message` frame'],
    ['toAgent', 'node B ws.send → the agent socket has the frame'],
    ['total', 'total (messages with every hop seen)'],
  ];
  printTable(
    ['leg', ...Object.keys(traceLegs)],
    names.map(([key, label]) => [label, ...Object.values(traceLegs).map((l) => trio(summary(l[key])))]),
    1,
  );
}
console.log(
  '\ndelivery: the visitor calls ws.send on its socket → an agent socket receives the `message` frame carrying that message (matched by its unique text); ' +
    'one sample per message and agent socket; visitors and agents are in this process, so both ends are read on one clock.' +
    `\nmissing: (message, agent socket) pairs never received within ${DRAIN_MS / 1000} s after the block; duplicates: extra copies; ` +
    'errors: error or warning frames, sockets closed.' +
    '\nbare ws: relay A (visitors) parses each frame and sends it over one `ws` link to relay B (agents), which broadcasts one `message` frame to its agent sockets; nothing stored.' +
    "\nbare notify: the same, but relay A sends SELECT pg_notify(...) with the message on a pool and relay B LISTENs: the hop Parley's nodes use, without storing." +
    '\nbare stored: the same, but the NOTIFY goes with an INSERT of the message in one autocommit statement: the least a durably stored message costs, ' +
    'whose delivery waits for the commit’s WAL flush (and PostgreSQL’s commit lock for NOTIFY), as every stored message does.' +
    '\nparley: node A stores each visitor message (numbered) with one statement whose NOTIFY, sent at its commit, carries the row; node B sends the frame (docs/realtime.md);' +
    ' bot silent: every conversation held by the agent; bot answering: the embedded answerer replies to each message as well.' +
    '\nCPU ms/msg: user+system CPU of both server processes of the scenario over its blocks, per visitor message.' +
    `\nEverything shares ${os.cpus().length} CPUs with PostgreSQL and possibly other work: load average ${startLoad} at start, ${loadAverage()} at the end.`,
);
