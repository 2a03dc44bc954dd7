import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  Attachment,
  Bot,
  ChatExchange,
  ChatMessage,
  Conversation,
  ConversationWithMessages,
  MessageLimit,
  ServerFrame,
  StreamEvent,
  VisitorIdentity,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { conversations, fileGroups } from '../../core/db/schema.js';
import { addModelSetting, createBotViaApi, updateBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { type OpenAiFake, startOpenAiFake } from '../../test/fakes/openai.js';
import { attachDocument } from '../../test/knowledge.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { replaceDocument } from '../knowledge/ingest.js';
import { appendMessage, toConversation } from './chat.queries.js';
import { TEXTS } from './reply-texts.js';

let server: TestServer;
let owner: Account;
let other: Account;
let llm: OpenAiFake;
let bot: Bot;
let widgetDir: string;
const as = (account: Account) => ({ token: account.access_token });

const SHIPPING =
  'Parcels to Canada arrive in five to seven working days. International shipping costs 12 euros per order and is free above 80 euros.';
const RETURNS =
  'You can return unworn shoes within 30 days of delivery for a full refund to the original payment method.';

const createBot = (account: Account, fields: Record<string, string>) =>
  createBotViaApi(server, account, fields);

async function updateBot(account: Account, botId: number, fields: Record<string, string>) {
  const updated = await updateBotViaApi(server, account, botId, fields);
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
}

/** A file group with two indexed pages, attached to the bot. */
async function attachKnowledge(account: Account, botId: number) {
  const [group] = await server.database.db
    .insert(fileGroups)
    .values({ tenantId: account.user.tenant_id, userId: account.user.id, groupName: `help_${botId}` })
    .returning();
  for (const [index, [title, text]] of [
    ['Shipping guide', SHIPPING],
    ['Returns policy', RETURNS],
  ].entries()) {
    await replaceDocument(server.database.db, {
      tenantId: account.user.tenant_id,
      sourceType: 'file',
      sourceId: botId * 100 + index,
      collectionId: group!.id,
      title: title!,
      sections: [{ text: text!, pageNumber: index + 1 }],
    });
  }
  await updateBot(account, botId, { file_group_ids: JSON.stringify([group!.id]) });
}

async function addQna(account: Account, botId: number, question: string, answer: string) {
  const created = await server.post('/api/qna/', { bot_id: botId, question, answer }, as(account));
  expect(created.status).toBe(201);
  const task = await server.post<{ task_id: string }>(
    `/api/training/train/qna/${botId}`,
    undefined,
    as(account),
  );
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const progress = await server.get<{ status: string }>(
      `/api/training/train/progress/${task.body.task_id}`,
      as(account),
    );
    if (progress.body.status === 'completed') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Q&A training did not finish');
}

const ask = (account: Account, body: Record<string, unknown>) =>
  server.post<ChatExchange>('/api/chat/chats', body, as(account));

/** POST /chat/chats/stream, read to the end: its parsed events. */
async function stream(account: Account, body: Record<string, unknown>): Promise<StreamEvent[]> {
  const response = await fetch(`${server.url}/api/chat/chats/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as StreamEvent);
}

beforeAll(async () => {
  llm = await startOpenAiFake();
  widgetDir = await mkdtemp(path.join(tmpdir(), 'parley-widget-'));
  server = await startTestServer({
    env: {
      DATA_DIR: path.join(tmpdir(), `parley-chat-${process.pid}-${Date.now()}`),
      VISITOR_MESSAGES_PER_MINUTE: '50',
      WIDGET_DIST_DIR: widgetDir,
      // Generous: a loaded CI machine must not turn a model answer into the fallback.
      LLM_TIMEOUT_MS: '5000',
    },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  bot = await createBot(owner, {
    bot_name: 'Shop helper',
    is_public: 'true',
    prompt: 'Answer like a friendly clerk.',
  });
  await attachKnowledge(owner, bot.bot_id);
  await addQna(owner, bot.bot_id, 'Do you ship abroad?', 'Yes, we ship to 40 countries.');
});
afterAll(async () => {
  await server.close();
  await llm.close();
});

describe('answers without a language model', () => {
  it('answers a matching Q&A pair directly and records its qna_id', async () => {
    const reply = await ask(owner, { bot_id: bot.bot_id, message: 'Do you ship abroad?' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.bot_message).toMatchObject({
      message: 'Yes, we ship to 40 countries.',
      message_type: 'bot',
      answer_mode: 'qna',
      sources: [{ source_type: 'qna', page_title: 'Do you ship abroad?', page_url: null, page_number: null }],
    });
    expect(reply.body.bot_message!.qna_id).toEqual(expect.any(Number));
  });

  it('answers with the sentences of the sources that match the question, their pages under it, never a word about models', async () => {
    const reply = await ask(owner, { bot_id: bot.bot_id, message: 'How long do parcels to Canada take?' });
    const answer = reply.body.bot_message!;
    expect(answer.answer_mode).toBe('extractive');
    expect(answer.message).toBe('Parcels to Canada arrive in five to seven working days.');
    expect(answer.message).not.toMatch(/model|set up|passages/i);
    expect(answer.sources[0]).toEqual({
      source_type: 'file',
      page_title: 'Shipping guide',
      page_url: null,
      page_number: 1,
      heading_path: null,
      synced_at: expect.any(String),
    });
    expect(answer.usage).toBeNull();
  });

  it('says so when nothing relevant is found, and cites nothing', async () => {
    const reply = await ask(owner, { bot_id: bot.bot_id, message: 'What is the capital of Peru?' });
    expect(reply.body.bot_message).toMatchObject({
      message: TEXTS.notFound + TEXTS.offerHumanLater,
      answer_mode: 'not_found',
      sources: [],
    });
  });

  it('seeds a new conversation with the welcome message and numbers messages without gaps', async () => {
    const first = await ask(owner, { bot_id: bot.bot_id, message: 'Do you ship abroad?' });
    const id = first.body.conversation_id;
    await ask(owner, { bot_id: bot.bot_id, message: 'And returns?', conversation_id: id });
    const conversation = await server.get<ConversationWithMessages>(`/api/chat/chats/${id}`, as(owner));
    expect(conversation.body.messages.map((m) => [m.seq, m.message_type])).toEqual([
      [1, 'bot'],
      [2, 'user'],
      [3, 'bot'],
      [4, 'user'],
      [5, 'bot'],
    ]);
    // The default greeting names the business: here the workspace's name, chosen at sign-up.
    expect(conversation.body.messages[0]!.message).toMatch(
      /^Welcome to Acme [0-9a-f]{8}! How can I help you today\?$/,
    );
    expect(conversation.body.name).toBe('Do you ship abroad?');
    const after = await server.get<ChatMessage[]>(
      `/api/chat/chats/conversation/${id}?after_seq=3`,
      as(owner),
    );
    expect(after.body.map((m) => m.seq)).toEqual([4, 5]);
  });

  it('streams over HTTP: start, chunks, then the final answer with its sources', async () => {
    const events = await stream(owner, {
      bot_id: bot.bot_id,
      message: 'What is your returns policy for shoes?',
    });
    expect(events[0]).toMatchObject({ type: 'start', user_message: { message_type: 'user', seq: 2 } });
    expect(events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(0);
    const final = events.at(-1)!;
    expect(final.type).toBe('final');
    if (final.type !== 'final') return;
    expect(final.final_result_object!.sources[0]!.page_title).toBe('Returns policy');
    const chunks = events.flatMap((e) => (e.type === 'chunk' ? [e.data] : [])).join('');
    expect(chunks).toBe(final.final_result_object!.message);
  });

  it('refuses bad requests before streaming, as JSON', async () => {
    const response = await fetch(`${server.url}/api/chat/chats/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bot_id: bot.bot_id, message: '  ' }),
    });
    expect([response.status, await response.json()]).toEqual([400, { detail: 'Message is required' }]);
  });
});

describe('Q&A paraphrases', () => {
  it('answers a pair asked in other words, citing only the pair, and leaves questions about something else to the pages', async () => {
    const shop = await createBot(owner, { bot_name: 'Paraphrases' });
    await attachKnowledge(owner, shop.bot_id);
    await addQna(owner, shop.bot_id, 'Do you ship abroad?', 'Yes, we ship to 40 countries.');
    await addQna(owner, shop.bot_id, 'How can I pay?', 'We accept Visa, Mastercard and PayPal.');
    await addQna(owner, shop.bot_id, 'Do you have a shop in Lisbon?', 'Yes, at Rua Augusta 12.');
    const pair = (question: string) => [
      { source_type: 'qna', page_title: question, page_url: null, page_number: null },
    ];
    for (const [asked, question, answer] of [
      ['shipping abroad??', 'Do you ship abroad?', 'Yes, we ship to 40 countries.'],
      ['Can I pay with PayPal?', 'How can I pay?', 'We accept Visa, Mastercard and PayPal.'],
      ['Where is your Lisbon shop', 'Do you have a shop in Lisbon?', 'Yes, at Rua Augusta 12.'],
    ] as const) {
      const reply = await ask(owner, { bot_id: shop.bot_id, message: asked });
      expect(reply.body.bot_message, asked).toMatchObject({
        message: answer,
        answer_mode: 'qna',
        sources: pair(question),
      });
    }
    // Shares "ship" with a pair, but asks what only the shipping guide says.
    const cost = await ask(owner, { bot_id: shop.bot_id, message: 'How much does shipping to Canada cost?' });
    expect(cost.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(cost.body.bot_message!.sources.map((s) => s.page_title)).toEqual(['Shipping guide']);
  });
});

describe('answers with a language model', () => {
  it('streams the model through the AI SDK with instructions, passages, history and temperature', async () => {
    const settingId = await addModelSetting(server, owner, llm.url, 'sk-test-key-1234');
    const modelBot = await createBot(owner, {
      bot_name: 'Model helper',
      llm_model: String(settingId),
      temperature: '0.3',
      prompt: 'Always greet the customer.',
    });
    await attachKnowledge(owner, modelBot.bot_id);
    llm.reply('Parcels to Canada take five to seven working days [1].');

    const first = await stream(owner, {
      bot_id: modelBot.bot_id,
      message: 'How long does shipping to Canada take?',
    });
    const chunks = first.filter((e) => e.type === 'chunk');
    expect(chunks.length).toBeGreaterThan(2);
    const final = first.at(-1) as Extract<StreamEvent, { type: 'final' }>;
    expect(final.final_result_object).toMatchObject({
      message: 'Parcels to Canada take five to seven working days [1].',
      answer_mode: 'llm',
      sources: [{ source_type: 'file', page_title: 'Shipping guide', page_number: 1, page_url: null }],
    });
    expect(final.final_result_object!.usage!.completion_tokens).toBeGreaterThan(0);

    const request = llm.requests.at(-1)!.body;
    expect(request.temperature).toBe(0.3);
    const system = String(request.messages![0]!.content);
    expect(system).toContain('Always greet the customer.');
    expect(system).toContain(SHIPPING);
    expect(system).toContain('Never invent sources');
    expect(system).toContain('Reply in the language the visitor writes in.');

    const start = first[0] as Extract<StreamEvent, { type: 'start' }>;
    await stream(owner, {
      bot_id: modelBot.bot_id,
      message: 'What does international shipping cost?',
      conversation_id: start.conversation_id,
    });
    const roles = llm.requests.at(-1)!.body.messages!.map((m) => m.role);
    // System, the welcome, the first question and answer, then the new question.
    expect(roles).toEqual(['system', 'assistant', 'user', 'assistant', 'user']);
  });

  it('falls back to quoting the passages when the model fails', async () => {
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Flaky',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-key-9999',
      },
      as(owner),
    );
    const flaky = await createBot(owner, { bot_name: 'Flaky helper', llm_model: String(setting.body.id) });
    await attachKnowledge(owner, flaky.bot_id);
    llm.failNext(500, 'model overloaded');
    llm.failNext(500, 'model overloaded');
    const reply = await ask(owner, { bot_id: flaky.bot_id, message: 'How long do parcels to Canada take?' });
    expect(reply.body.bot_message!.answer_mode).toBe('extractive');
    expect(reply.body.bot_message!.message).toBe('Parcels to Canada arrive in five to seven working days.');
  });
});

describe('citations', () => {
  /** A bot whose sources all speak of the warranty: one long guide of three sections, four short pages. */
  async function warrantyBot(fields: Record<string, string> = {}) {
    const citing = await createBot(owner, { bot_name: `Warranty_${Date.now()}`, ...fields });
    const [group] = await server.database.db
      .insert(fileGroups)
      .values({
        tenantId: owner.user.tenant_id,
        userId: owner.user.id,
        groupName: `warranty_${citing.bot_id}`,
      })
      .returning();
    const documents: [string, string[]][] = [
      [
        'Warranty guide',
        [
          'The warranty covers every pair of shoes for two years from delivery.',
          'A warranty claim starts with a photo of the fault sent to our team.',
          'Repairs under warranty are free, and shipping both ways is paid by us.',
        ],
      ],
      ['Care tips', ['Clean leather shoes monthly; cleaning does not void the warranty.']],
      ['Returns policy', ['Returns within 30 days are refunded; the warranty applies after that.']],
      ['Sizing', ['Half sizes are available; the warranty does not cover a wrong size.']],
      ['Stores', ['Any of our stores accepts warranty claims in person.']],
    ];
    for (const [index, [title, sections]] of documents.entries())
      await replaceDocument(server.database.db, {
        tenantId: owner.user.tenant_id,
        sourceType: 'file',
        sourceId: citing.bot_id * 100 + index,
        collectionId: group!.id,
        title,
        url: `https://shoes.example/${title.toLowerCase().replace(/ /g, '-')}`,
        sections: sections.map((text, n) => ({
          text,
          headingPath: `${title} > Part ${n + 1}`,
          anchor: `part-${n + 1}`,
        })),
      });
    await updateBot(owner, citing.bot_id, { file_group_ids: JSON.stringify([group!.id]) });
    return citing;
  }

  it('never cites a page twice (its sections are one page), and at most three pages', async () => {
    const citing = await warrantyBot();
    for (const question of [
      'How does the warranty work?',
      'warranty claim',
      'is shipping free under warranty',
    ]) {
      const reply = await ask(owner, { bot_id: citing.bot_id, message: question });
      // Each source links to its section; a page is its address without the anchor.
      const pages = reply.body.bot_message!.sources.map((source) => source.page_url!.split('#')[0]);
      expect(pages.length, question).toBeGreaterThan(0);
      expect(pages.length, question).toBeLessThanOrEqual(3);
      expect(new Set(pages).size, question).toBe(pages.length);
    }
  });

  it('cites as many pages as the bot is set to (1 to 5), each with its section and last sync time', async () => {
    const single = await warrantyBot({ max_citations: '1' });
    expect(single.max_citations).toBe(1);
    const one = await ask(owner, { bot_id: single.bot_id, message: 'How does the warranty work?' });
    expect(one.body.bot_message!.sources).toHaveLength(1);
    const [source] = one.body.bot_message!.sources;
    expect(source!.heading_path).toMatch(/^[A-Z][a-z]+( [a-z]+)? > Part \d$/);
    expect(source!.page_url).toMatch(/#part-\d$/);
    expect(Date.now() - Date.parse(source!.synced_at!)).toBeLessThan(60_000);

    // A model citing four pages, for a bot set to two: the first two it cites are listed.
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Two',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-2222',
      },
      as(owner),
    );
    const two = await warrantyBot({ max_citations: '2', llm_model: String(setting.body.id) });
    llm.reply('Two years [1]. A photo [2]. Free repairs [3]. Any store [4]. In person [5].');
    const cited = await ask(owner, { bot_id: two.bot_id, message: 'How does the warranty work?' });
    expect(cited.body.bot_message!.sources).toHaveLength(2);
    expect(cited.body.bot_message!.message).not.toMatch(/\[[3-9]\]/);

    const wide = await warrantyBot({ max_citations: '5' });
    for (const bad of ['0', '6', '2.5', 'many']) {
      const form = new FormData();
      form.append('max_citations', bad);
      const refused = await fetch(`${server.url}/api/chat/bots/${wide.bot_id}`, {
        method: 'PUT',
        body: form,
        headers: { authorization: `Bearer ${owner.access_token}` },
      });
      expect(refused.status, bad).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/Sources per answer must be/);
    }
    expect((await server.get<Bot>(`/api/chat/bots/${wide.bot_id}`, as(owner))).body.max_citations).toBe(5);
  });

  it("lists only the pages a model's answer cites, renumbered in order, and drops a marker for no passage", async () => {
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Citer',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-key-4242',
      },
      as(owner),
    );
    const citing = await warrantyBot({ llm_model: String(setting.body.id) });
    const question = 'How does the warranty work?';
    llm.reply('It lasts two years [4]. Claims start with a photo [4]. Stores help too [2]. And more [9].');
    const reply = await ask(owner, { bot_id: citing.bot_id, message: question });
    // The passages as the model was given them: "[n] title" heads each in the system prompt.
    const system = String(llm.requests.at(-1)!.body.messages![0]!.content);
    const given = [...system.matchAll(/^\[(\d)\] (.+?)(?: \(|$)/gm)].map((m) => m[2]!);
    // [4] and [2] name passages; [9] names none, as at most eight passages go to a model.
    expect(given.length).toBeGreaterThanOrEqual(4);
    expect(given.length).toBeLessThan(9);
    const cited = [...new Set([given[3]!, given[1]!])];
    expect(reply.body.bot_message!.sources.map((source) => source.page_title)).toEqual(cited);
    const second = cited.length === 2 ? 2 : 1;
    expect(reply.body.bot_message!.message).toBe(
      `It lasts two years [1]. Claims start with a photo [1]. Stores help too [${second}]. And more.`,
    );
  });
});

describe('a slow model', () => {
  it('is given up on after LLM_TIMEOUT_MS, and the visitor gets the sentences of the sources', async () => {
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Slow',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-key-7777',
      },
      as(owner),
    );
    const slow = await createBot(owner, { bot_name: 'Slow helper', llm_model: String(setting.body.id) });
    await attachKnowledge(owner, slow.bot_id);
    llm.delay(9000);
    try {
      const started = Date.now();
      const reply = await ask(owner, { bot_id: slow.bot_id, message: 'How long do parcels to Canada take?' });
      expect(reply.body.bot_message!.message).toBe('Parcels to Canada arrive in five to seven working days.');
      expect(Date.now() - started).toBeLessThan(9000);
    } finally {
      llm.delay(0);
    }
  });
});

describe('when the bot must not answer', () => {
  it('stays silent while a human holds the conversation', async () => {
    const first = await ask(owner, { bot_id: bot.bot_id, message: 'Hello?' });
    await server.database.db
      .update(conversations)
      .set({ isHelpdeskInControl: true })
      .where(eq(conversations.id, first.body.conversation_id));
    const held = await ask(owner, {
      bot_id: bot.bot_id,
      message: 'Do you ship abroad?',
      conversation_id: first.body.conversation_id,
    });
    expect(held.status).toBe(200);
    expect(held.body.bot_message).toBeNull();
    expect(held.body.user_message.message).toBe('Do you ship abroad?');
  });

  it('answers with a clear notice past the monthly limit', async () => {
    const limited = await startTestServer({ env: { MONTHLY_MESSAGE_LIMIT: '1' } });
    try {
      const account = await signupOwner(limited);
      const form = new FormData();
      form.append('bot_name', 'Limited');
      const created = (await (
        await fetch(`${limited.url}/api/chat/bots`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${account.access_token}` },
        })
      ).json()) as Bot;
      const one = await limited.post<ChatExchange>(
        '/api/chat/chats',
        { bot_id: created.bot_id, message: 'Do you ship abroad?' },
        as(account),
      );
      expect(one.body.bot_message!.answer_mode).toBe('not_found');
      const two = await limited.post<ChatExchange>(
        '/api/chat/chats',
        { bot_id: created.bot_id, message: 'hi again' },
        as(account),
      );
      expect(two.body.bot_message).toMatchObject({ message: TEXTS.limit, answer_mode: 'limit' });
      // Said in the visitor's language when their words tell it.
      const spanish = await limited.post<ChatExchange>(
        '/api/chat/chats',
        { bot_id: created.bot_id, message: '¿Cuánto cuesta el envío de una tarta?' },
        as(account),
      );
      expect(spanish.body.bot_message!.message).toMatch(/^Este bot ya ha respondido todos los mensajes/);
      const usage = await limited.get<MessageLimit>(
        `/api/chat/message-limit/${account.user.tenant_id}`,
        as(account),
      );
      expect(usage.body).toMatchObject({ used: 3, limit: 1, remaining: 0 });
    } finally {
      await limited.close();
    }
  });
});

/** A WebSocket client that records every frame. */
async function connect(query: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/chat/stream?${query}`);
  const frames: ServerFrame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as ServerFrame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const stored = () => frames.flatMap((f) => (f.final_result_object ? [f.final_result_object] : []));
  return {
    socket,
    frames,
    stored,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    close: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

const userFrame = (botId: number, conversationId: number, message: string) => ({
  content: {
    bot_id: botId,
    conversation_id: conversationId,
    message,
    message_type: 'user',
    user_id: null,
    tenant_id: null,
  },
  elements: [],
});

describe('the WebSocket chat channel', () => {
  it('serves a visitor with a signed identity: connection, answer stream, pong', async () => {
    const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
    expect(identity.status).toBe(200);
    const client = await connect(`visitor_token=${identity.body.visitor_token}`);
    client.send({
      content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
      elements: [],
    });
    client.send({ type: 'ping' });
    client.send(userFrame(bot.bot_id, 0, 'Do you ship abroad?'));
    await expect
      .poll(() => client.stored().filter((m) => m.message_type === 'bot').length, { timeout: 10_000 })
      .toBe(2);
    expect(client.frames).toContainEqual({ type: 'connected', message: 'Connected' });
    expect(client.frames).toContainEqual({ type: 'pong' });
    expect(client.stored().map((m) => [m.seq, m.message_type])).toEqual([
      [1, 'bot'],
      [2, 'user'],
      [3, 'bot'],
    ]);
    expect(client.stored()[2]!.message).toBe('Yes, we ship to 40 countries.');
    expect(client.frames.some((f) => f.data === 'Yes, we ship to 40 countries.')).toBe(true);
    await client.close();

    // The same visitor renews their identity; another visitor cannot reach the conversation.
    const renewed = await server.post<VisitorIdentity>('/api/chat/visitor', {
      bot_uuid: bot.uuid,
      visitor_token: identity.body.visitor_token,
    });
    expect(renewed.body.visitor_id).toBe(identity.body.visitor_id);
    const stranger = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
    const intruder = await connect(`visitor_token=${stranger.body.visitor_token}`);
    intruder.send({ type: 'resume', conversation_id: client.stored()[0]!.conversation_id, after_seq: 0 });
    await expect.poll(() => intruder.frames).toContainEqual({ error: 'Conversation not found' });
    expect(intruder.stored()).toEqual([]);
    await intruder.close();
  });

  it('gives a reconnecting client what it missed, each message once', async () => {
    const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
    const first = await connect(`visitor_token=${identity.body.visitor_token}`);
    first.send(userFrame(bot.bot_id, 0, 'Do you ship abroad?'));
    await expect.poll(() => first.stored().length, { timeout: 10_000 }).toBe(3);
    const conversationId = first.stored()[0]!.conversation_id;
    await first.close();

    // Meanwhile an agent writes twice (the help desk arrives with its own capability).
    for (const text of ['An agent here.', 'Anything else?']) {
      await appendMessage(server.database.db, conversationId, { messageType: 'helpdesk', message: text });
    }

    const again = await connect(`visitor_token=${identity.body.visitor_token}`);
    again.send({ type: 'resume', conversation_id: conversationId, after_seq: 3 });
    await expect.poll(() => again.stored().length).toBe(2);
    again.send(userFrame(bot.bot_id, conversationId, 'Do you ship abroad?'));
    await expect.poll(() => again.stored().length, { timeout: 10_000 }).toBe(4);
    expect(again.stored().map((m) => m.seq)).toEqual([4, 5, 6, 7]);
    expect(again.stored().map((m) => m.message)).toEqual([
      'An agent here.',
      'Anything else?',
      'Do you ship abroad?',
      'Yes, we ship to 40 countries.',
    ]);
    await again.close();
  });

  it('refuses a socket without a valid identity, and malformed frames', async () => {
    const anonymous = await connect('visitor_token=forged.token.value');
    await expect.poll(() => anonymous.frames).toContainEqual({ error: 'Not authenticated' });
    const user = await connect(`token=${owner.access_token}`);
    user.send({ nonsense: true });
    user.socket.send('not json');
    await expect.poll(() => user.frames.length).toBe(2);
    expect(user.frames).toEqual([{ error: 'Invalid frame' }, { error: 'Frames must be JSON' }]);
    await user.close();
  });
});

describe('attachments', () => {
  it('stores images and PDFs judged by content and refuses the rest', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = async (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes as BlobPart]), name);
      const response = await fetch(`${server.url}/api/chat/upload-file`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${owner.access_token}` },
      });
      return { status: response.status, body: (await response.json()) as Attachment & { detail?: string } };
    };
    const ok = await upload(png, 'photo.png');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ name: 'photo.png', content_type: 'image/png', size: png.length });
    const served = await fetch(`${server.url}${ok.body.url}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await server.get(`/api/chat/attachments/1_${'0'.repeat(32)}.png`)).status).toBe(404);
    expect((await server.get('/api/chat/attachments/..%2Fsecret.png')).status).toBe(400);
    const script = await upload(Buffer.from('<script>alert(1)</script>'), 'evil.png');
    expect([script.status, script.body.detail]).toEqual([
      415,
      'Attach a PNG, JPEG, WebP or GIF image, or a PDF',
    ]);

    // The upload's url, and any http(s) address, go with a message and come back with it.
    const sent = await ask(owner, {
      bot_id: bot.bot_id,
      message: 'Here is the photo and the catalogue',
      attachments: [
        ok.body,
        {
          name: 'catalogue.pdf',
          url: 'https://shop.example/catalogue.pdf',
          content_type: 'application/pdf',
          size: 10,
        },
      ],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.user_message.attachments.map((a) => a.url)).toEqual([
      ok.body.url,
      'https://shop.example/catalogue.pdf',
    ]);
  });

  it('refuses an attachment url that is not http(s) or an upload with 400, storing nothing', async () => {
    const ownConversations = () =>
      server.database.db.select().from(conversations).where(eq(conversations.tenantId, owner.user.tenant_id));
    const before = (await ownConversations()).length;
    for (const url of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '/api/auth/logout',
      '/api/chat/attachments/../../auth/user',
      '//evil.example/x.png',
      'photo.png',
    ]) {
      const attachments = [{ name: 'photo.png', url, content_type: 'image/png', size: 1 }];
      const reply = await ask(owner, { bot_id: bot.bot_id, message: 'Look at this', attachments });
      expect(reply.status, url).toBe(400);
      expect((reply.body as unknown as { detail: string }).detail).toBe(
        'Attachment url must be an http(s) address or a file uploaded with /chat/upload-file',
      );
      const streamed = await fetch(`${server.url}/api/chat/chats/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ bot_id: bot.bot_id, message: 'Look at this', attachments }),
      });
      expect(streamed.status, url).toBe(400);
    }
    expect((await ownConversations()).length).toBe(before);
  });
});

describe('the conversations lists', () => {
  it("page the workspace's conversations latest first, by user and bot, each as toConversation maps it", async () => {
    const team = await signupOwner(server);
    const one = await createBot(team, { bot_name: 'One' });
    const two = await createBot(team, { bot_name: 'Two' });
    // Within the last hours: a conversation idle for a day is closed by the sweep (every
    // HELPDESK_SWEEP_MS), which would change the human-held row between its insert and the lists.
    const hourAgo = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const at = (minute: number) => new Date(hourAgo + minute * 60_000 + 123);
    const mine = { tenantId: team.user.tenant_id, userId: team.user.id };
    const rows = await server.database.db
      .insert(conversations)
      .values([
        { ...mine, botId: one.bot_id, name: 'Oldest', lastMessageAt: at(1) },
        { ...mine, botId: one.bot_id, name: 'Newest', lastMessageAt: at(9), userProfile: { name: 'Me' } },
        {
          ...mine,
          botId: one.bot_id,
          name: 'Middle',
          lastMessageAt: at(5),
          channel: 'whatsapp',
          visitorId: '15550100',
          whatsappPhoneNumberId: 'pn-1',
          handoffState: 'human' as const,
          isHelpdeskInControl: true,
          adminId: team.user.id,
          adminName: 'Team',
          unreadCount: 2,
          lastSeq: 7,
        },
        { ...mine, botId: two.bot_id, name: 'Other bot', lastMessageAt: at(7) },
        { ...mine, userId: null, botId: one.bot_id, visitorId: 'v-1', name: 'Visitor', lastMessageAt: at(8) },
      ])
      .returning();
    const named = (...names: string[]) =>
      names.map((name) => toConversation(rows.find((r) => r.name === name)!));
    const list = async (path: string) => {
      const reply = await server.get<Conversation[]>(path, as(team));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    };
    const ofBot = `/api/chat/chats/user/${team.user.id}/bot/${one.bot_id}`;
    expect(await list(ofBot)).toEqual(named('Newest', 'Middle', 'Oldest'));
    expect(await list(`${ofBot}?skip=1&limit=1`)).toEqual(named('Middle'));
    expect(await list(`${ofBot}?skip=3`)).toEqual([]);
    expect(await list(`/api/chat/chats/user/${team.user.id}`)).toEqual(
      named('Newest', 'Other bot', 'Middle', 'Oldest'),
    );
    expect(await list(`/api/chat/chats?bot_id=${one.bot_id}&limit=2`)).toEqual(named('Newest', 'Visitor'));
  });
});

describe("another workspace's conversations and permissions", () => {
  it('answer 404 to another workspace and 403 without the Create Bot grant', async () => {
    const mine = await ask(owner, { bot_id: bot.bot_id, message: 'Do you ship abroad?' });
    const id = mine.body.conversation_id;
    expect((await server.get(`/api/chat/chats/${id}`, as(other))).status).toBe(404);
    expect((await server.get(`/api/chat/chats/conversation/${id}`, as(other))).status).toBe(404);
    expect((await server.delete(`/api/chat/chats/conversation/${id}`, as(other))).status).toBe(404);
    expect((await ask(other, { bot_id: bot.bot_id, message: 'hi' })).status).toBe(404);
    const otherBot = await createBot(other, { bot_name: 'Theirs' });
    expect((await ask(other, { bot_id: otherBot.bot_id, message: 'hi', conversation_id: id })).status).toBe(
      404,
    );
    expect((await server.get(`/api/chat/message-limit/${owner.user.tenant_id}`, as(other))).status).toBe(404);
    const theirList = await server.get<unknown[]>('/api/chat/chats', as(other));
    expect(theirList.body.some((c) => (c as { id: number }).id === id)).toBe(false);
    expect((await server.get<unknown[]>(`/api/chat/chats/user/${owner.user.id}`, as(other))).body).toEqual(
      [],
    );
    expect(
      (await server.get<unknown[]>(`/api/chat/chats/user/${owner.user.id}/bot/${bot.bot_id}`, as(other)))
        .body,
    ).toEqual([]);

    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await ask(member, { bot_id: bot.bot_id, message: 'hi' })).status).toBe(403);
    expect((await server.get(`/api/chat/chats/${id}`, as(member))).status).toBe(403);

    const deleted = await server.delete(`/api/chat/chats/conversation/${id}`, as(owner));
    expect(deleted.status).toBe(200);
    expect((await server.get(`/api/chat/chats/${id}`, as(owner))).status).toBe(404);
  });
});

describe('booking', () => {
  const BOOKING = {
    provider: 'cal',
    title: 'Book a demo',
    url: 'https://cal.com/acme/demo',
    message: 'Pick a time that suits you.',
  };
  const ACTION = { type: 'booking', title: 'Book a demo', url: 'https://cal.com/acme/demo', provider: 'cal' };

  it('answers a request to book with the configured message and button, without a model', async () => {
    const booked = await createBot(owner, { bot_name: 'Booking helper' });
    expect(
      (await server.post(`/api/bots/${booked.bot_id}/calendar-booking`, BOOKING, as(owner))).status,
    ).toBe(200);
    const reply = await ask(owner, { bot_id: booked.bot_id, message: 'Can I book a demo next week?' });
    expect(reply.body.bot_message).toMatchObject({
      message: BOOKING.message,
      answer_mode: 'booking',
      actions: [ACTION],
    });
    // Without a booking configured the same words get no booking button.
    const plain = await ask(owner, { bot_id: bot.bot_id, message: 'Can I book a demo next week?' });
    expect(plain.body.bot_message!.actions.filter((a) => a.type === 'booking')).toEqual([]);
  });

  it('answers from the sources a question whose words of booking are nouns, without a model', async () => {
    const shop = await createBot(owner, { bot_name: 'Bookshop' });
    await server.post(`/api/bots/${shop.bot_id}/calendar-booking`, BOOKING, as(owner));
    await attachDocument(server, owner, shop.bot_id, {
      title: 'Books and events',
      url: 'https://books.example/help',
      text: 'We have the book Dune by Frank Herbert in paperback for $12.\n\nYou can cancel a booking for an author event for free up to 24 hours before the event.',
    });
    const dune = await ask(owner, { bot_id: shop.bot_id, message: 'Do you sell the book Dune?' });
    expect(dune.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(dune.body.bot_message!.message).toContain('$12');
    const policy = await ask(owner, {
      bot_id: shop.bot_id,
      message: 'What is your cancellation policy for a booking?',
    });
    expect(policy.body.bot_message!.message).toContain('up to 24 hours before');
    // Asked to book, it still gives the button at once.
    const request = await ask(owner, { bot_id: shop.bot_id, message: 'How do I book a visit?' });
    expect(request.body.bot_message).toMatchObject({ answer_mode: 'booking', actions: [ACTION] });
  });

  it("applies a bot's new settings and booking to the very next message (the bot cache is emptied)", async () => {
    const changing = await createBot(owner, { bot_name: 'Changing bot' });
    const first = await ask(owner, { bot_id: changing.bot_id, message: 'Can I book a demo next week?' });
    expect(first.body.bot_message!.actions.filter((a) => a.type === 'booking')).toEqual([]);
    await server.post(`/api/bots/${changing.bot_id}/calendar-booking`, BOOKING, as(owner));
    const booked = await ask(owner, { bot_id: changing.bot_id, message: 'Can I book a demo next week?' });
    expect(booked.body.bot_message).toMatchObject({ answer_mode: 'booking', actions: [ACTION] });
    await server.delete(`/api/bots/${changing.bot_id}/calendar-booking`, as(owner));
    const unbooked = await ask(owner, { bot_id: changing.bot_id, message: 'Can I book a demo next week?' });
    expect(unbooked.body.bot_message!.actions.filter((a) => a.type === 'booking')).toEqual([]);

    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Later',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-later-1234',
      },
      as(owner),
    );
    await attachKnowledge(owner, changing.bot_id);
    await updateBot(owner, changing.bot_id, {
      llm_model: String(setting.body.id),
      prompt: 'Speak like a pirate.',
    });
    const before = llm.requests.length;
    await ask(owner, { bot_id: changing.bot_id, message: 'How long does shipping to Canada take?' });
    expect(llm.requests.length).toBe(before + 1);
    expect(String(llm.requests.at(-1)!.body.messages![0]!.content)).toContain('Speak like a pirate.');

    // Its model switched off: the next answer quotes the passages, the model is not asked.
    await server.patch(`/api/settings/llm/${setting.body.id}/toggle/false`, undefined, as(owner));
    const quoted = await ask(owner, {
      bot_id: changing.bot_id,
      message: 'How long does shipping to Canada take?',
    });
    expect(quoted.body.bot_message!.answer_mode).toBe('extractive');
    expect(llm.requests.length).toBe(before + 1);
  });

  it('lets the model call the booking tool', async () => {
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Booker',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-key-5555',
      },
      as(owner),
    );
    const booked = await createBot(owner, { bot_name: 'Model booker', llm_model: String(setting.body.id) });
    await attachKnowledge(owner, booked.bot_id);
    await server.post(`/api/bots/${booked.bot_id}/calendar-booking`, BOOKING, as(owner));
    llm.callToolNext('show_booking_button');
    const reply = await ask(owner, {
      bot_id: booked.bot_id,
      message: 'I would like to talk about shipping to Canada with someone',
    });
    expect(reply.body.bot_message).toMatchObject({
      message: BOOKING.message,
      answer_mode: 'booking',
      actions: [ACTION],
    });
    const tools = llm.requests.at(-1)!.body.tools as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual(['show_booking_button', 'hand_to_person']);
    // Its words go with the button only when their figures are the sources': a made-up fee is not said.
    llm.callToolNext('show_booking_button', {}, 'A call costs $35, book it here.');
    const priced = await ask(owner, {
      bot_id: booked.bot_id,
      message: 'I would like to talk about shipping to Canada with someone',
    });
    expect(priced.body.bot_message).toMatchObject({ message: BOOKING.message, answer_mode: 'booking' });
    llm.callToolNext('show_booking_button', {}, 'Happy to help, book a call here.');
    const plain = await ask(owner, {
      bot_id: booked.bot_id,
      message: 'I would like to talk about shipping to Canada with someone',
    });
    expect(plain.body.bot_message).toMatchObject({
      message: 'Happy to help, book a call here.',
      answer_mode: 'booking',
    });
  });

  it('lets the model hand the visitor to a person when they ask for one in words it understands', async () => {
    const setting = await server.post<{ id: number }>(
      '/api/settings/llm',
      {
        name: 'Handoff',
        provider: 'openai-compatible',
        base_url: llm.url,
        model: 'tiny',
        api_key: 'sk-test-6666',
      },
      as(owner),
    );
    const helper = await createBot(owner, {
      bot_name: 'Model handoff',
      llm_model: String(setting.body.id),
      handoff_confidence: '0',
    });
    await attachKnowledge(owner, helper.bot_id);
    llm.callToolNext('hand_to_person');
    // Not a phrase the intent list knows: the model decides.
    const reply = await ask(owner, {
      bot_id: helper.bot_id,
      message: 'Is there anyone real over there about Canada?',
    });
    expect(reply.body.bot_message).toMatchObject({
      message_type: 'system',
      handoff: { from: 'bot', to: 'human_requested', reason: 'visitor_asked' },
    });
    const tools = llm.requests.at(-1)!.body.tools as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual(['hand_to_person']);
  });
});

describe('embedding on other sites', () => {
  it('serves /widget.js to any site once built', async () => {
    const missing = await server.get('/widget.js');
    expect([missing.status, missing.body]).toEqual([404, { detail: 'The widget is not built' }]);
    await writeFile(path.join(widgetDir, 'widget.js'), '(()=>{})();');
    const script = await fetch(`${server.url}/widget.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('application/javascript');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await script.text()).toBe('(()=>{})();');
    await rm(path.join(widgetDir, 'widget.js'));
  });

  it('opens the widget endpoints to any origin and keeps the console API closed', async () => {
    // The visitor's identity, and the contact form of a visitor nobody could come to.
    for (const endpoint of ['/api/chat/visitor', '/api/chat/conversations/12/contact']) {
      const preflight = await fetch(`${server.url}${endpoint}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status, endpoint).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin'), endpoint).toBe('*');
    }
    const consolePreflight = await fetch(`${server.url}/api/auth/user`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(consolePreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives visitors an identity only on the sites a bot allows', async () => {
    const strict = await createBot(owner, {
      bot_name: 'Strict',
      allowed_origins: JSON.stringify(['https://Shop.example']),
    });
    expect(strict.allowed_origins).toEqual(['https://shop.example']);
    const from = (origin: string) =>
      server.post<VisitorIdentity & { detail?: string }>(
        '/api/chat/visitor',
        { bot_uuid: strict.uuid },
        { headers: { origin } },
      );
    expect((await from('https://shop.example')).status).toBe(200);
    expect((await from('http://parley.test')).status).toBe(200);
    const refused = await from('https://evil.example');
    expect([refused.status, refused.body.detail]).toEqual([
      403,
      'This site is not allowed to embed this bot',
    ]);

    const identity = (await from('https://shop.example')).body;
    const url = `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.visitor_token}`;
    const evil = new WebSocket(url, { origin: 'https://evil.example' });
    const frames: unknown[] = [];
    evil.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
    const code = await new Promise<number>((resolve) => evil.on('close', (c) => resolve(c)));
    expect([code, frames]).toEqual([4401, [{ error: 'Not authenticated' }]]);

    const bad = await createBotRaw(owner, {
      bot_name: 'Bad origins',
      allowed_origins: JSON.stringify(['https://shop.example/path']),
    });
    expect([bad.status, bad.body.detail]).toEqual([
      400,
      'An allowed origin looks like https://shop.example (no path)',
    ]);
  });
});

async function createBotRaw(account: Account, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as { detail?: string } };
}
