// bench/chat: a minimal OpenAI-compatible chat model on loopback (the logic of
// apps/server/src/test/fakes/openai.ts). POST /v1/chat/completions with stream: true
// answers Server-Sent Events in OpenAI's format after a fixed first-token delay, one word per chunk
// a few milliseconds apart, a chunk with finish_reason "stop" (and usage), then `data: [DONE]`.
// It runs in the bench's main process, beside the visitors, so its clock is theirs: it records when
// each request arrives and when it writes its first token (performance.now()). A request without
// stream (the model's test when its setting is saved) gets a short JSON completion and is not counted.
import { createServer } from 'node:http';

const REPLY =
  'Fastify answers this in its documentation [1]: register the plugin, declare the route schema, and the framework validates every request before your handler runs.';

/**
 * Starts the fake. `firstTokenMs`: delay from the request's arrival to its first token;
 * `tokenMs`: delay between the following chunks. `onRequest(record)` is called as each request
 * arrives; the record gains `firstTokenAt` once its first token is written.
 */
export async function startFakeModel({ firstTokenMs, tokenMs, onRequest = () => {} }) {
  const words = REPLY.split(/(?<= )/);
  const stats = { requests: 0, failures: 0 };
  const server = createServer((req, res) => {
    const record = { arrivedAt: performance.now(), firstTokenAt: null };
    void handle(req, res, record).catch(() => {
      stats.failures += 1;
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'fake failed', type: 'server_error' } }));
    });
  });
  // The server under test keeps connections alive; never let the fake be the one that closes them.
  server.keepAliveTimeout = 120_000;

  async function handle(req, res, record) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : {};
    if (req.method !== 'POST' || !req.url.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'chat completions only', type: 'invalid_request_error' } }));
      return;
    }
    // A plain completion is the settings' test of the model on save, not a measured answer.
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: body.model ?? 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    stats.requests += 1;
    onRequest(record);
    const model = body.model ?? 'm';
    const event = (choices, extra = {}) =>
      res.write(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`,
      );
    const delta = (d, finish = null) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
    // The client went away (Parley aborts the model when a visitor leaves mid-answer).
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    const wait = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

    await wait(firstTokenMs - (performance.now() - record.arrivedAt));
    if (gone) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // The first chunk carries the role and the first word, so "first token" is one write.
    event(delta({ role: 'assistant', content: words[0] }));
    record.firstTokenAt = performance.now();
    for (const word of words.slice(1)) {
      await wait(tokenMs);
      if (gone) return;
      event(delta({ content: word }));
    }
    event(delta({}, 'stop'), {
      usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: words.length, total_tokens: 0 },
    });
    res.end('data: [DONE]\n\n');
  }

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    words: words.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
