import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import {
  LLM_MESSAGES,
  LLM_TEST_MESSAGES,
  type LlmSetting,
  type LlmSettingResponse,
  type LlmTestResult,
  MESSAGES,
} from '@parley/contracts';
import { generateText, streamText } from 'ai';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askBot, createBotViaApi, insertBot, updateBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { type OpenAiFake, startOpenAiFake } from '../../test/fakes/openai.js';
import { attachDocument } from '../../test/knowledge.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, TEST_SECRET, type TestServer } from '../../test/server.js';
import { bots } from '../bots/bots.schema.js';
import { llmSettings } from './llm.schema.js';
import { LlmService } from './llm.service.js';

let server: TestServer;
let fake: OpenAiFake;
let owner: Account;
const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const KEY = 'sk-test-0123456789abcdefWXYZ';

beforeAll(async () => {
  [server, fake] = await Promise.all([startTestServer(), startOpenAiFake()]);
  owner = await signupOwner(server);
});
afterAll(async () => {
  await Promise.all([server?.close(), fake?.close()]);
});

/**
 * Switches a setting on without its test, for the tests of resolve(), which builds models the fake
 * cannot answer (Anthropic, Google) or that redirect: saving would leave them inactive.
 */
const forceActive = (id: number) =>
  server.database.db.update(llmSettings).set({ isActive: true }).where(eq(llmSettings.id, id));

/** A local OpenAI-compatible model on the fake, created through the API. */
async function addLocal(
  account = owner,
  overrides: Record<string, unknown> = {},
): Promise<LlmSettingResponse> {
  const created = await server.post<LlmSettingResponse>(
    '/api/settings/llm',
    {
      name: `Local ${Math.random().toString(36).slice(2, 8)}`,
      provider: 'openai-compatible',
      base_url: fake.url,
      model: 'llama3.2',
      api_key: KEY,
      ...overrides,
    },
    as(account),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('LLM settings', () => {
  it('creates, lists, reads, edits, toggles and deletes a model with the spec texts', async () => {
    const created = await addLocal(owner, { name: 'Ollama on the box', embedding_model: 'nomic-embed-text' });
    expect(created).toMatchObject({
      message: MESSAGES.llm.saved,
      name: 'Ollama on the box',
      provider: 'openai-compatible',
      base_url: fake.url,
      model: 'llama3.2',
      embedding_model: 'nomic-embed-text',
      // Tested as it was saved: it answered, so it is active.
      is_active: true,
      last_test: { ok: true, detail: LLM_TEST_MESSAGES.answered, latency_ms: expect.any(Number) },
      api_key_masked: '••••••••WXYZ',
      tenant_id: owner.user.tenant_id,
    });

    const list = await server.get<LlmSetting[]>('/api/settings/llm/company', as(owner));
    expect(list.status).toBe(200);
    expect(list.body.map((s) => s.id)).toContain(created.id);
    const one = await server.get<LlmSetting>(`/api/settings/llm/${created.id}`, as(owner));
    expect(one.body).toEqual(list.body.find((s) => s.id === created.id));

    // Edit without a key: the stored key stays.
    const edited = await server.put<LlmSettingResponse>(
      `/api/settings/llm/${created.id}`,
      {
        name: 'Ollama (edited)',
        provider: 'openai-compatible',
        base_url: fake.url,
        model: 'qwen2.5',
        api_key: '',
      },
      as(owner),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      message: MESSAGES.llm.updated,
      name: 'Ollama (edited)',
      model: 'qwen2.5',
      api_key_masked: '••••••••WXYZ',
      embedding_model: null,
    });
    const rekeyed = await server.put<LlmSettingResponse>(
      `/api/settings/llm/${created.id}`,
      {
        name: 'Ollama (edited)',
        provider: 'openai-compatible',
        base_url: fake.url,
        model: 'qwen2.5',
        api_key: 'sk-another-key-0000ABCD',
      },
      as(owner),
    );
    expect(rekeyed.body.api_key_masked).toBe('••••••••ABCD');

    const off = await server.patch<LlmSettingResponse>(
      `/api/settings/llm/${created.id}/toggle/false`,
      undefined,
      as(owner),
    );
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ is_active: false, message: MESSAGES.llm.updated });
    const on = await server.patch<LlmSettingResponse>(
      `/api/settings/llm/${created.id}/toggle/true`,
      undefined,
      as(owner),
    );
    expect(on.body.is_active).toBe(true);
    const badFlag = await server.patch(`/api/settings/llm/${created.id}/toggle/yes`, undefined, as(owner));
    expect(badFlag.status).toBe(400);

    const deleted = await server.delete<{ message: string }>(`/api/settings/llm/${created.id}`, as(owner));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: LLM_MESSAGES.deleted });
    expect((await server.get(`/api/settings/llm/${created.id}`, as(owner))).status).toBe(404);
    expect((await server.delete(`/api/settings/llm/${created.id}`, as(owner))).status).toBe(404);
  });

  it('refuses bad input with a detail naming the field', async () => {
    const valid = { name: 'GPT', provider: 'openai', model: 'gpt-4o-mini', api_key: KEY };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, name: '  ' }, LLM_MESSAGES.nameRequired],
      [{ ...valid, name: undefined }, LLM_MESSAGES.nameRequired],
      [{ ...valid, model: '' }, LLM_MESSAGES.modelRequired],
      [{ ...valid, provider: 'cohere' }, LLM_MESSAGES.providerInvalid],
      [{ ...valid, base_url: 'ftp://example.com' }, LLM_MESSAGES.baseUrlInvalid],
      [{ ...valid, base_url: 'not a url' }, LLM_MESSAGES.baseUrlInvalid],
      [{ ...valid, api_key: '' }, LLM_MESSAGES.apiKeyRequired],
      [{ ...valid, provider: 'anthropic', api_key: undefined }, LLM_MESSAGES.apiKeyRequired],
      [{ ...valid, provider: 'google', api_key: undefined }, LLM_MESSAGES.apiKeyRequired],
      [{ ...valid, provider: 'openai-compatible' }, LLM_MESSAGES.baseUrlRequired],
      [{ ...valid, provider: 'azure', base_url: '' }, LLM_MESSAGES.baseUrlRequired],
    ];
    for (const [body, detail] of cases) {
      const reply = await server.post('/api/settings/llm', body, as(owner));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body, JSON.stringify(body)).toEqual({ detail });
    }
    for (const detail of cases.map(([, d]) => d))
      expect(detail).toMatch(/Name|Model|Provider|Base URL|API key/);

    // A local server needs no key; a duplicate name is a conflict.
    const local = await addLocal(owner, { api_key: undefined, name: 'Keyless' });
    expect(local.api_key_masked).toBeNull();
    const twice = await server.post(
      '/api/settings/llm',
      { name: 'keyless', provider: 'openai-compatible', base_url: fake.url, model: 'x' },
      as(owner),
    );
    expect(twice.status).toBe(409);
    // Switching a keyless model to a hosted provider needs a key.
    const switched = await server.put(
      `/api/settings/llm/${local.id}`,
      { name: 'Keyless', provider: 'openai', model: 'gpt-4o-mini' },
      as(owner),
    );
    expect(switched.status).toBe(400);
    expect(switched.body).toEqual({ detail: LLM_MESSAGES.apiKeyRequired });
  });

  it('never returns the key and never stores it in plaintext', async () => {
    const secret = 'sk-live-THIS-MUST-NEVER-LEAK-9876';
    const created = await addLocal(owner, { api_key: secret });
    const replies = [
      JSON.stringify(created),
      JSON.stringify((await server.get('/api/settings/llm/company', as(owner))).body),
      JSON.stringify((await server.get(`/api/settings/llm/${created.id}`, as(owner))).body),
      JSON.stringify(
        (
          await server.put(
            `/api/settings/llm/${created.id}`,
            { name: created.name, provider: 'openai-compatible', base_url: fake.url, model: 'm' },
            as(owner),
          )
        ).body,
      ),
      JSON.stringify(
        (await server.patch(`/api/settings/llm/${created.id}/toggle/true`, undefined, as(owner))).body,
      ),
    ];
    // A provider that echoes the key in its error message: the test result blanks it out.
    fake.failNext(401, `Incorrect API key provided: ${secret}`);
    replies.push(
      JSON.stringify((await server.post(`/api/settings/llm/${created.id}/test`, undefined, as(owner))).body),
    );
    for (const text of replies) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('NEVER-LEAK');
    }

    const [row] = await server.database.db.select().from(llmSettings).where(eq(llmSettings.id, created.id));
    expect(row!.apiKeySealed).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row!.apiKeyHint).toBe('9876');
    // The key does reach the provider.
    fake.reply('fine');
    await server.post(`/api/settings/llm/${created.id}/test`, undefined, as(owner));
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`);
  });

  it('names the bots that answer with a model, and deleting it clears it from them', async () => {
    const setting = await addLocal();
    const user = await insertBot(server, owner.user.tenant_id, 'Zeta_shop');
    const second = await insertBot(server, owner.user.tenant_id, 'Alpha_shop');
    const other = await insertBot(server, owner.user.tenant_id);
    await server.database.db
      .update(bots)
      .set({ llmModel: String(setting.id) })
      .where(eq(bots.id, user.id));
    await server.database.db
      .update(bots)
      .set({ llmModel: String(setting.id) })
      .where(eq(bots.id, second.id));
    await server.database.db.update(bots).set({ llmModel: '999999' }).where(eq(bots.id, other.id));
    // What the delete will change is shown before it: the bots answering with it, by name.
    const before = await server.get<LlmSetting>(`/api/settings/llm/${setting.id}`, as(owner));
    expect(before.body.used_by).toEqual(['Alpha_shop', 'Zeta_shop']);
    const listed = await server.get<LlmSetting[]>('/api/settings/llm/company', as(owner));
    expect(listed.body.find((s) => s.id === setting.id)!.used_by).toEqual(['Alpha_shop', 'Zeta_shop']);
    expect((await server.delete(`/api/settings/llm/${setting.id}`, as(owner))).status).toBe(200);
    expect(
      (await server.get<LlmSetting[]>('/api/settings/llm/company', as(owner))).body.flatMap((s) => s.used_by),
    ).not.toContain('Zeta_shop');
    const rows = await server.database.db.select().from(bots).where(eq(bots.tenantId, owner.user.tenant_id));
    expect(rows.find((b) => b.id === user.id)!.llmModel).toBeNull();
    expect(rows.find((b) => b.id === other.id)!.llmModel).toBe('999999');
  });
});

/** A server on loopback that answers every request with a redirect to `location`. */
async function redirector(location: string, status = 307) {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { location });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An "internal" service on another host name (localhost, not 127.0.0.1) that says too much. */
async function internalService() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'INTERNAL-ONLY db=10.0.0.5 password=hunter2' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/admin`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('a test on every save (issue 31: no model active without a test)', () => {
  it('keeps a model that fails its test inactive with the reason, and switches it on only once it passes', async () => {
    const before = fake.requests.length;
    fake.failNext(401, 'UPSTREAM-TEXT bad key');
    const created = await addLocal(owner, { name: 'Refused key' });
    expect(fake.requests.length).toBe(before + 1);
    expect(created).toMatchObject({
      is_active: false,
      last_test: { ok: false, detail: LLM_TEST_MESSAGES.keyRefused(401) },
      message: LLM_MESSAGES.savedInactive(LLM_TEST_MESSAGES.keyRefused(401)),
    });
    expect(JSON.stringify(created)).not.toContain('UPSTREAM-TEXT');
    // A bot cannot choose it.
    const bot = await insertBot(server, owner.user.tenant_id, 'Picky');
    const form = new FormData();
    form.append('llm_model', String(created.id));
    const chosen = await fetch(`${server.url}/api/chat/bots/${bot.id}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${owner.access_token}` },
    });
    expect(chosen.status).toBe(400);

    // Switching it on tests it again: still refused, it stays off and the 400 says why.
    fake.failNext(401, 'UPSTREAM-TEXT bad key');
    const refused = await server.patch<{ detail: string }>(
      `/api/settings/llm/${created.id}/toggle/true`,
      undefined,
      as(owner),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(LLM_MESSAGES.notActivated(LLM_TEST_MESSAGES.keyRefused(401)));
    expect((await server.get<LlmSetting>(`/api/settings/llm/${created.id}`, as(owner))).body.is_active).toBe(
      false,
    );
    // Once it answers, switching on works, and the state says so.
    const on = await server.patch<LlmSettingResponse>(
      `/api/settings/llm/${created.id}/toggle/true`,
      undefined,
      as(owner),
    );
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ is_active: true, last_test: { ok: true } });

    // An edit is tested too: failing now, the model is switched off (its bots quote their sources).
    fake.failNext(404, 'UPSTREAM-TEXT no such model');
    const edited = await server.put<LlmSettingResponse>(
      `/api/settings/llm/${created.id}`,
      { name: 'Refused key', provider: 'openai-compatible', base_url: fake.url, model: 'nope' },
      as(owner),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      is_active: false,
      last_test: { ok: false, detail: LLM_TEST_MESSAGES.notFound },
      message: LLM_MESSAGES.savedInactive(LLM_TEST_MESSAGES.notFound),
    });
  });

  it('records the result of Test connection as the last test', async () => {
    const setting = await addLocal();
    fake.failNext(500, 'down');
    await server.post(`/api/settings/llm/${setting.id}/test`, undefined, as(owner));
    const read = await server.get<LlmSetting>(`/api/settings/llm/${setting.id}`, as(owner));
    expect(read.body.last_test).toMatchObject({ ok: false, detail: LLM_TEST_MESSAGES.providerFailed(500) });
    expect(Date.parse(read.body.last_test!.tested_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('test connection', () => {
  const test = (id: number) =>
    server.post<LlmTestResult>(`/api/settings/llm/${id}/test`, undefined, as(owner));

  it('answers ok with latency from a working model, in its own words', async () => {
    const setting = await addLocal();
    fake.reply('OK, and here is what the server says');
    const before = fake.requests.length;
    const result = await test(setting.id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ok: true,
      detail: LLM_TEST_MESSAGES.answered,
      latency_ms: expect.any(Number),
    });
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'llama3.2' } });
  });

  it("answers ok: false with a status and a reason of its own, never the server's text, never a 5xx", async () => {
    const setting = await addLocal();
    const cases = [
      [401, LLM_TEST_MESSAGES.keyRefused(401)],
      [404, LLM_TEST_MESSAGES.notFound],
      [429, LLM_TEST_MESSAGES.rateLimited],
      [422, LLM_TEST_MESSAGES.refused(422)],
      [500, LLM_TEST_MESSAGES.providerFailed(500)],
    ] as const;
    for (const [status, reason] of cases) {
      fake.failNext(status, `UPSTREAM-TEXT ${status} Invalid API key, check your settings`);
      const reply = await test(setting.id);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ok: false, detail: reason, latency_ms: expect.any(Number) });
    }

    // A web page where the model should be: it answered, but its words are not passed on either.
    const webPage = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>INTRANET-PAGE</body></html>');
    });
    await new Promise<void>((r) => webPage.listen(0, '127.0.0.1', r));
    const page = await addLocal(owner, {
      base_url: `http://127.0.0.1:${(webPage.address() as AddressInfo).port}/v1`,
    });
    const notModel = await test(page.id);
    await new Promise((r) => webPage.close(r));
    expect(notModel.body).toMatchObject({ ok: false, detail: LLM_TEST_MESSAGES.notAModelServer });

    // Nobody listening at the base URL.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const gone = await addLocal(owner, { base_url: `http://127.0.0.1:${port}/v1` });
    const unreachable = await test(gone.id);
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({
      ok: false,
      detail: LLM_TEST_MESSAGES.unreachable('connection refused'),
    });
  });

  it('does not follow a redirect to another host: the target is never called and nothing of it comes back', async () => {
    const target = await internalService();
    const hop = await redirector(target.url);
    try {
      const setting = await addLocal(owner, { base_url: hop.url });
      // Its test on save failed (the redirect): it was kept inactive.
      expect(setting).toMatchObject({ is_active: false, last_test: { ok: false } });
      const reply = await test(setting.id);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        ok: false,
        detail: LLM_TEST_MESSAGES.redirected(307),
        latency_ms: expect.any(Number),
      });
      expect(target.hits).toEqual([]);
      expect(JSON.stringify(reply.body)).not.toMatch(/INTERNAL-ONLY|hunter2|localhost/);

      // Answering calls build their model the same way: the redirect is a failure, not a hop.
      await forceActive(setting.id);
      const resolved = await new LlmService(server.database.db, TEST_SECRET).resolve(
        owner.user.tenant_id,
        setting.id,
      );
      await expect(
        generateText({ model: resolved!.model, prompt: 'hi', maxRetries: 0 }),
      ).rejects.toMatchObject({
        statusCode: 307,
      });
      expect(target.hits).toEqual([]);
    } finally {
      await Promise.all([hop.close(), target.close()]);
    }
  });
});

describe("a bot's model", () => {
  it('answers the next question with the model chosen for the bot, and with a setting as edited', async () => {
    const first = await addLocal(owner, { model: 'llama3.2' });
    const second = await addLocal(owner, { model: 'qwen2.5' });
    const bot = await createBotViaApi(server, owner, { bot_name: 'Switching', llm_model: String(first.id) });
    await attachDocument(server, owner, bot.bot_id, {
      title: 'Shipping',
      url: 'https://shop.test/shipping',
      text: 'Parcels to Canada arrive in five to seven working days.',
    });
    fake.reply('Parcels to Canada take five to seven working days.');
    const modelAsked = async () => {
      const reply = await askBot(server, owner, bot.bot_id, 'How long does shipping to Canada take?');
      expect(reply.body.bot_message!.answer_mode).toBe('llm');
      return fake.requests.at(-1)!.body.model;
    };
    expect(await modelAsked()).toBe('llama3.2');
    expect((await updateBotViaApi(server, owner, bot.bot_id, { llm_model: String(second.id) })).status).toBe(
      200,
    );
    expect(await modelAsked()).toBe('qwen2.5');
    const edited = await server.put(
      `/api/settings/llm/${second.id}`,
      { name: second.name, provider: 'openai-compatible', base_url: fake.url, model: 'mistral-small' },
      as(owner),
    );
    expect(edited.status).toBe(200);
    expect(await modelAsked()).toBe('mistral-small');
  });
});

describe('a key the provider quotes back', () => {
  /** A server whose log lines are kept, and a provider that quotes the whole key when it refuses it. */
  let logged: TestServer;
  let quoting: OpenAiFake;
  const lines: string[] = [];
  const SECRET = 'sk-proj-QUOTED0123456789abcdefghij';
  const refuse = () => quoting.failNext(401, `Incorrect API key provided: ${SECRET}. Find your key at x.`);
  beforeAll(async () => {
    [logged, quoting] = await Promise.all([
      startTestServer({ env: { LOG_LEVEL: 'debug' } }),
      startOpenAiFake(),
    ]);
    const logger = logged.parley.app.log as unknown as Record<symbol, { write: (line: string) => boolean }>;
    logger[pino.symbols.streamSym]!.write = (line: string) => lines.push(line) > 0;
  });
  afterAll(async () => {
    await Promise.all([logged?.close(), quoting?.close()]);
  });

  it('never writes it to a log, a stored reason or a response, when saving or when answering', async () => {
    const boss = await signupOwner(logged);
    const token = { token: boss.access_token };
    const body = {
      name: 'OpenAI',
      provider: 'openai',
      base_url: quoting.url,
      model: 'gpt-4o-mini',
      api_key: SECRET,
    };
    refuse();
    const saved = await logged.post<LlmSettingResponse>('/api/settings/llm', body, token);
    expect(saved.body).toMatchObject({
      is_active: false,
      message: LLM_MESSAGES.savedInactive(LLM_TEST_MESSAGES.keyRefused(401)),
    });
    expect(
      (await logged.patch(`/api/settings/llm/${saved.body.id}/toggle/true`, undefined, token)).status,
    ).toBe(200);

    // A visitor's answer: the model refuses the key, the bot quotes its sources, the failure is logged.
    const bot = await createBotViaApi(logged, boss, { bot_name: 'Shop', llm_model: String(saved.body.id) });
    await attachDocument(logged, boss, bot.bot_id, {
      title: 'Shipping',
      url: 'https://shop.test/shipping',
      text: 'Parcels to Canada arrive in five to seven working days.',
    });
    refuse();
    const reply = await askBot(logged, boss, bot.bot_id, 'How long does shipping to Canada take?');
    expect(reply.body.bot_message!.answer_mode).toBe('extractive');
    await expect.poll(() => lines.some((line) => line.includes('Incorrect API key provided'))).toBe(true);

    const setting = await logged.get<LlmSetting>(`/api/settings/llm/${saved.body.id}`, token);
    expect(setting.body.last_test).toMatchObject({ ok: false, detail: LLM_TEST_MESSAGES.keyRefused(401) });
    const everything = [...lines, JSON.stringify([saved.body, setting.body, reply.body])].join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('QUOTED0123456789');
  });
});

describe('resolve()', () => {
  const service = () => new LlmService(server.database.db, TEST_SECRET);

  it('gives a working model for an active setting: generateText and streamText reach the fake', async () => {
    const setting = await addLocal(owner, { name: 'Resolvable' });
    const resolved = await service().resolve(owner.user.tenant_id, setting.id);
    expect(resolved?.setting).toEqual({
      id: setting.id,
      name: 'Resolvable',
      provider: 'openai-compatible',
      model: 'llama3.2',
    });

    fake.reply((body) => `You said ${body.messages?.length ?? 0} message(s) to the model`);
    const { text } = await generateText({ model: resolved!.model, prompt: 'Hello' });
    expect(text).toBe('You said 1 message(s) to the model');

    fake.reply('one two three four five');
    const stream = streamText({ model: resolved!.model, prompt: 'Count' });
    const parts: string[] = [];
    for await (const part of stream.textStream) parts.push(part);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join('')).toBe('one two three four five');
    expect((await stream.usage).totalTokens).toBeGreaterThan(0);
    const streamed = fake.requests.at(-1)!;
    expect(streamed.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(streamed.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('answers null for an inactive, missing or other workspace id', async () => {
    const setting = await addLocal();
    const stranger = await signupOwner(server);
    expect(await service().resolve(stranger.user.tenant_id, setting.id)).toBeNull();
    expect(await service().resolve(owner.user.tenant_id, 99_999_999)).toBeNull();
    await server.patch(`/api/settings/llm/${setting.id}/toggle/false`, undefined, as(owner));
    expect(await service().resolve(owner.user.tenant_id, setting.id)).toBeNull();
    await server.patch(`/api/settings/llm/${setting.id}/toggle/true`, undefined, as(owner));
    expect(await service().resolve(owner.user.tenant_id, setting.id)).not.toBeNull();
  });

  it('builds a model for every provider', async () => {
    const svc = service();
    for (const provider of ['openai', 'azure', 'anthropic', 'google'] as const) {
      const created = await addLocal(owner, { provider, base_url: fake.url, name: `P ${provider}` });
      await forceActive(created.id);
      const resolved = await svc.resolve(owner.user.tenant_id, created.id);
      expect(resolved?.setting.provider).toBe(provider);
    }
    // OpenAI and Azure speak chat completions: the fake answers them too.
    const azure = await addLocal(owner, {
      provider: 'azure',
      name: 'Azure deployment',
      model: 'gpt-4o-prod',
    });
    fake.reply('from azure');
    const resolved = await svc.resolve(owner.user.tenant_id, azure.id);
    expect((await generateText({ model: resolved!.model, prompt: 'hi' })).text).toBe('from azure');
    expect(fake.requests.at(-1)!.headers['api-key']).toBe(KEY);
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 for another workspace's model on every route, and changes nothing", async () => {
    const setting = await addLocal();
    const intruder = await signupOwner(server);
    const body = { name: 'Hijacked', provider: 'openai-compatible', base_url: fake.url, model: 'x' };
    const calls = [
      server.get(`/api/settings/llm/${setting.id}`, as(intruder)),
      server.put(`/api/settings/llm/${setting.id}`, body, as(intruder)),
      server.patch(`/api/settings/llm/${setting.id}/toggle/false`, undefined, as(intruder)),
      server.post(`/api/settings/llm/${setting.id}/test`, undefined, as(intruder)),
      server.delete(`/api/settings/llm/${setting.id}`, as(intruder)),
    ];
    const ghost = await server.get(`/api/settings/llm/99999999`, as(intruder));
    for (const reply of await Promise.all(calls)) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual(ghost.body);
    }
    expect((await server.get<LlmSetting[]>('/api/settings/llm/company', as(intruder))).body).toEqual([]);
    const still = await server.get<LlmSetting>(`/api/settings/llm/${setting.id}`, as(owner));
    expect(still.body).toMatchObject({ name: setting.name, is_active: true });
  });

  it('refuses a teammate without the Create Bot feature (403), and admits by action', async () => {
    const setting = await addLocal();
    const body = { name: 'By teammate', provider: 'openai-compatible', base_url: fake.url, model: 'x' };
    const none = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Home: { read: true } }),
      readToken,
    );
    for (const reply of await Promise.all([
      server.get('/api/settings/llm/company', as(none)),
      server.get(`/api/settings/llm/${setting.id}`, as(none)),
      server.post('/api/settings/llm', body, as(none)),
      server.put(`/api/settings/llm/${setting.id}`, body, as(none)),
      server.patch(`/api/settings/llm/${setting.id}/toggle/false`, undefined, as(none)),
      server.post(`/api/settings/llm/${setting.id}/test`, undefined, as(none)),
      server.delete(`/api/settings/llm/${setting.id}`, as(none)),
    ])) {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
    }

    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { 'Create Bot': { read: true } }),
      readToken,
    );
    expect((await server.get('/api/settings/llm/company', as(reader))).status).toBe(200);
    expect((await server.get(`/api/settings/llm/${setting.id}`, as(reader))).status).toBe(200);
    expect((await server.post('/api/settings/llm', body, as(reader))).status).toBe(403);
    expect(
      (await server.patch(`/api/settings/llm/${setting.id}/toggle/false`, undefined, as(reader))).status,
    ).toBe(403);
    expect((await server.post(`/api/settings/llm/${setting.id}/test`, undefined, as(reader))).status).toBe(
      403,
    );

    const creator = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { 'Create Bot': { create: true } }),
      readToken,
    );
    expect((await server.post('/api/settings/llm', body, as(creator))).status).toBe(201);
    expect((await server.delete(`/api/settings/llm/${setting.id}`, as(creator))).status).toBe(403);
  });
});
