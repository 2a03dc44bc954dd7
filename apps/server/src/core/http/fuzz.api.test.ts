import { MAX_ID, MESSAGES, NOTION_TEXTS } from '@parley/contracts';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signupOwner } from '../../test/factories.js';
import { type NotionFake, startNotionFake } from '../../test/fakes/notion.js';
import {
  type Caller,
  type Case,
  casesFor,
  NUL,
  type OpenApiOperation,
  type Operation,
  operationsOf,
} from '../../test/fuzz-cases.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * The API fuzzer (issue 13, item 7). Every operation of the live OpenAPI document gets a bounded,
 * deterministic set of malformed inputs, signed out and as a workspace owner: bad ids, NUL bytes,
 * huge strings, wrong types and nulls in every field of a body built from its schema, empty and
 * malformed bodies, multipart without a boundary. Bad input is the client's fault: any 5xx fails,
 * and so does any line the server logs at error level, with the operation and the input named.
 * Routes added later are fuzzed as soon as they are documented.
 */

/** Signed out, with a forged or malformed access token, or as the owner. */
type Session = 'anonymous' | 'forged' | 'owner';
/** Tokens no route may take: an unsigned JWT naming the first user, and an oversized garbage one. */
const FORGED_TOKENS = [
  `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
    '{"sub":"1","tid":1,"typ":"access","iss":"parley","aud":"parley-api"}',
  ).toString('base64url')}.`,
  'a'.repeat(8000),
];
const CONCURRENCY = 4;

let server: TestServer;
let notion: NotionFake;
let owner: Account;
const errorLines: string[] = [];

beforeAll(async () => {
  notion = await startNotionFake();
  // role api: no workers, so nothing a fuzzed request queues runs in the background.
  server = await startTestServer({
    role: 'api',
    env: {
      LOG_LEVEL: 'warn',
      NOTION_API_URL: notion.url,
      NOTION_CLIENT_ID: notion.clientId,
      NOTION_CLIENT_SECRET: notion.clientSecret,
    },
  });
  captureErrorLogs(server);
  owner = await signupOwner(server);
  await seedOwnRows();
}, 120_000);
beforeEach(() => {
  errorLines.length = 0;
});
afterAll(async () => {
  await server?.close();
  await notion?.close();
});

/** The id of the owner's one row of each kind: this file's database is fresh, so each is its table's first. */
const SEEDED_ID = 1;

/**
 * One row of each kind the routes name by id (bot, Q&A pair, conversation, language model, calendar
 * booking, Notion workspace, file group), so that fuzzed requests with valid ids reach the services.
 */
async function seedOwnRows(): Promise<void> {
  const ids: number[] = [];
  const created = async <T>(reply: Promise<{ status: number; body: unknown }>, id: (body: T) => number) => {
    const { status, body } = await reply;
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    ids.push(id(body as T));
  };
  const as = { token: owner.access_token };
  const bot = ownerMultipart('POST', '/api/chat/bots', { bot_name: 'Fuzz bot' });
  await created(bot, (b: { bot_id: number }) => b.bot_id);
  const question = { bot_id: SEEDED_ID, question: 'When are you open?', answer: 'From nine to five.' };
  await created(server.post('/api/qna/', question, as), (b: { id: number }) => b.id);
  const chat = server.post('/api/chat/chats', { bot_id: SEEDED_ID, message: 'When are you open?' }, as);
  await created(chat, (b: { conversation_id: number }) => b.conversation_id);
  const model = {
    name: 'Local',
    provider: 'openai-compatible',
    base_url: 'http://127.0.0.1:9/v1',
    model: 'm',
  };
  await created(server.post('/api/settings/llm', model, as), (b: { id: number }) => b.id);
  const booking = {
    message: 'Book a call',
    provider: 'calendly',
    url: 'https://calendly.com/fuzz',
    title: 'Book',
  };
  const booked = server.post(`/api/bots/${SEEDED_ID}/calendar-booking`, booking, as);
  await created(booked, (b: { bot_id: number }) => b.bot_id);
  const { token } = notion.addWorkspace();
  const connected = server.post('/api/notion/connect', { token }, as);
  await created(connected, (b: { workspace: { id: number } }) => b.workspace.id);
  const group = { group_name: 'fuzz_docs', user_id: String(owner.user.id) };
  const file = { name: 'hours.txt', text: 'We are open from nine to five.' };
  await created(
    ownerMultipart('POST', '/api/file/upload-multiple', group, file),
    (b: { id: number }) => b.id,
  );
  expect(
    ids.every((id) => id === SEEDED_ID),
    `seeded ids ${ids}`,
  ).toBe(true);
}

/** Lines at error level or above are kept for the assertion; nothing reaches the test's output. */
function captureErrorLogs(target: TestServer): void {
  const logger = target.parley.app.log as unknown as Record<symbol, { write: (line: string) => boolean }>;
  const stream = logger[pino.symbols.streamSym];
  if (!stream) throw new Error('the server logger has no stream to watch');
  stream.write = (line: string) => {
    const entry = JSON.parse(line) as { level: number; msg?: string; err?: { message?: string } };
    if (entry.level >= 50) {
      const detail = (entry.err?.message ?? line).replaceAll(NUL, '\\0').slice(0, 300);
      errorLines.push(`${entry.msg ?? ''}: ${detail}`);
    }
    return true;
  };
}

it('answers malformed input to every documented operation with a 4xx', { timeout: 300_000 }, async () => {
  const spec = await server.get<{ paths: Record<string, Record<string, OpenApiOperation>> }>(
    '/api/docs/json',
  );
  expect(spec.status).toBe(200);
  const operations = operationsOf(spec.body.paths);
  expect(operations.length).toBeGreaterThan(100);

  const failures: string[] = [];
  const statuses = new Map<number, number>();
  await inPool(operations, CONCURRENCY, async (operation) => {
    let signedOutStatus = 0;
    for (const session of ['anonymous', 'forged', 'owner'] as const) {
      const cases = casesFor(operation, callerOf(session));
      // A forged token gets the first case only: the route's token check is what it tries.
      const tried = session === 'forged' ? FORGED_TOKENS.map((token) => ({ ...cases[0]!, token })) : cases;
      for (const [index, fuzzCase] of tried.entries()) {
        const reply = await send(operation, fuzzCase, session);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status >= 500) {
          failures.push(
            `${session} ${operation.method} ${fuzzCase.path} [${fuzzCase.label}]: ${reply.status} ${reply.text.slice(0, 200)}`,
          );
        }
        if (session === 'anonymous' && index === 0) signedOutStatus = reply.status;
        // Where a request without a token is refused, one with a forged token is refused the same way.
        if (session === 'forged' && signedOutStatus === 401 && reply.status !== 401) {
          failures.push(`forged token not refused: ${operation.method} ${fuzzCase.path}: ${reply.status}`);
        }
        // Signed out, a protected route stops at the token check: one request shows it.
        if (index === 0 && session === 'anonymous' && reply.status === 401) break;
      }
    }
  });
  const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0);
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.info(`fuzzer: ${sent} requests to ${operations.length} operations (${byStatus.join(', ')})`);
  expect(failures, failures.join('\n')).toEqual([]);
  expect(errorLines, errorLines.join('\n')).toEqual([]);
});

it('refuses malformed socket frames without a server error', async () => {
  const botId = SEEDED_ID;
  const sockets = [
    {
      path: `/api/chat/stream?token=${owner.access_token}`,
      // conversation 0: a new conversation, so a message that passes its schema is stored.
      base: { bot_id: botId, conversation_id: 0, message: 'hello', message_type: 'user' },
    },
    {
      path: `/api/chat/helpdesk?token=${owner.access_token}&tenant_id=${owner.user.tenant_id}&user_id=${owner.user.id}`,
      // conversation 0 is the help-desk socket's opening frame: a reply names a conversation.
      base: { bot_id: botId, conversation_id: MAX_ID, message: 'hello', message_type: 'helpdesk' },
    },
  ];
  for (const { path, base } of sockets) {
    const socket = await openSocket(path);
    const frames = [
      { type: 'resume', conversation_id: MAX_ID + 1, after_seq: 0 },
      { type: 'resume', conversation_id: 1, after_seq: 99_999_999_999 },
      { content: { ...base, bot_id: MAX_ID + 1 } },
      { content: { ...base, conversation_id: 99_999_999_999 } },
      { content: { ...base, message: `a${NUL}b` } },
    ];
    for (const frame of frames) {
      const reply = await socket.exchange(JSON.stringify(frame));
      expect(reply, `${path.split('?')[0]} ${JSON.stringify(frame)}`).toMatchObject({
        error: 'Invalid frame',
      });
    }
    socket.close();
  }
  expect(errorLines, errorLines.join('\n')).toEqual([]);
});

describe('the bad input the fuzzer found', () => {
  const as = () => ({ token: owner.access_token });

  it('answers ids past the 32-bit columns with a 400, in paths, bodies and multipart lists', async () => {
    const anonymous = await server.get('/api/auth/bot/2147483648');
    expect(anonymous).toMatchObject({ status: 400, body: { detail: `id: must be at most ${MAX_ID}` } });
    const path = await server.get('/api/chat/bots/99999999999', as());
    expect(path).toMatchObject({ status: 400, body: { detail: `id: must be at most ${MAX_ID}` } });
    const body = await server.post('/api/chat/chats', { bot_id: MAX_ID + 1, message: 'hello' }, as());
    expect(body).toMatchObject({ status: 400, body: { detail: `Bot must be at most ${MAX_ID}` } });
    const list = await multipart('POST', '/api/chat/bots', {
      bot_name: 'Ids',
      file_group_ids: '[2147483648]',
    });
    expect(list).toEqual({ status: 400, detail: `File group must be at most ${MAX_ID}` });
    const field = await multipart('POST', '/api/file/upload-multiple', {
      group_name: 'ids',
      user_id: '99999999999',
    });
    expect(field).toEqual({ status: 400, detail: MESSAGES.files.userMissing });
    expect(await server.get(`/api/chat/bots/${MAX_ID}`, as())).toMatchObject({ status: 404 });
  });

  it('refuses NUL characters with a 400 naming the field, signed out too', async () => {
    const login = await server.post('/api/auth/login', { username: `a${NUL}b`, password: 'whatever1' });
    expect(login).toMatchObject({
      status: 400,
      body: { detail: 'username: must not contain NUL characters' },
    });
    const contact = await server.post('/api/contact', {
      name: 'Ada',
      email: 'ada@example.com',
      message: `hi${NUL}`,
    });
    expect(contact).toMatchObject({
      status: 400,
      body: { detail: 'message: must not contain NUL characters' },
    });
    const upload = await multipart(
      'POST',
      '/api/file/upload-multiple',
      { group_name: 'nul_names', user_id: String(owner.user.id) },
      { name: `a${NUL}b.txt`, text: 'Refunds take fourteen days.' },
    );
    expect(upload).toEqual({ status: 400, detail: 'A file name must not contain NUL characters' });
  });

  it('answers multipart without a boundary with a 400 on every multipart route', async () => {
    const routes = [
      ['POST', '/api/chat/bots', 'The bot must be sent as multipart/form-data'],
      ['PUT', `/api/chat/bots/${MAX_ID}`, 'The bot must be sent as multipart/form-data'],
      ['POST', '/api/file/upload-multiple', 'The upload must be sent as multipart/form-data'],
      ['PUT', '/api/file/update-file-group', 'The upload must be sent as multipart/form-data'],
      ['POST', '/api/chat/upload-file', 'The file must be sent as multipart/form-data'],
    ];
    for (const [method, path, detail] of routes) {
      const reply = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'multipart/form-data' },
        body: 'x',
      });
      expect({ path, status: reply.status, body: await reply.json() }).toEqual({
        path,
        status: 400,
        body: { detail },
      });
    }
    expect(errorLines).toEqual([]);
  });

  it('answers Notion tokens that Notion refuses or that cannot be sent with a 400', async () => {
    for (const [token, detail] of [
      ['ntn_unknown_token', NOTION_TEXTS.invalidToken],
      ['ntn_\u00e9t\u00e9', NOTION_TEXTS.tokenChars],
      ['ntn_\ud800', NOTION_TEXTS.tokenChars],
      [`ntn_${NUL}`, NOTION_TEXTS.tokenChars],
    ]) {
      const reply = await server.post('/api/notion/connect', { token }, as());
      expect({ token, status: reply.status, body: reply.body }).toEqual({
        token,
        status: 400,
        body: { detail },
      });
    }
  });
});

/** A multipart request as the owner, and the detail of its answer. */
async function multipart(
  method: string,
  path: string,
  fields: Record<string, string>,
  file?: { name: string; text: string },
): Promise<{ status: number; detail: unknown }> {
  const { status, body } = await ownerMultipart(method, path, fields, file);
  return { status, detail: (body as { detail?: unknown }).detail };
}

/** A multipart request as the owner; an optional text file as `files`. */
async function ownerMultipart(
  method: string,
  path: string,
  fields: Record<string, string>,
  file?: { name: string; text: string },
): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('files', new Blob([file.text], { type: 'text/plain' }), file.name);
  const reply = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.access_token}` },
    body: form,
  });
  return { status: reply.status, body: await reply.json() };
}

/** The owner's own ids, or (signed out or forged) those of the first tenant's first user. */
const callerOf = (session: Session): Caller =>
  session === 'owner'
    ? { tenantId: owner.user.tenant_id, userId: owner.user.id, rowId: SEEDED_ID }
    : { tenantId: 1, userId: 1, rowId: SEEDED_ID };

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function send(operation: Operation, fuzzCase: Case, session: Session) {
  const headers: Record<string, string> = {};
  const token = fuzzCase.token ?? (session === 'owner' ? owner.access_token : undefined);
  if (token) headers.authorization = `Bearer ${token}`;
  if (fuzzCase.contentType) headers['content-type'] = fuzzCase.contentType;
  const response = await fetch(`${server.url}${fuzzCase.path}`, {
    method: operation.method,
    headers,
    body: fuzzCase.body,
  });
  return { status: response.status, text: await response.text() };
}

/** A socket on the test server whose next frame answers each frame sent. */
async function openSocket(path: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}${path}`);
  const queue: Record<string, unknown>[] = [];
  const waiting: ((frame: Record<string, unknown>) => void)[] = [];
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as Record<string, unknown>;
    if (frame.type === 'presence' || frame.type === 'connected') return;
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    /** The next frame the server sends after this one, or a timeout marker after 5 seconds. */
    exchange(frame: string): Promise<Record<string, unknown>> {
      socket.send(frame);
      const ready = queue.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ timeout: 'no answer within 5 s' }), 5000);
        waiting.push((answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
      });
    },
    close: () => socket.close(),
  };
}
