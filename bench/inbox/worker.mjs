// bench/inbox child: one server in its own process.
//   BENCH_INBOX_ROLE=parley         the built Parley server (createParley with BENCH_INBOX_PROCESS_ROLE,
//                                   'all' or 'api'), configured from the environment (DATABASE_URL:
//                                   the bench's PostgreSQL database, shared by both Parley nodes).
//   BENCH_INBOX_ROLE=relay-agents   baseline relay B: a bare `ws` server for the agents' sockets
//                                   (/api/chat/helpdesk); it takes the visitors' messages from relay A
//                                   (over a `ws` link on /link, or PostgreSQL LISTEN with
//                                   BENCH_INBOX_LINK=notify or stored) and broadcasts each as a
//                                   `message` frame.
//   BENCH_INBOX_ROLE=relay-visitors baseline relay A: a bare `ws` server for the visitors' sockets
//                                   (/api/chat/stream); each visitor frame is parsed and forwarded to
//                                   relay B (BENCH_INBOX_RELAY_URL, or NOTIFY on BENCH_INBOX_DB_URL;
//                                   with BENCH_INBOX_LINK=stored the NOTIFY goes with an INSERT in
//                                   one durable transaction: the least a stored message costs).
// Over IPC: { port } once listening; 'cpu' → { cpu }; Parley with INBOX_BENCH_TRACE=1 also answers
// { hops: true } with its per-message timestamps and { trace: true|false } with every statement.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const load = async (name) => (await import(pathToFileURL(serverRequire.resolve(name)).href)).default;

const role = process.env.BENCH_INBOX_ROLE;
/** Wall clock with sub-millisecond resolution, comparable across the bench's processes. */
const wall = () => performance.timeOrigin + performance.now();
const handlers = { cpu: () => ({ cpu: process.cpuUsage() }) };

process.on('message', (message) => {
  const key = typeof message === 'string' ? message : Object.keys(message)[0];
  const handler = handlers[key];
  if (!handler) return;
  Promise.resolve(handler(message[key]))
    .then((answer) => process.send?.(answer))
    .catch((error) => process.send?.({ error: error.stack ?? String(error) }));
});

if (role === 'parley') await parley();
else if (role === 'relay-agents') await relayAgents();
else if (role === 'relay-visitors') await relayVisitors();
else throw new Error(`BENCH_INBOX_ROLE must be parley, relay-agents or relay-visitors, not ${role}`);

async function parley() {
  const { createParley } = await import(dist('app.js'));
  const { loadConfig } = await import(dist('config.js'));
  const { openDatabase } = await import(dist('core/db/database.js'));
  const config = loadConfig();
  if (!config.DATABASE_URL) throw new Error('bench/inbox: the Parley nodes need DATABASE_URL');
  // INBOX_BENCH_TRACE: instruments before the server exists, so every statement and frame is seen.
  const trace = process.env.INBOX_BENCH_TRACE ? await instrument() : null;
  const database = await openDatabase({
    kind: 'postgres',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const processRole = process.env.BENCH_INBOX_PROCESS_ROLE ?? 'all';
  const app = await createParley(config, database, processRole);
  await app.startWorkers();
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  if (trace) {
    // After the event bus: runs right after it, in the same turn as the notification's arrival.
    await database.listen('parley_events', (raw) => {
      const event = JSON.parse(raw);
      if (event.topic !== 'chat.message') return;
      trace.hop(event.payload.messageId, 'notified');
      trace.mark(`notification chat.message ${event.payload.messageId} arrives`);
    });
  }
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.send?.({ port: app.app.server.address().port });
}

/**
 * Per stored message (by id), when this process announced it (`notify` called and answered), when
 * the notification arrived (`notified`) and when its first help-desk `message` frame was handed to a
 * socket (`sent`); while { trace: true } is on, also every statement and frame, on the wall clock.
 */
async function instrument() {
  const pg = await load('pg');
  const ws = await load('ws');
  const hops = new Map();
  let traced = null;
  const hop = (id, key, at = wall()) => {
    const entry = hops.get(id) ?? {};
    hops.set(id, entry);
    entry[key] ??= at;
  };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, callback) {
    const start = wall();
    const text = typeof config === 'string' ? config : (config?.text ?? '?');
    // A message is announced by the statement that stores it: its id comes with the result.
    const announcing = text.includes('pg_notify') && text.includes('INSERT INTO messages');
    const list = traced;
    const done = (result) => {
      const id = announcing ? result?.rows?.[0]?.message?.id : undefined;
      if (id !== undefined) {
        hop(Number(id), 'notify', start);
        hop(Number(id), 'notified_back');
      }
      list?.push({ at: start, ms: wall() - start, sql: text.replace(/\s+/g, ' ').slice(0, 110) });
    };
    const last = typeof callback === 'function' ? callback : typeof values === 'function' ? values : null;
    if (last) {
      const wrapped = (error, result) => {
        done(result);
        return last(error, result);
      };
      return typeof callback === 'function'
        ? query.call(this, config, values, wrapped)
        : query.call(this, config, wrapped);
    }
    const result = query.call(this, config, values, callback);
    if (result && typeof result.then === 'function') result.then(done, () => done());
    return result;
  };
  const send = ws.prototype.send;
  ws.prototype.send = function (data, ...rest) {
    const at = wall();
    const text = String(data);
    if (text.startsWith('{"type":"message"')) {
      const id = JSON.parse(text).final_result_object?.id;
      if (id !== undefined) hop(id, 'sent', at);
    }
    traced?.push({ at, ms: 0, sql: `ws.send ${text.slice(0, 90)}` });
    return send.call(this, data, ...rest);
  };
  handlers.hops = () => {
    const list = [...hops].map(([id, entry]) => ({ id, ...entry }));
    hops.clear();
    return { hops: list };
  };
  handlers.trace = (on) => {
    if (on) {
      traced = [];
      return { trace: [] };
    }
    const list = traced ?? [];
    traced = null;
    return { trace: list };
  };
  const mark = (text) => traced?.push({ at: wall(), ms: 0, sql: text });
  return { hop, mark };
}

/** Baseline relay B: the agents' sockets, fed by relay A over a `ws` link or PostgreSQL LISTEN. */
async function relayAgents() {
  const { WebSocketServer } = await load('ws');
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const agents = new Set();
  // One frame per message, serialized once and sent to every agent socket (as Parley's hub does).
  const broadcast = (raw) => {
    const m = JSON.parse(raw);
    const frame = JSON.stringify({
      type: 'message',
      conversation_id: m.conversation_id,
      bot_id: m.bot_id,
      final_result_object: {
        conversation_id: m.conversation_id,
        message_type: 'user',
        message: m.message,
        seq: m.seq,
      },
    });
    for (const agent of agents) if (agent.readyState === agent.OPEN) agent.send(frame);
  };
  wss.on('connection', (socket, request) => {
    if (request.url.startsWith('/link')) {
      socket.on('message', (raw) => broadcast(raw.toString()));
      return;
    }
    if (!request.url.startsWith('/api/chat/helpdesk')) return socket.close(4404, 'not found');
    agents.add(socket);
    socket.on('close', () => agents.delete(socket));
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (frame.content?.conversation_id === 0) socket.send('{"type":"connected","message":"Connected"}');
    });
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  let listener = null;
  if (process.env.BENCH_INBOX_LINK !== 'ws') {
    const pg = await load('pg');
    listener = new pg.Client({ connectionString: process.env.BENCH_INBOX_DB_URL });
    await listener.connect();
    listener.on('notification', (msg) => broadcast(msg.payload ?? '{}'));
    await listener.query('LISTEN bench_inbox_relay');
  }
  const stop = async () => {
    for (const client of wss.clients) client.terminate();
    await listener?.end().catch(() => {});
    wss.close(() => process.exit(0));
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.send?.({ port: wss.address().port });
}

/** Baseline relay A: the visitors' sockets; each message goes on to relay B, nothing is stored. */
async function relayVisitors() {
  const ws = await load('ws');
  let forward;
  let link = null;
  let pool = null;
  if (process.env.BENCH_INBOX_LINK !== 'ws') {
    const pg = await load('pg');
    pool = new pg.Pool({ connectionString: process.env.BENCH_INBOX_DB_URL, max: 10 });
    // stored: the message is inserted and announced in one autocommit statement, so its NOTIFY
    // leaves at the commit's WAL flush, as Parley's does; notify stores nothing and flushes nothing.
    const statement =
      process.env.BENCH_INBOX_LINK === 'stored'
        ? 'WITH m AS (INSERT INTO bench_inbox_relay (body) VALUES ($2) RETURNING id) SELECT pg_notify($1, $2) FROM m'
        : 'SELECT pg_notify($1, $2)';
    if (process.env.BENCH_INBOX_LINK === 'stored') {
      await pool.query(
        'CREATE TABLE IF NOT EXISTS bench_inbox_relay (id bigserial PRIMARY KEY, body text NOT NULL)',
      );
    }
    forward = (text) => {
      pool.query(statement, ['bench_inbox_relay', text]).catch((error) => {
        console.error(`relay-visitors: NOTIFY failed: ${error.message}`);
      });
    };
  } else {
    link = new ws(`${process.env.BENCH_INBOX_RELAY_URL}/link`, { perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      link.once('open', resolve);
      link.once('error', reject);
    });
    forward = (text) => link.send(text);
  }
  // Listening only once the link to relay B is up.
  const wss = new ws.WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/chat/stream' });
  const listening = new Promise((resolve) => wss.once('listening', resolve));
  let conversations = 0;
  wss.on('connection', (socket) => {
    let conversationId = 0;
    let seq = 1;
    socket.on('message', (raw) => {
      const { content } = JSON.parse(raw.toString());
      if (!content) return;
      if (content.bot_id === 0) return socket.send('{"type":"connected","message":"Connected"}');
      if (conversationId === 0) conversationId = ++conversations;
      seq += 1;
      forward(
        JSON.stringify({
          conversation_id: conversationId,
          bot_id: content.bot_id,
          message: content.message,
          seq,
        }),
      );
    });
  });
  await listening;
  const stop = async () => {
    for (const client of wss.clients) client.terminate();
    link?.terminate();
    await pool?.end().catch(() => {});
    wss.close(() => process.exit(0));
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.send?.({ port: wss.address().port });
}
