// bench/chat idle visitors (issue 13 item 16): CHAT_IDLE_VISITORS (10,000) widget visitors, each with
// its own identity, open /api/chat/stream, send the opening frame and wait for `connected`, then sit
// idle. Reported: the time to connect them all (CHAT_IDLE_CONCURRENCY at a time, 200) and the server's
// memory per connection (RSS after minus before, full GC both times, divided by the sockets), Parley
// beside a bare `ws` server (bench/chat/worker.mjs, role bare) connected the same way in the same run.
// Parley runs with SOCKET_LIMIT_PER_ADDRESS raised past the visitors: every socket comes from
// 127.0.0.1, which the default limit (500) would refuse. Each process needs a descriptor per socket:
// the bench checks `ulimit -n` first. PGlite (the sockets at rest do not touch the database).
//
//   npm run build && node bench/chat/idle.mjs
//   CHAT_IDLE_VISITORS=2000 node bench/chat/idle.mjs
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyMigratedPglite } from '../shared/pglite-template.mjs';
import { fmt, printTable } from '../shared/report.mjs';
import { builtServer, startServerChild } from '../shared/server-child.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { WebSocket } = await builtServer(['app.js', 'modules/chat/socket-guard.js']);
const VISITORS = Number(process.env.CHAT_IDLE_VISITORS ?? 10_000);
const CONCURRENCY = Number(process.env.CHAT_IDLE_CONCURRENCY ?? 200);

const descriptors = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
if (descriptors < VISITORS + 500) {
  console.error(
    `ulimit -n is ${descriptors}; ${VISITORS} sockets need about ${VISITORS + 500}: raise it first`,
  );
  process.exit(1);
}

const now = () => performance.now();
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

async function post(port, url, body, token) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** An owner and a public bot; then one signed visitor identity per socket (not timed). */
async function visitorUrls(port) {
  const signup = await post(port, '/api/auth/signup', {
    first_name: 'Bench',
    last_name: 'Idle',
    email: `bench-idle-${randomBytes(4).toString('hex')}@example.com`,
    password: 'bench-password-123',
    company_name: 'Bench idle',
  });
  const form = new FormData();
  form.append('bot_name', 'Idle');
  form.append('is_public', 'true');
  const created = await fetch(`http://127.0.0.1:${port}/api/chat/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${signup.access_token}` },
    body: form,
  });
  const bot = await created.json();
  const urls = [];
  for (let i = 0; i < VISITORS; i += CONCURRENCY) {
    const batch = Math.min(CONCURRENCY, VISITORS - i);
    const identities = await Promise.all(
      Array.from({ length: batch }, () => post(port, '/api/chat/visitor', { bot_uuid: bot.uuid })),
    );
    for (const { visitor_token } of identities) {
      urls.push(`ws://127.0.0.1:${port}/api/chat/stream?visitor_token=${visitor_token}`);
    }
  }
  return urls;
}

/** Opens one socket, sends the opening frame and resolves on `connected`. */
function connect(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () =>
      socket.send(
        JSON.stringify({
          content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
          elements: [],
        }),
      ),
    );
    socket.on('message', (raw) => {
      if (JSON.parse(raw.toString()).type === 'connected') resolve(socket);
    });
    socket.once('close', (code) => reject(new Error(`closed with ${code} before connected`)));
    socket.once('error', reject);
  });
}

/** Connects every url, CONCURRENCY at a time; the memory is read before and after. */
async function measure(label, server, urls) {
  const before = await server.ask('memory', 'memory');
  const sockets = [];
  const started = now();
  for (let i = 0; i < urls.length; i += CONCURRENCY) {
    sockets.push(...(await Promise.all(urls.slice(i, i + CONCURRENCY).map(connect))));
  }
  const connectMs = now() - started;
  const after = await server.ask('memory', 'memory');
  for (const socket of sockets) socket.terminate();
  return {
    label,
    sockets: sockets.length,
    connectMs,
    rssPerConnection: (after.rss - before.rss) / sockets.length,
    heapPerConnection: (after.heapUsed + after.external - before.heapUsed - before.external) / sockets.length,
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-idle-'));
await copyMigratedPglite(path.join(dataDir, 'pgdata'));
const servers = [];
try {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL']) delete base[key];
  const parley = await startServerChild({
    dir: here,
    bench: 'chat-idle',
    label: 'parley',
    env: {
      ...base,
      BENCH_CHAT_ROLE: 'parley',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      APP_SECRET: randomBytes(48).toString('base64url'),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      WEB_DIST_DIR: dataDir,
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      AUTH_SIGNUP_LIMIT_PER_IP: '1000000',
      PLAN_LIMITS: 'off',
      // All the bench's sockets come from one address.
      SOCKET_LIMIT_PER_ADDRESS: String(VISITORS + 100),
    },
  });
  servers.push(parley);
  const bare = await startServerChild({
    dir: here,
    bench: 'chat-idle',
    label: 'bare',
    env: { BENCH_CHAT_ROLE: 'bare', BENCH_CHAT_MODEL_URL: 'http://127.0.0.1:9' },
  });
  servers.push(bare);
  const urls = await visitorUrls(parley.port);
  const bareUrls = urls.map(() => `ws://127.0.0.1:${bare.port}/api/chat/stream`);
  const rows = [await measure('bare ws', bare, bareUrls), await measure('Parley', parley, urls)];
  console.log('');
  printTable(
    ['server', 'idle visitors', 'connect all', 'RSS per conn', 'heap+ext per conn'],
    rows.map((r) => [
      r.label,
      fmt(r.sockets),
      `${(r.connectMs / 1000).toFixed(1)} s`,
      kib(r.rssPerConnection),
      kib(r.heapPerConnection),
    ]),
  );
  console.log(
    `\nconnect all: open, opening frame, \`connected\` received, ${CONCURRENCY} at a time, for ${fmt(VISITORS)} sockets (bare first, then Parley).` +
      '\nRSS per conn: server RSS after minus before (full GC both times) over the sockets; each server in its own process.' +
      `\nMachine: ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end; ulimit -n ${descriptors}.`,
  );
} finally {
  for (const server of servers) await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
