// bench/chat child: one server in its own process, so its memory and CPU are its own.
//   BENCH_CHAT_ROLE=parley  the built Parley server as npm start runs it (API and workers in one
//                           process), configured from the environment; it also loads knowledge in
//                           bulk when asked ({ seed: { tenantId, userId, size } }).
//   BENCH_CHAT_ROLE=bare    the baseline: a bare `ws` server that, for each message, makes the same
//                           streaming request to the model (global fetch, as the AI SDK does) and
//                           relays each chunk as a frame: the same network path without Parley.
// Over IPC: { port } once listening; 'memory' → { memory } (after a full GC); 'cpu' → { cpu }.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const role = process.env.BENCH_CHAT_ROLE;
const handlers = {
  memory,
  // Without a GC, cheap enough to sample during the load test.
  rss: () => ({ rss: process.memoryUsage.rss() }),
  cpu: () => ({ cpu: process.cpuUsage() }),
};

async function memory() {
  // Twice: the first pass frees what finalizers release.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { memory: { rss, heapUsed, external, arrayBuffers } };
}

process.on('message', (message) => {
  const key = typeof message === 'string' ? message : Object.keys(message)[0];
  const handler = handlers[key];
  if (!handler) return;
  Promise.resolve(handler(message[key]))
    .then((answer) => process.send?.(answer))
    .catch((error) => process.send?.({ error: error.stack ?? String(error) }));
});

if (role === 'parley') {
  const { createParley } = await import(dist('app.js'));
  const { loadConfig } = await import(dist('config.js'));
  const { openDatabase } = await import(dist('core/db/database.js'));
  const config = loadConfig();
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pgdata` },
  );
  const parley = await createParley(config, database, 'all');
  parley.startWorkers();
  await parley.app.listen({ port: 0, host: '127.0.0.1' });

  // CHAT_BENCH_TRACE: every statement the server sends while tracing is on, with its start (wall
  // clock, comparable across processes) and duration; { trace: true } starts, { trace: false }
  // stops and answers the list.
  let traced = null;
  /** A statement's trace entry, from its start (performance.now()) until now. */
  const statementEntry = (start, text) => ({
    at: performance.timeOrigin + start,
    ms: performance.now() - start,
    sql: text.replace(/\s+/g, ' ').slice(0, 110),
  });
  // PostgreSQL: pg's Client.query, as the pool and Drizzle call it.
  const traceQuery = (original) =>
    async function (...args) {
      if (!traced) return original.apply(this, args);
      const start = performance.now();
      const list = traced;
      const record = () =>
        list.push(statementEntry(start, typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '?')));
      // pg's Pool hands its client a callback; direct calls use the promise.
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last];
        args[last] = (...results) => {
          record();
          return callback(...results);
        };
        return original.apply(this, args);
      }
      try {
        return await original.apply(this, args);
      } finally {
        record();
      }
    };
  if (process.env.CHAT_BENCH_TRACE) {
    // Frames too: when the server hands each one to its socket (ws.send), with its start.
    const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
    const { default: ws } = await import(pathToFileURL(serverRequire.resolve('ws')).href);
    const send = ws.prototype.send;
    ws.prototype.send = function (data, ...rest) {
      if (traced) {
        const text = String(data);
        traced.push({
          at: performance.timeOrigin + performance.now(),
          ms: 0,
          sql: `ws.send ${text.slice(0, 90)}`,
        });
      }
      return send.call(this, data, ...rest);
    };
    // The model's answer reaching the server: fetch (undici) has its response headers, which the
    // fake sends in one write with the first token.
    const { subscribe } = await import('node:diagnostics_channel');
    subscribe('undici:request:headers', ({ request }) => {
      if (traced && String(request.path).includes('chat/completions')) {
        traced.push({
          at: performance.timeOrigin + performance.now(),
          ms: 0,
          sql: 'fetch: model response headers',
        });
      }
    });
    const client = database.db.$client;
    if (database.kind === 'pglite') {
      traceProtocol(client);
    } else {
      const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
      const { default: pg } = await import(pathToFileURL(serverRequire.resolve('pg')).href);
      pg.Client.prototype.query = traceQuery(pg.Client.prototype.query);
    }
  }
  /**
   * PGlite: every statement as the wire protocol carries it, so named prepared statements (parsed
   * once, then only bound) are traced too: from its Parse or Bind (or simple Query) to its Sync.
   */
  function traceProtocol(client) {
    const decoder = new TextDecoder();
    const cstrings = (bytes, from, count) => {
      const out = [];
      for (let start = from; out.length < count; ) {
        const end = bytes.indexOf(0, start);
        out.push(decoder.decode(bytes.subarray(start, end)));
        start = end + 1;
      }
      return out;
    };
    const statements = new Map();
    let current = null;
    const execProtocolStream = client.execProtocolStream;
    client.execProtocolStream = async function (message, ...rest) {
      const type = String.fromCharCode(message[0]);
      const now = performance.now();
      if (type === 'P') {
        const [name, text] = cstrings(message, 5, 2);
        if (name) statements.set(name, text);
        current ??= { start: now, text };
      } else if (type === 'B') {
        const [, name] = cstrings(message, 5, 2);
        current ??= { start: now, text: statements.get(name) ?? `prepared ${name}` };
      } else if (type === 'Q') current = { start: now, text: cstrings(message, 5, 1)[0] };
      try {
        return await execProtocolStream.call(this, message, ...rest);
      } finally {
        if ((type === 'S' || type === 'Q') && current) {
          traced?.push(statementEntry(current.start, current.text));
          current = null;
        }
      }
    };
  }

  handlers.trace = (on) => {
    if (on) {
      traced = [];
      return { trace: [] };
    }
    const list = traced ?? [];
    traced = null;
    return { trace: list };
  };

  let loader = null;
  handlers.seed = async ({ tenantId, userId, size }) => {
    const { knowledgeLoader } = await import('./seed.mjs');
    loader ??= await knowledgeLoader(database.db, { tenantId, userId });
    const started = performance.now();
    const result = await loader.fill(size);
    return { seeded: { ...result, ms: performance.now() - started } };
  };
  const stop = async () => {
    await parley.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.send?.({ port: parley.app.server.address().port, database: database.kind });
} else if (role === 'bare') {
  const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
  const { default: ws } = await import(pathToFileURL(serverRequire.resolve('ws')).href);
  const { WebSocketServer } = ws;
  const modelUrl = `${process.env.BENCH_CHAT_MODEL_URL}/chat/completions`;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/chat/stream' });
  let conversations = 0;

  wss.on('connection', (socket) => {
    const send = (frame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    socket.on('message', (raw) => {
      void relay(JSON.parse(raw.toString())).catch((error) => send({ error: String(error.message) }));
    });
    async function relay(frame) {
      const { content } = frame;
      // The opening frame only announces the connection, as on Parley (bench/chat/idle.mjs).
      if (content.bot_id === 0) return send({ type: 'connected', message: 'Connected' });
      const conversationId = content.conversation_id || ++conversations;
      const response = await fetch(modelUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({
          model: 'bench',
          stream: true,
          messages: [{ role: 'user', content: content.message }],
        }),
      });
      if (!response.ok) throw new Error(`model answered ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      let text = '';
      for await (const bytes of response.body) {
        buffer += decoder.decode(bytes, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
          const piece = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
          if (piece) {
            text += piece;
            send({ conversation_id: conversationId, data: piece });
          }
        }
      }
      // The stored answer, as Parley sends it once the stream ends (here: nothing stored).
      send({
        conversation_id: conversationId,
        final_result_object: { conversation_id: conversationId, message_type: 'bot', message: text },
      });
    }
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  const stop = () => {
    for (const client of wss.clients) client.terminate();
    wss.close(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.send?.({ port: wss.address().port });
} else {
  throw new Error(`BENCH_CHAT_ROLE must be parley or bare, not ${role}`);
}
