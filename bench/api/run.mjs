// bench/api: requests per second of two routes beside bare Fastify, measured in the same run, on
// embedded PGlite and, when reachable, on a PostgreSQL server.
// - GET /api/auth/user (access-token check, then the user with roles and abilities) beside a bare
//   route answering the same JSON; target: Parley at least 0.6 of bare's requests per second;
// - the console's lists (LISTS below: a workspace's bots, a user's conversations with a bot, the
//   inbox, a store's products, a WhatsApp number's contacts), each beside its floor: a bare route
//   answering the same JSON from one hand-written statement over the same data (bare-list-server.mjs).
//   Targets (issue 36): CPU per request at most 1.5× the floor's, and the bots list at most 2 ms on
//   PostgreSQL.
//
//   npm run build && node bench/api/run.mjs
//
// Each server runs in its own process, so autocannon (here) does not share its event loop.
// Environment:
//   BENCH_DATABASE_URL   PostgreSQL server to use (a fresh database is created on it and dropped);
//                        default postgres://postgres@127.0.0.1:5432/test, skipped if unreachable
//   BENCH_DURATION       seconds per measurement (10), split in BENCH_ROUNDS alternating rounds (2)
//   BENCH_WARMUP         seconds of warm-up per server (3); 0 measures cold
//   BENCH_CONNECTIONS    concurrent connections (50)
//   BENCH_DATABASES      which to measure: pglite,postgres (both)
//   BENCH_UNCACHED       0 skips the extra row with the session cache off (measured by default)
//   BENCH_LIST_BOTS      bots in the listed workspace (50)
//   BENCH_LIST_ROWS      conversations, products and contacts seeded for the other lists (200)
//   BENCH_LISTS          only the lists whose route holds one of these comma-separated words (all)
//   BENCH_CPU_PROF_DIR   write a V8 CPU profile of each Parley server process and of the lists' floor there
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { copyMigratedPglite } from '../shared/pglite-template.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';
import { seedLists } from './seed-lists.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const serverDist = path.join(root, 'apps/server/dist');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const UNCACHED = process.env.BENCH_UNCACHED !== '0';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
const LIST_BOTS = Number(process.env.BENCH_LIST_BOTS ?? 50);
const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 200);
const TARGET = 0.6;
const LIST_CPU_RATIO = 1.5;
const LIST_PG_CPU_US = 2000;
const PATH = '/api/auth/user';

/**
 * The lists measured beside their floors, each asked as the console first asks it (no query: its
 * first page). `path` from the seeded ids; `rows` counts what an answer lists; `expected`, when set,
 * is how many it must list. bare-list-server.mjs serves the same paths.
 */
const LISTS = [
  {
    route: 'GET /api/chat/bots/user/:id',
    path: (s) => `/api/chat/bots/user/${s.userId}`,
    rows: (body) => body.length,
    expected: LIST_BOTS,
    pgCpuUs: LIST_PG_CPU_US,
  },
  {
    route: 'GET /api/chat/chats/user/:id/bot/:id',
    path: (s) => `/api/chat/chats/user/${s.userId}/bot/${s.botId}`,
    rows: (body) => body.length,
  },
  {
    route: 'GET /api/chat/helpdesk/inbox/:tenantId',
    path: (s) => `/api/chat/helpdesk/inbox/${s.tenantId}`,
    rows: (body) => body.conversations.length,
  },
  {
    route: 'GET /api/shopify/products',
    path: (s) => `/api/shopify/products?store_id=${s.storeId}`,
    rows: (body) => body.items.length,
  },
  {
    route: 'GET /api/social/whatsapp/contacts',
    path: (s) => `/api/social/whatsapp/contacts?account_id=${s.accountId}`,
    rows: (body) => body.contacts.length,
  },
];

const LIST_WORDS = (process.env.BENCH_LISTS ?? '')
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);
/** A list this run measures (BENCH_LISTS), to profile one list alone. */
const chosen = (list) => LIST_WORDS.length === 0 || LIST_WORDS.some((word) => list.route.includes(word));

for (const file of ['app.js', 'config.js', 'core/db/database.js', 'modules/auth/sessions.js']) {
  if (!existsSync(path.join(serverDist, file))) {
    console.error(`apps/server/dist/${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

const { default: autocannon } = await import('autocannon');

/** Forks a server script and resolves with its port once it reports it. */
function startChild(script, env, execArgv = []) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, script), [], {
      env,
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within 120 s`));
    }, 120_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve({ child, port: message.port, stop: () => stopChild(child) });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready (${signal ?? `code ${code}`})`));
    });
  });
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system, microseconds) the server process has used so far, asked over IPC. */
function cpuOf(server) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.cpu) {
        server.child.off('message', onMessage);
        resolve(message.cpu.user + message.cpu.system);
      }
    };
    server.child.on('message', onMessage);
    server.child.send('cpu');
  });
}

/**
 * Requests per second, latency, and the server's CPU time per request (which, unlike rps, hardly
 * depends on what else the machine is doing) of GET PATH. Any non-2xx answer or error fails the run.
 */
async function measure(server, token, seconds, route) {
  const cpuBefore = await cpuOf(server);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${route}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  const cpu = (await cpuOf(server)) - cpuBefore;
  const { non2xx, errors, timeouts } = result;
  if (result.requests.total === 0 || non2xx > 0 || errors > 0 || timeouts > 0) {
    throw new Error(
      `port ${server.port}: ${result.requests.total} requests, ${non2xx} non-2xx, ${errors} errors, ${timeouts} timeouts`,
    );
  }
  return {
    rps: result.requests.total / (result.duration || seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: cpu / result.requests.total,
  };
}

/**
 * Parley and its baseline measured in alternating rounds (bare, parley, bare, parley...), so a
 * change of machine load during the run weighs on both alike. rps: over all rounds; p50: the mean
 * of the rounds'; p99: the worst round's.
 */
async function compare(parley, bare, token, route = PATH) {
  if (WARMUP > 0) {
    await measure(bare, token, WARMUP, route);
    await measure(parley, token, WARMUP, route);
  }
  const rounds = { parley: [], bare: [] };
  for (let i = 0; i < ROUNDS; i++) {
    rounds.bare.push(await measure(bare, token, DURATION / ROUNDS, route));
    rounds.parley.push(await measure(parley, token, DURATION / ROUNDS, route));
  }
  const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
  const combine = (list) => ({
    rps: mean(list, 'rps'),
    p50: Math.round(mean(list, 'p50')),
    p99: Math.max(...list.map((r) => r.p99)),
    cpuUs: mean(list, 'cpuUs'),
  });
  return { parley: combine(rounds.parley), bare: combine(rounds.bare) };
}

async function call(port, method, url, { body, form, token } = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : form,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return text;
}

/** Environment of a Parley server process: npm start's defaults, quiet logs, its own database. */
function parleyEnv(database, dataDir, secret, extra = {}) {
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL']) delete env[key];
  return {
    ...env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    APP_SECRET: secret,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    // Benchmarks measure Parley, not a plan's allowance (the list bench makes 50 bots).
    PLAN_LIMITS: 'off',
    // The seeded conversations stay as seeded: no sweep hands a waiting one back to the bot or closes
    // an idle one while the lists are measured (the PGlite floor reads a copy made before).
    HANDOFF_WAIT_SECONDS: '31536000',
    CONVERSATION_IDLE_SECONDS: '31536000',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...extra,
  };
}

const profArgs = (name) =>
  CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]
    : [];

/**
 * One database: Parley against bare Fastify, then (optionally) Parley with its session cache off
 * against the same bare server. Parley processes run one at a time: a PGlite data directory admits
 * one process.
 */
async function benchDatabase(label, database) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  if (!database.url) await copyMigratedPglite(path.join(dataDir, 'pgdata'));
  const secret = randomBytes(48).toString('base64url');
  const children = new Set();
  const start = async (...args) => {
    const started = await startChild(...args);
    children.add(started);
    return started;
  };
  const stop = async (started) => {
    // Let requests that autocannon left in flight finish before the server closes its database.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await started.stop();
    children.delete(started);
  };
  try {
    const parley = await start('parley-server.mjs', parleyEnv(database, dataDir, secret), profArgs(label));
    const signup = JSON.parse(
      await call(parley.port, 'POST', '/api/auth/signup', {
        body: {
          first_name: 'Bench',
          last_name: 'Mark',
          email: `bench-${randomBytes(4).toString('hex')}@example.com`,
          password: 'bench-password-123',
          company_name: 'Bench',
        },
      }),
    );
    const token = signup.access_token;
    const body = await call(parley.port, 'GET', PATH, { token });
    const user = JSON.parse(body);
    await seedBots(parley.port, token, user);
    const bots = JSON.parse(await call(parley.port, 'GET', `/api/chat/bots/user/${user.id}`, { token }));

    const bare = await start('bare-server.mjs', { ...process.env, BENCH_BODY: body });
    if ((await call(bare.port, 'GET', PATH)) !== body)
      throw new Error('the bare route does not answer the same JSON');

    const cached = await compare(parley, bare, token);
    await stop(parley);
    const rows = [{ database: label, route: `GET ${PATH}`, primary: true, ...cached }];
    const scope = await seedLists(databaseOptions(database, dataDir), {
      tenantId: user.tenant_id,
      userId: user.id,
      botIds: bots.map((bot) => bot.bot_id),
      rows: LIST_ROWS,
    });
    rows.push(...(await benchLists(label, database, { dataDir, secret, token, scope, start, stop })));

    if (UNCACHED) {
      const env = parleyEnv(database, dataDir, secret, { BENCH_SESSION_CACHE: 'off' });
      const uncached = await start('parley-server.mjs', env, profArgs(`${label}-uncached`));
      rows.push({
        database: `${label}, session cache off`,
        route: `GET ${PATH}`,
        primary: false,
        ...(await compare(uncached, bare, token)),
      });
      await stop(uncached);
    }
    return rows;
  } finally {
    await Promise.all([...children].map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** BENCH_LIST_BOTS bots, each with the creator's roles, made through the API as the bot wizard makes them. */
async function seedBots(port, token, user) {
  for (let i = 0; i < LIST_BOTS; i++) {
    const form = new FormData();
    form.set('bot_name', `Bench bot ${i + 1}`);
    form.set('description', 'Answers questions about the bench workspace, politely and briefly.');
    form.set('prompt', 'You are a helpful assistant for a small shop. Answer from the sources only.');
    form.set('role_ids', JSON.stringify(user.roles.map((role) => role.id)));
    await call(port, 'POST', '/api/chat/bots', { form, token });
  }
}

/** How the bench opens the database itself (to seed it) while no Parley process holds it. */
const databaseOptions = (database, dataDir) =>
  database.url
    ? { kind: 'postgres', url: database.url, poolSize: 2 }
    : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };

/**
 * Every list of LISTS: one Parley server (session cache on) and one floor server, on the same data.
 * A PGlite directory admits one process, so the floor opens a copy made while Parley is stopped.
 */
async function benchLists(label, database, { dataDir, secret, token, scope, start, stop }) {
  let bareEnv = { ...process.env, BENCH_LIST_SCOPE: JSON.stringify(scope) };
  let copy = null;
  if (database.url) bareEnv = { ...bareEnv, BENCH_LIST_DATABASE_URL: database.url };
  else {
    copy = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-list-'));
    cpSync(path.join(dataDir, 'pgdata'), path.join(copy, 'pgdata'), { recursive: true });
    bareEnv = { ...bareEnv, BENCH_LIST_DATA_DIR: path.join(copy, 'pgdata') };
  }
  try {
    const parley = await start(
      'parley-server.mjs',
      parleyEnv(database, dataDir, secret),
      profArgs(`${label}-list`),
    );
    const bare = await start('bare-list-server.mjs', bareEnv, profArgs(`${label}-floor`));
    const rows = [];
    for (const list of LISTS.filter(chosen))
      rows.push(await benchList(label, list, { parley, bare, token, scope }));
    await stop(parley);
    await stop(bare);
    return rows;
  } finally {
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
}

/** One list beside its floor, once both answer the same JSON. */
async function benchList(label, list, { parley, bare, token, scope }) {
  const route = list.path(scope);
  const ours = JSON.parse(await call(parley.port, 'GET', route, { token }));
  const theirs = JSON.parse(await call(bare.port, 'GET', route));
  const rows = list.rows(ours);
  if (rows === 0 || rows !== (list.expected ?? rows))
    throw new Error(`${list.route} listed ${rows} rows, expected ${list.expected ?? 'some'}`);
  const differs = difference(ours, theirs);
  if (differs !== null)
    throw new Error(`the floor of ${list.route} does not answer what Parley does, at ${differs}`);
  return {
    database: label,
    route: `${list.route} (${rows})`,
    primary: true,
    list,
    ...(await compare(parley, bare, token, route)),
  };
}

/** Where two JSON values first differ (a path such as `.items[3].data`), or null when they are equal. */
function difference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return at || '(root)';
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const inner = difference(a[key], b[key], Array.isArray(a) ? `${at}[${key}]` : `${at}.${key}`);
    if (inner !== null)
      return `${inner} (${JSON.stringify(a[key])?.slice(0, 200)} vs ${JSON.stringify(b[key])?.slice(0, 200)})`;
  }
  return at || '(root)';
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => `${n} ms`;

/**
 * The auth row: requests per second against bare's. The list row: CPU per request against the
 * floor's (and, on PostgreSQL, in absolute terms), as its floor does less work than a route.
 */
function missedTarget(row) {
  if (!row.list) return row.parley.rps / row.bare.rps < TARGET;
  const overFloor = row.parley.cpuUs > LIST_CPU_RATIO * row.bare.cpuUs;
  return overFloor || (row.database === 'PostgreSQL' && row.parley.cpuUs > (row.list.pgCpuUs ?? Infinity));
}

function verdict(row) {
  if (!row.primary) return '(for reference)';
  const target = row.list
    ? `CPU ≤ ${LIST_CPU_RATIO}× floor${row.database === 'PostgreSQL' && row.list.pgCpuUs ? `, ≤ ${row.list.pgCpuUs} µs` : ''}`
    : `rps ≥ ${TARGET}× bare`;
  return `${target}: ${missedTarget(row) ? 'MISSED' : 'met'}`;
}

function printTable(rows) {
  const header = [
    'database',
    'route',
    'parley rps',
    'bare rps',
    'ratio',
    'parley p50/p99',
    'bare p50/p99',
    'CPU µs/req parley/bare',
    'target',
  ];
  const lines = rows.map((row) => {
    const { database, route, parley, bare } = row;
    const ratio = parley.rps / bare.rps;
    return [
      database,
      route,
      fmt(parley.rps),
      fmt(bare.rps),
      ratio.toFixed(2),
      `${ms(parley.p50)} / ${ms(parley.p99)}`,
      `${ms(bare.p50)} / ${ms(bare.p99)}`,
      `${Math.round(parley.cpuUs)} / ${Math.round(bare.cpuUs)}`,
      verdict(row),
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

console.log(
  `Parley beside bare Fastify; ${CONNECTIONS} connections, ${WARMUP} s warm-up, ` +
    `${DURATION} s per measurement in ${ROUNDS} alternating rounds; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`,
);

const rows = [];
if (measuresPglite) rows.push(...(await benchDatabase('PGlite', { url: undefined })));
const server = await postgresDatabase('api');
if (server) {
  try {
    rows.push(...(await benchDatabase('PostgreSQL', server)));
  } finally {
    await server.drop();
  }
}
console.log('');
printTable(rows);
console.log(
  '\nparley: the built server as npm start runs it (per-user session cache on, 30 s; API and workers in one process).' +
    (UNCACHED
      ? '\nsession cache off: the same server loading the user and roles from the database on every request.'
      : '') +
    '\nbare, for the lists: their floors, each one hand-written statement building the same JSON (bare-list-server.mjs).' +
    '\nCPU µs/req: CPU time of the server process per request; unlike rps it hardly depends on other load on the machine.',
);
const missed = rows.filter((r) => r.primary && missedTarget(r));
console.log(
  missed.length > 0
    ? `\nTarget missed on: ${missed.map((r) => `${r.database} ${r.route}`).join(', ')}`
    : '\nEvery target met.',
);
