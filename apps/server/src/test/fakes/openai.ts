import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One request the fake received: path, lower-cased headers and the parsed JSON body. */
export type OpenAiRequest = { path: string; headers: Record<string, string>; body: ChatBody };

/** The part of a chat completion request the fake reads; the rest is kept as sent. */
export type ChatBody = {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
};

export type OpenAiFake = {
  /** Base URL for a provider (ends in /v1). */
  url: string;
  /** Every request received, in order (failed ones too). */
  requests: OpenAiRequest[];
  /** The reply to every following chat completion: a text, or a function of the request body. */
  reply(text: string | ((body: ChatBody) => string)): void;
  /**
   * The next chat completion answers this status with OpenAI's error JSON `{ error: { message, type } }`,
   * with these response headers (a 429's `retry-after`).
   */
  failNext(status: number, message: string, headers?: Record<string, string>): void;
  /**
   * The next streamed completion breaks after `words` pieces of its reply: `cut` ends the response
   * there, with no finish_reason and no `[DONE]` (a proxy that closed it); `stall` sends nothing
   * more and keeps the connection open until the client gives up.
   */
  breakNext(mode: 'cut' | 'stall', words: number): void;
  /**
   * A model context of this many tokens (null: none): a request whose messages hold more answers
   * 400 `context_length_exceeded`, as OpenAI and vLLM do.
   */
  contextWindow(tokens: number | null): void;
  /**
   * The next streamed completion calls this tool (OpenAI's tool_calls deltas, finish_reason
   * "tool_calls"), after saying `text` when given.
   */
  callToolNext(name: string, args?: Record<string, unknown>, text?: string): void;
  /** Waits this long before the first token of every following completion (a slow model). */
  delay(ms: number): void;
  close(): Promise<void>;
};

const DEFAULT_REPLY = 'Hello from the fake model.';

/**
 * An OpenAI-compatible chat API on loopback: `POST /v1/chat/completions`, as a JSON completion or,
 * with `stream: true`, as Server-Sent Events in OpenAI's wire format (a role chunk, the reply split
 * by words over several chunks, a chunk with `finish_reason: "stop"`, a usage chunk when
 * `stream_options.include_usage` is set, then `data: [DONE]`). Any key is accepted; scripted
 * failures stand in for a wrong key or a provider outage.
 */
export async function startOpenAiFake(): Promise<OpenAiFake> {
  let answer: string | ((body: ChatBody) => string) = DEFAULT_REPLY;
  const failures: Array<{ status: number; message: string; headers: Record<string, string> }> = [];
  const breaks: Array<{ mode: 'cut' | 'stall'; words: number }> = [];
  let windowTokens: number | null = null;
  const toolCalls: Array<{ name: string; args: Record<string, unknown>; text: string }> = [];
  let delayMs = 0;
  const fake: OpenAiFake = {
    url: '',
    requests: [],
    reply: (text) => {
      answer = text;
    },
    failNext: (status, message, headers = {}) => {
      failures.push({ status, message, headers });
    },
    breakNext: (mode, words) => {
      breaks.push({ mode, words });
    },
    contextWindow: (tokens) => {
      windowTokens = tokens;
    },
    callToolNext: (name, args = {}, text = '') => {
      toolCalls.push({ name, args, text });
    },
    delay: (ms) => {
      delayMs = ms;
    },
    close: async () => {},
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() =>
      sendJson(res, 500, { error: { message: 'fake failed', type: 'server_error' } }),
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? '/').split('?')[0]!;
    let body: ChatBody = {};
    try {
      body = raw ? (JSON.parse(raw) as ChatBody) : {};
    } catch {
      return sendJson(res, 400, { error: { message: 'Invalid JSON body', type: 'invalid_request_error' } });
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    fake.requests.push({ path, headers, body });

    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, {
        error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error' },
      });
    }
    const failure = failures.shift();
    if (failure) {
      return sendJson(
        res,
        failure.status,
        { error: { message: failure.message, type: errorType(failure.status), param: null, code: null } },
        failure.headers,
      );
    }
    const promptTokens = countTokens(JSON.stringify(body.messages ?? []));
    if (windowTokens !== null && promptTokens > windowTokens) {
      return sendJson(res, 400, {
        error: {
          message: `This model's maximum context length is ${windowTokens} tokens. However, your messages resulted in ${promptTokens} tokens.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
    }

    const text = typeof answer === 'function' ? answer(body) : answer;
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'fake-model';
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: countTokens(text),
      total_tokens: promptTokens + countTokens(text),
    };

    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage,
      });
    }

    const withUsage = body.stream_options?.include_usage === true;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const event = (choices: unknown[], extra: Record<string, unknown> = {}) => {
      const chunk = { id, object: 'chat.completion.chunk', created, model, choices, ...extra };
      if (withUsage && !('usage' in extra)) Object.assign(chunk, { usage: null });
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    const delta = (d: Record<string, unknown>, finish: string | null = null) => [
      { index: 0, delta: d, logprobs: null, finish_reason: finish },
    ];
    if (delayMs > 0) {
      await new Promise((r) => setTimeout(r, delayMs));
      // A client that gave up during the wait must not take the tool call a later test queued.
      if (res.destroyed) return;
    }
    event(delta({ role: 'assistant', content: '', refusal: null }));
    const call = toolCalls.shift();
    if (call) {
      if (call.text) event(delta({ content: call.text }));
      const callId = `call_${randomBytes(6).toString('hex')}`;
      event(
        delta({
          tool_calls: [
            { index: 0, id: callId, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      event(delta({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(call.args) } }] }));
      event(delta({}, 'tool_calls'));
      if (withUsage) event([], { usage });
      return void res.end('data: [DONE]\n\n');
    }
    const broken = breaks.shift();
    for (const [index, piece] of splitWords(text).entries()) {
      if (broken && index === broken.words) {
        // A stalled stream holds the connection until the client aborts (or the fake closes).
        if (broken.mode === 'stall') return;
        return void res.end();
      }
      event(delta({ content: piece }));
      // Each piece leaves in its own write, so a reader sees the reply arrive in parts.
      await new Promise((r) => setImmediate(r));
    }
    event(delta({}, 'stop'));
    if (withUsage) event([], { usage });
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** Words with their following spaces: "a b c" → ["a ", "b ", "c"], so the pieces join back exactly. */
function splitWords(text: string): string[] {
  const pieces = text.match(/\S+\s*|\s+/g) ?? [];
  return pieces.length > 0 ? pieces : [''];
}

const countTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function errorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
