import type { AnalyticsInsights, AnalyticsOverview, Bot, HomeSummary } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { leads } from '../bots/bots.schema.js';
import { conversationEvents, conversations, messages } from '../chat/chat.schema.js';
import { messageRatings } from './analytics.schema.js';
import { rollUpTenant, rollupCutoff } from './rollup.js';

/**
 * A known set of conversations at known instants, and every figure compared with what it must be:
 * the UTC day boundary, the owner's playground (a test, counted nowhere), a restricted teammate,
 * and a rolled-up day that gets a late message.
 */
let server: TestServer;
let owner: Account;
let shopBot: Bot;
let salesBot: Bot;
const as = (account: Account) => ({ token: account.access_token });
const DAY = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
// Two consecutive UTC days, 20 and 19 days ago: closed days the rollup will store.
const first = dayOf(new Date(Date.now() - 20 * DAY));
const second = dayOf(new Date(Date.now() - 19 * DAY));
const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

type Line = { type: 'user' | 'bot' | 'helpdesk'; text: string; at: Date; mode?: string };

/** A conversation written as the chat writes it (messages numbered, the last message's time kept). */
async function conversation(
  bot: Bot,
  started: Date,
  lines: Line[],
  options: { test?: boolean; channel?: string } = {},
) {
  const db = server.database.db;
  const last = lines.at(-1)?.at ?? started;
  const [row] = await db
    .insert(conversations)
    .values({
      tenantId: owner.user.tenant_id,
      botId: bot.bot_id,
      visitorId: options.test ? null : `v_${started.getTime()}`,
      userId: options.test ? owner.user.id : null,
      isTest: options.test ?? false,
      channel: options.channel ?? 'bot',
      name: lines.find((line) => line.type === 'user')?.text ?? 'New Chat',
      createdAt: started,
      lastMessageAt: last,
      lastSeq: lines.length,
    })
    .returning();
  const stored = await db
    .insert(messages)
    .values(
      lines.map((line, index) => ({
        tenantId: owner.user.tenant_id,
        conversationId: row!.id,
        botId: bot.bot_id,
        seq: index + 1,
        messageType: line.type,
        messageSource: options.channel ?? 'bot',
        message: line.text,
        metadata: line.mode ? { answer_mode: line.mode } : null,
        createdAt: line.at,
      })),
    )
    .returning();
  return { id: row!.id, messageIds: stored.map((m) => m.id) };
}

async function overview(account: Account, query: string): Promise<AnalyticsOverview> {
  const reply = await server.get<AnalyticsOverview>(`/api/analytics/overview${query}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

let lateConversation: number;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  shopBot = await createBotViaApi(server, owner, { bot_name: 'Shop_bot', description: 'Shop' });
  salesBot = await createBotViaApi(server, owner, { bot_name: 'Sales_bot', description: 'Sales' });
  // 23:59 on the first day: answered from a Q&A pair.
  lateConversation = (
    await conversation(shopBot, at(first, '23:59:00'), [
      { type: 'user', text: 'When do you open?', at: at(first, '23:59:10') },
      { type: 'bot', text: 'At nine.', at: at(first, '23:59:20'), mode: 'qna' },
    ])
  ).id;
  // 00:01 on the second day: nothing found.
  await conversation(shopBot, at(second, '00:01:00'), [
    { type: 'user', text: 'when do you open', at: at(second, '00:01:10') },
    { type: 'bot', text: 'Sorry.', at: at(second, '00:01:20'), mode: 'not_found' },
  ]);
  // WhatsApp, the sales bot: an answer, a hand-off request, an agent's reply four minutes later.
  const whatsapp = await conversation(
    salesBot,
    at(second, '12:00:00'),
    [
      { type: 'user', text: 'Price of the blue one?', at: at(second, '12:00:10') },
      { type: 'bot', text: 'It is 20.', at: at(second, '12:00:20'), mode: 'llm' },
      { type: 'helpdesk', text: 'Hi, Sam here.', at: at(second, '12:05:00') },
    ],
    { channel: 'whatsapp' },
  );
  await server.database.db.insert(conversationEvents).values({
    tenantId: owner.user.tenant_id,
    conversationId: whatsapp.id,
    fromState: 'bot',
    toState: 'human_requested',
    reason: 'visitor_asked',
    actor: 'visitor',
    createdAt: at(second, '12:01:00'),
  });
  // The owner tries the shop bot in the playground the same day: a test, counted nowhere.
  const test = await conversation(
    shopBot,
    at(second, '10:00:00'),
    [
      { type: 'user', text: 'Testing testing', at: at(second, '10:00:10') },
      { type: 'bot', text: 'At nine.', at: at(second, '10:00:20'), mode: 'qna' },
    ],
    { test: true },
  );
  await server.database.db.insert(conversationEvents).values({
    tenantId: owner.user.tenant_id,
    conversationId: test.id,
    fromState: 'bot',
    toState: 'human_requested',
    reason: 'visitor_asked',
    actor: 'visitor',
    createdAt: at(second, '10:00:30'),
  });
  await server.database.db.insert(leads).values({
    tenantId: owner.user.tenant_id,
    botId: shopBot.bot_id,
    conversationId: test.id,
    email: 'owner@example.com',
    createdAt: at(second, '10:00:40'),
  });
  await server.database.db.insert(messageRatings).values({
    tenantId: owner.user.tenant_id,
    botId: shopBot.bot_id,
    conversationId: test.id,
    messageId: test.messageIds[1]!,
    raterKey: 'owner',
    rating: -1,
    createdAt: at(second, '10:00:50'),
  });
}, 60_000);
afterAll(() => server?.close());

/** What the set above must give, day by day: the playground's chat in none of them. */
const FIRST_DAY = {
  conversations: 1,
  messages: 2,
  visitor_messages: 1,
  answers: { bot: 0, not_sure: 0, qna: 1, agents: 0, unanswered: 0, held_back: 0 },
  answer_rate: 1,
  handoff_requests: 0,
  leads: 0,
};
const SECOND_DAY = {
  conversations: 2,
  messages: 5,
  visitor_messages: 2,
  answers: { bot: 1, not_sure: 0, qna: 0, agents: 1, unanswered: 1, held_back: 0 },
  answer_rate: 2 / 3,
  handoff_requests: 1,
  first_reply_seconds: { mean: 240, answered: 1 },
  leads: 0,
};

describe('the figures of a known set of conversations', () => {
  it('puts 23:59 and 00:01 UTC on their own days, and leaves the playground out of every figure', async () => {
    expect(await overview(owner, `?from=${first}&to=${first}`)).toMatchObject(FIRST_DAY);
    expect(await overview(owner, `?from=${second}&to=${second}`)).toMatchObject(SECOND_DAY);
    const both = await overview(owner, `?from=${first}&to=${second}`);
    expect(both).toMatchObject({ conversations: 3, messages: 7, answer_rate: 3 / 4, handoff_requests: 1 });
    expect(both.daily).toEqual([
      { day: first, channel: 'web', conversations: 1, messages: 2 },
      { day: second, channel: 'web', conversations: 1, messages: 2 },
      { day: second, channel: 'whatsapp', conversations: 1, messages: 3 },
    ]);
    const insight = await server.get<AnalyticsInsights>(
      `/api/analytics/insights?from=${first}&to=${second}`,
      as(owner),
    );
    expect(insight.body.top_questions).toEqual([
      { text: 'when do you open', count: 2 },
      { text: 'price of the blue one', count: 1 },
    ]);
    expect(insight.body.satisfaction).toEqual({ up: 0, down: 0, score: null });
  });

  it('gives the same figures once the days are rolled up, and counts a late message once, on its own day', async () => {
    const tenantId = owner.user.tenant_id;
    await rollUpTenant(server.database.db, tenantId, rollupCutoff(new Date()));
    expect(await overview(owner, `?from=${first}&to=${first}`)).toMatchObject(FIRST_DAY);
    expect(await overview(owner, `?from=${second}&to=${second}`)).toMatchObject(SECOND_DAY);
    // The visitor of the rolled-up first day writes again today.
    const now = new Date();
    await server.database.db.insert(messages).values({
      tenantId,
      conversationId: lateConversation,
      botId: shopBot.bot_id,
      seq: 3,
      messageType: 'user',
      message: 'Still open?',
      createdAt: now,
    });
    await rollUpTenant(server.database.db, tenantId, rollupCutoff(now));
    expect(await overview(owner, `?from=${first}&to=${first}`)).toMatchObject(FIRST_DAY);
    const today = dayOf(now);
    expect(await overview(owner, `?from=${today}&to=${today}`)).toMatchObject({
      conversations: 0,
      messages: 1,
    });
    expect(await overview(owner, `?from=${first}&to=${today}`)).toMatchObject({
      conversations: 3,
      messages: 8,
    });
  });

  it("shows a teammate restricted to some bots only those bots' figures, on Analytics and Home", async () => {
    const role = await createRole(server, owner, { Analytics: { read: true }, Inbox: { read: true } });
    const analyst = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const restrict = await server.put(
      `/api/auth/bots-assigned/${analyst.user.id}`,
      { bot_ids: [salesBot.bot_id] },
      as(owner),
    );
    expect(restrict.status).toBe(200);
    const theirs = await overview(analyst, `?from=${first}&to=${second}`);
    expect(theirs).toMatchObject({
      bot_id: null,
      conversations: 1,
      messages: 3,
      answers: { bot: 1, not_sure: 0, qna: 0, agents: 1, unanswered: 0, held_back: 0 },
      handoff_requests: 1,
    });
    expect({ ...theirs, bot_id: salesBot.bot_id }).toEqual(
      await overview(owner, `?from=${first}&to=${second}&bot_id=${salesBot.bot_id}`),
    );
    for (const path of ['overview', 'insights', 'export.csv']) {
      const other = await server.get(`/api/analytics/${path}?bot_id=${shopBot.bot_id}`, as(analyst));
      expect(other.status, path).toBe(404);
      expect(other.body).toEqual({ detail: 'Bot not found' });
    }
    const insight = await server.get<AnalyticsInsights>(
      `/api/analytics/insights?from=${first}&to=${second}`,
      as(analyst),
    );
    expect(insight.body.top_questions).toEqual([{ text: 'price of the blue one', count: 1 }]);
    const csv = await fetch(`${server.url}/api/analytics/export.csv?from=${first}&to=${second}`, {
      headers: { authorization: `Bearer ${analyst.access_token}` },
    });
    expect((await csv.text()).trim().split('\n').slice(1)).toEqual([
      `${second},whatsapp,1,3,1,1,0,0,1,0,1,0`,
    ]);
    // Home: the last 30 days of their bot, and only its conversations.
    const home = await server.get<HomeSummary>('/api/home/summary', as(analyst));
    expect(home.body.analytics).toMatchObject({ conversations: 1, answer_rate: 1 });
    expect(home.body.conversations?.map((c) => c.bot_id)).toEqual([salesBot.bot_id]);
    const ownerHome = await server.get<HomeSummary>('/api/home/summary', as(owner));
    expect(ownerHome.body.analytics).toMatchObject({ conversations: 3 });
  });
});
