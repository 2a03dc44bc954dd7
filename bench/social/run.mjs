// bench/social: SOCIAL_BENCH_USERS (200) Messenger users write to one page at once, through signed
// webhooks (issue 16). Measured per round: the webhook's acknowledgement (POST sent → 200 read),
// p50 / p99, beside a bare Fastify endpoint that only checks the same signature (bare-webhook.mjs,
// its own process); and message → send request (POST sent → the fake Graph API receives the Send
// API request with the bot's answer to that user), p50 / p99. Then a tenth of the deliveries is
// posted again, as Meta retries: no user may get a second answer. Target: Parley's acknowledgement
// p99 ≤ 2 × the bare endpoint's; no message lost or doubled (exit 1 otherwise).
//
//   npm run build && node bench/run.mjs social
//   SOCIAL_BENCH_USERS=50 SOCIAL_BENCH_ROUNDS=1 node bench/social/run.mjs        # quick
//
// The built server runs on a fresh embedded database (PGlite), as `npm start` does, then on a fresh
// PostgreSQL database when one is reachable (BENCH_DATABASE_URL, else the local server; BENCH_DATABASES
// picks one: pglite or postgres); the bot has no
// sources, so each answer is the "nothing found" text: this measures the channel's pipeline
// (signature, de-duplication, queue, conversation, answer, outbox, Send API), not retrieval.
import { fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltServer } from '../shared/built-server.mjs';
import { call } from '../shared/http.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';
import { ms, printTable, summary } from '../shared/report.mjs';
import { startFakeGraph } from './fake-graph.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const USERS = Number(process.env.SOCIAL_BENCH_USERS ?? 200);
const ROUNDS = Math.max(1, Number(process.env.SOCIAL_BENCH_ROUNDS ?? 2));
const REPLAY_SHARE = Number(process.env.SOCIAL_BENCH_REPLAY ?? 0.1);
const WAIT_MS = Number(process.env.SOCIAL_BENCH_WAIT_S ?? 60) * 1000;
const TARGET_RATIO = 2;
/** Smoke mode (CI) only shows the benchmark still runs: no warm-up round, no target judged. */
const SMOKE = process.env.BENCH_SMOKE === '1';
const APP = { id: '5550001', secret: `bench-${randomBytes(8).toString('hex')}` };
const PAGE = { id: 'bench-page', token: `EAAB${randomBytes(12).toString('hex')}` };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const signature = (raw) => `sha256=${createHmac('sha256', APP.secret).update(raw).digest('hex')}`;

/** One delivery in Meta's shape: a text from `user` to the page. */
function delivery(user, n) {
  const timestamp = Date.now();
  return JSON.stringify({
    object: 'page',
    entry: [
      {
        id: PAGE.id,
        time: timestamp,
        messaging: [
          {
            sender: { id: user },
            recipient: { id: PAGE.id },
            timestamp,
            message: { mid: `m_${randomBytes(12).toString('hex')}`, text: `Hello, question ${n}` },
          },
        ],
      },
    ],
  });
}

/** POSTs a signed delivery; resolves with when it was sent and how long the 200 took. */
async function post(url, raw) {
  const sent = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(raw) },
    body: raw,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { sent, ack: performance.now() - sent };
}

/** An owner, a bot, and the page connected with its token and linked to the bot. */
async function setUp(baseUrl) {
  const signup = await call(baseUrl, 'POST', '/api/auth/signup', {
    body: {
      first_name: 'Bench',
      last_name: 'Social',
      email: `bench-social-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench-password-123',
      company_name: 'Bench social',
    },
  });
  const form = new FormData();
  form.append('bot_name', 'Bench social');
  const bot = await call(baseUrl, 'POST', '/api/chat/bots', { token: signup.access_token, form });
  await call(baseUrl, 'POST', '/api/social/messenger/accounts', {
    token: signup.access_token,
    body: { page_id: PAGE.id, access_token: PAGE.token, bot_id: bot.bot_id },
  });
}

function startBare() {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'bare-webhook.mjs'), [], {
      env: { ...process.env, BENCH_APP_SECRET: APP.secret },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('message', (message) =>
      resolve({ url: `http://127.0.0.1:${message.port}/webhook`, stop: () => child.kill('SIGTERM') }),
    );
  });
}

/** Every user at once against the bare endpoint: acknowledgements only. */
async function bareRound(url, round) {
  const acks = await Promise.all(
    Array.from({ length: USERS }, (_, i) => post(url, delivery(`bare-${round}-${i}`, i)).then((r) => r.ack)),
  );
  return summary(acks);
}

/** Every user at once against Parley: acknowledgements, answers' arrival, then Meta's retries. */
async function parleyRound(url, graph, round) {
  const users = Array.from({ length: USERS }, (_, i) => `user-${round}-${i}`);
  const bodies = users.map((user, i) => delivery(user, i));
  const posted = await Promise.all(bodies.map((raw) => post(url, raw)));
  const deadline = performance.now() + WAIT_MS;
  while (users.some((user) => !graph.answers.has(user)) && performance.now() < deadline) await sleep(20);
  const toAnswer = users.map((user, i) => (graph.answers.get(user)?.[0] ?? Number.NaN) - posted[i].sent);
  // Meta's retries: the same deliveries, byte for byte.
  const replays = bodies.slice(0, Math.ceil(USERS * REPLAY_SHARE));
  await Promise.all(replays.map((raw) => post(url, raw)));
  await settle(url, graph, `sentinel-${round}`);
  const lost = users.filter((user) => !graph.answers.has(user)).length;
  const doubled = users.filter((user) => (graph.answers.get(user)?.length ?? 0) > 1).length;
  return {
    ack: summary(posted.map((r) => r.ack)),
    answer: summary(toAnswer.filter((t) => !Number.isNaN(t))),
    lost,
    doubled,
    replays: replays.length,
  };
}

/**
 * Waits until a replay queued by mistake would have been answered: jobs are claimed oldest first,
 * so once a fresh message posted after the replays is answered, their jobs ran too (give or take
 * the worker's few concurrent slots, hence the margin). A fixed sleep is either slow or too short.
 */
async function settle(url, graph, user) {
  await post(url, delivery(user, 0));
  const deadline = performance.now() + WAIT_MS;
  while (!graph.answers.has(user) && performance.now() < deadline) await sleep(20);
  await sleep(500);
}

/** The rounds on one database: the built server on it, the page connected, both endpoints warmed. */
async function measure(label, graph, bare, env) {
  const server = await startBuiltServer({
    label: 'social',
    env: {
      META_APP_ID: APP.id,
      META_APP_SECRET: APP.secret,
      META_VERIFY_TOKEN: 'bench',
      META_GRAPH_URL: graph.url,
      MONTHLY_MESSAGE_LIMIT: '1000000',
      ...env,
    },
  });
  const lines = [];
  try {
    await setUp(server.baseUrl);
    const webhook = `${server.baseUrl}/api/social/messenger/webhook`;
    // Warm both up (JIT, connections, the first conversations' statements).
    if (!SMOKE) {
      await parleyRound(webhook, graph, `warm-${label}`);
      await bareRound(bare.url, `warm-${label}`);
      graph.reset();
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const baseline = await bareRound(bare.url, `${label}-${round}`);
      const parley = await parleyRound(webhook, graph, `${label}-${round}`);
      const ratio = parley.ack.p99 / baseline.p99;
      lost ||= parley.lost > 0 || parley.doubled > 0;
      lines.push([
        `${label} ${round}`,
        `${ms(baseline.p50)} / ${ms(baseline.p99)}`,
        `${ms(parley.ack.p50)} / ${ms(parley.ack.p99)}`,
        `${ratio.toFixed(2)}×${SMOKE ? '' : ratio <= TARGET_RATIO ? ' met' : ' MISSED'}`,
        `${ms(parley.answer.p50)} / ${ms(parley.answer.p99)}`,
        `${parley.lost} / ${parley.doubled} (${parley.replays} replayed)`,
      ]);
    }
  } finally {
    await server.stop();
  }
  return lines;
}

let lost = false;
const graph = await startFakeGraph({ pageId: PAGE.id, pageToken: PAGE.token });
const bare = await startBare();
const postgres = await postgresDatabase('social');
const lines = [];
try {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\nbench/social: ${USERS} users at once, ${ROUNDS} round(s) per database; ` +
      `node ${process.version}, ${os.cpus().length} CPUs, load ${load}`,
  );
  if (measuresPglite) lines.push(...(await measure('PGlite', graph, bare, {})));
  if (postgres) lines.push(...(await measure('PostgreSQL', graph, bare, { DATABASE_URL: postgres.url })));
  printTable(
    [
      'database, round',
      'bare ack p50 / p99 ms',
      'Parley ack p50 / p99 ms',
      `ack p99 vs bare (target ≤ ${TARGET_RATIO}×)`,
      'message → send p50 / p99 ms',
      'lost / doubled',
    ],
    lines,
    1,
  );
  console.log(`\nanswer texts sent: ${[...graph.texts].map((t) => JSON.stringify(t)).join(', ')}`);
} finally {
  bare.stop();
  await graph.close();
  await postgres?.drop();
}
if (lost) {
  console.error('bench/social: a message was lost or answered twice');
  process.exit(1);
}
