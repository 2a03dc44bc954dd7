import type {
  AnalyticsInsights,
  AnalyticsOverview,
  AnalyticsRevenue,
  Bot,
  ConversationWithMessages,
  HomeSummary,
  RatingResponse,
  UnansweredGroup,
  VisitorIdentity,
} from '@parley/contracts';
import { ChatMessage } from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, TEST_SECRET, type TestServer } from '../../test/server.js';
import { leads } from '../bots/bots.schema.js';
import { conversations, messages } from '../chat/chat.schema.js';
import { storeRecords, stores } from '../stores/stores.schema.js';
import { analyticsDaily, bookingClicks, messageRatings } from './analytics.schema.js';
import { RaterKeys } from './rater.js';
import { attribute, attributor, toMinor } from './revenue.js';
import { rollUpTenant, rollupCutoff } from './rollup.js';

let server: TestServer;
const as = (account: Account) => ({ token: account.access_token });
const ORIGIN = { origin: 'https://shop.example.com' };
const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

type Visit = {
  token: string;
  visitorId: string;
  conversationId: number;
  answerId: number;
  mode: string | null;
};

/** A visitor of the bot's widget asks over the chat socket; resolves once the bot's answer is stored. */
async function visitorAsks(bot: Bot, question: string): Promise<Visit> {
  const identity = await server.post<VisitorIdentity>(
    '/api/chat/visitor',
    { bot_uuid: bot.uuid },
    { headers: ORIGIN },
  );
  expect(identity.status).toBe(200);
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
    { headers: ORIGIN },
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({
      content: { bot_id: bot.bot_id, conversation_id: 0, message: question, message_type: 'user' },
      elements: [],
    }),
  );
  const answered = () =>
    server.database.db
      .select({ id: messages.id, conversationId: messages.conversationId, metadata: messages.metadata })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          eq(conversations.visitorId, identity.body.visitor_id),
          eq(messages.messageType, 'bot'),
          sql`${messages.metadata}->>'answer_mode' IS NOT NULL`,
        ),
      );
  let [row] = await answered();
  try {
    for (const started = Date.now(); !row && Date.now() - started < 15_000; [row] = await answered())
      await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    socket.close();
  }
  if (!row) throw new Error(`no answer to "${question}"`);
  return {
    token: identity.body.visitor_token,
    visitorId: identity.body.visitor_id,
    conversationId: row!.conversationId,
    answerId: row!.id,
    mode: (row!.metadata as { answer_mode?: string } | null)?.answer_mode ?? null,
  };
}

async function overview(account: Account, query = ''): Promise<AnalyticsOverview> {
  const reply = await server.get<AnalyticsOverview>(`/api/analytics/overview${query}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

async function insights(account: Account, query = ''): Promise<AnalyticsInsights> {
  const reply = await server.get<AnalyticsInsights>(`/api/analytics/insights${query}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const rate = (
  body: Record<string, unknown>,
  options: { token?: string; headers?: Record<string, string> } = {},
) => server.post<RatingResponse>('/api/analytics/ratings', body, { headers: ORIGIN, ...options });

/** A conversation of `days` ago with a visitor question and a bot answer, written as the chat writes them. */
async function pastConversation(
  tenantId: number,
  bot: Bot,
  days: number,
  question: string,
  mode: string,
  unverified?: string[],
) {
  const at = daysAgo(days);
  const [conversation] = await server.database.db
    .insert(conversations)
    .values({
      tenantId,
      botId: bot.bot_id,
      visitorId: `v_past_${days}`,
      name: question,
      createdAt: at,
      lastMessageAt: at,
    })
    .returning();
  await server.database.db.insert(messages).values([
    {
      tenantId,
      conversationId: conversation!.id,
      botId: bot.bot_id,
      seq: 1,
      messageType: 'user',
      message: question,
      createdAt: at,
    },
    {
      tenantId,
      conversationId: conversation!.id,
      botId: bot.bot_id,
      seq: 2,
      messageType: 'bot',
      message: 'From the guide.',
      sources: [
        {
          source_type: 'web',
          page_url: 'https://docs.example.com/guide',
          page_title: 'Guide',
          page_number: null,
        },
      ],
      metadata: { answer_mode: mode, ...(unverified ? { unverified } : {}) },
      createdAt: at,
    },
  ]);
  return conversation!;
}

let owner: Account;
let stranger: Account;
let helpBot: Bot;
let trackedBot: Bot;
let qnaVisit: Visit;
let lostVisit: Visit;
let trackedVisit: Visit;
let playgroundAnswerId: number;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  stranger = await signupOwner(server);
  helpBot = await createBotViaApi(server, owner, { bot_name: 'Help_bot', description: 'Answers' });
  trackedBot = await createBotViaApi(server, owner, {
    bot_name: 'Tracked_bot',
    description: 'Counts',
    analytics: 'true',
  });
  const pair = await server.post(
    '/api/qna/',
    { bot_id: helpBot.bot_id, question: 'When do you open?', answer: 'At nine.' },
    as(owner),
  );
  expect(pair.status).toBe(201);
  // The pair answers once its training job ran: asked before, the answer would be "not found".
  const trained = async () =>
    (await server.get<{ trained: boolean }[]>(`/api/qna/?bot_id=${helpBot.bot_id}`, as(owner))).body[0]
      ?.trained === true;
  for (const started = Date.now(); !(await trained()); ) {
    if (Date.now() - started > 15_000) throw new Error('the Q&A pair was not trained');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  qnaVisit = await visitorAsks(helpBot, 'When do you open?');
  lostVisit = await visitorAsks(helpBot, 'Do you sell submarines?');
  trackedVisit = await visitorAsks(trackedBot, 'When do you open?');
  const chat = await server.post<{ bot_message: { id: number } }>(
    '/api/chat/chats',
    { bot_id: trackedBot.bot_id, message: 'Hello from the playground' },
    as(owner),
  );
  expect(chat.status).toBe(200);
  playgroundAnswerId = chat.body.bot_message.id;
  // The stranger's own workspace has activity too: none of it may show in the owner's figures.
  const theirs = await createBotViaApi(server, stranger, { bot_name: 'Their_bot', description: 'x' });
  await visitorAsks(theirs, 'Secret question of theirs');
}, 90_000);
afterAll(() => server?.close());

describe('GET /api/analytics/overview', () => {
  it('needs a session, and read on Analytics', async () => {
    expect((await server.get('/api/analytics/overview')).status).toBe(401);
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const agent = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    for (const path of ['overview', 'insights', 'revenue', 'export.csv']) {
      const reply = await server.get(`/api/analytics/${path}`, as(agent));
      expect(reply.status, path).toBe(403);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
  });

  it("counts the period's real conversations, messages and who answered them", async () => {
    expect(qnaVisit.mode).toBe('qna');
    expect(lostVisit.mode).toBe('not_found');
    const figures = await overview(owner);
    expect(figures.period).toEqual({
      from: new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10),
      to: today(),
    });
    // Three visitors: the owner's playground chat is a test, left out of every figure.
    expect(figures.conversations).toBe(3);
    expect(figures.visitor_messages).toBe(3);
    // Only the help bot has the Q&A pair: the tracked bot finds nothing.
    expect(figures.answers).toEqual({ bot: 0, not_sure: 0, qna: 1, agents: 0, unanswered: 2, held_back: 0 });
    expect(figures.answer_rate).toBe(1 / 3);
    expect(figures.levels).toEqual({ basic: true, advanced: true, dashboard: true });
    // Each conversation: welcome, question, answer.
    expect(figures.messages).toBe(9);
    expect(figures.daily).toEqual([{ day: today(), channel: 'web', conversations: 3, messages: 9 }]);
  });

  it('narrows to one bot, and answers 404 for a bot of another workspace or none', async () => {
    const tracked = await overview(owner, `?bot_id=${trackedBot.bot_id}`);
    expect(tracked.bot_id).toBe(trackedBot.bot_id);
    expect(tracked.conversations).toBe(1);
    expect(tracked.answers).toEqual({ bot: 0, not_sure: 0, qna: 0, agents: 0, unanswered: 1, held_back: 0 });
    const theirBot = await server.get<Bot[]>(`/api/chat/bots/user/${stranger.user.id}`, as(stranger));
    for (const id of [theirBot.body[0]!.bot_id, 99_999_999]) {
      const reply = await server.get(`/api/analytics/overview?bot_id=${id}`, as(owner));
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ detail: 'Bot not found' });
    }
  });

  it('refuses a bad period with a detail', async () => {
    for (const query of [
      '?from=2026-13-01',
      '?from=2026-02-30',
      '?to=0000-01-01',
      '?to=9999-12-31',
      '?from=2026-02-01&to=2026-01-01',
      '?from=2024-01-01&to=2026-01-01',
      '?bot_id=abc',
    ]) {
      const reply = await server.get(`/api/analytics/overview${query}`, as(owner));
      expect(reply.status, query).toBe(400);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('reads closed days from the rollup with the same figures as counting them live', async () => {
    const tenantId = owner.user.tenant_id;
    // Given instead of a model's answer that stated a figure no source holds.
    await pastConversation(tenantId, helpBot, 10, 'How do I reset it?', 'extractive', ['$17']);
    await pastConversation(tenantId, helpBot, 12, 'How do I reset it', 'unsure');
    const from = daysAgo(13).toISOString().slice(0, 10);
    const to = daysAgo(9).toISOString().slice(0, 10);
    const live = await overview(owner, `?from=${from}&to=${to}`);
    expect(live).toMatchObject({
      conversations: 2,
      messages: 4,
      answers: { bot: 1, not_sure: 1, qna: 0, agents: 0, unanswered: 0, held_back: 1 },
    });
    expect((await overview(owner, `?from=${today()}&to=${today()}`)).conversations).toBe(3);

    await rollUpTenant(server.database.db, tenantId, rollupCutoff(new Date()));
    const stored = await server.database.db
      .select()
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.tenantId, tenantId), eq(analyticsDaily.metric, 'conversations')));
    expect(stored.map((row) => row.value)).toEqual([1, 1]);
    expect(await overview(owner, `?from=${from}&to=${to}`)).toEqual(live);
    // Rolling again changes nothing.
    await rollUpTenant(server.database.db, tenantId, rollupCutoff(new Date()));
    expect(await overview(owner, `?from=${from}&to=${to}`)).toEqual(live);
    // The scheduled task finds every workspace behind the cutoff: the stranger's, whose first
    // message is today, is marked rolled up to today (nothing before it to roll).
    await server.parley.scheduler.tick();
    const states = (await server.database.db.execute(
      sql`SELECT rolled_until::text AS day FROM analytics_rollup_state WHERE tenant_id = ${stranger.user.tenant_id}`,
    )) as unknown as { rows: Array<{ day: string }> };
    expect(states.rows).toEqual([{ day: today() }]);
    expect((await overview(stranger)).conversations).toBe(1);
    const questions = await insights(owner, `?from=${from}&to=${to}`);
    expect(questions.top_questions).toEqual([{ text: 'how do i reset it', count: 2 }]);
    expect(questions.sources_cited).toEqual([
      { title: 'Guide', url: 'https://docs.example.com/guide', source_type: 'web', count: 2 },
    ]);
  });
});

describe('ratings', () => {
  it("is open to the widget on customers' sites (CORS without credentials)", async () => {
    for (const path of ['/api/analytics/ratings', '/api/analytics/booking-clicks']) {
      const preflight = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          ...ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it('keeps one rating per visitor and message, changeable and removable', async () => {
    const up = await rate({ message_id: qnaVisit.answerId, rating: 'up', visitor_token: qnaVisit.token });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toEqual({ message_id: qnaVisit.answerId, rating: 'up' });
    expect(
      (await rate({ message_id: qnaVisit.answerId, rating: 'down', visitor_token: qnaVisit.token })).status,
    ).toBe(200);
    let rows = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, qnaVisit.answerId));
    expect(rows.map((row) => row.rating)).toEqual([-1]);
    expect(
      (await rate({ message_id: qnaVisit.answerId, rating: null, visitor_token: qnaVisit.token })).body
        .rating,
    ).toBeNull();
    rows = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, qnaVisit.answerId));
    expect(rows).toEqual([]);
  });

  it("puts the question of an answer a visitor rated down in the owner's queue, not among the unanswered", async () => {
    // A workspace of its own, so that its visits leave the owner's figures as the other tests count them.
    const shop = await signupOwner(server);
    const bot = await createBotViaApi(server, shop, { bot_name: 'Rated_bot', description: 'x' });
    await server.post(
      '/api/qna/',
      { bot_id: bot.bot_id, question: 'Do you deliver?', answer: 'No.' },
      as(shop),
    );
    const trained = async () =>
      (await server.get<{ trained: boolean }[]>(`/api/qna/?bot_id=${bot.bot_id}`, as(shop))).body[0]?.trained;
    await expect.poll(trained, { timeout: 15_000 }).toBe(true);
    const queue = async () =>
      (await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${bot.bot_id}`, as(shop))).body;

    const answered = await visitorAsks(bot, 'Do you deliver?');
    expect(answered.mode).toBe('qna');
    await rate({ message_id: answered.answerId, rating: 'down', visitor_token: answered.token });
    const queued = [{ question: 'Do you deliver?', asked_count: 1, rated_unhelpful: true }];
    expect(await queue()).toMatchObject(queued);
    // Taken back (up, or no rating), it leaves the queue; rated down again, it is back.
    await rate({ message_id: answered.answerId, rating: 'up', visitor_token: answered.token });
    expect(await queue()).toEqual([]);
    await rate({ message_id: answered.answerId, rating: 'down', visitor_token: answered.token });
    await rate({ message_id: answered.answerId, rating: null, visitor_token: answered.token });
    expect(await queue()).toEqual([]);
    await rate({ message_id: answered.answerId, rating: 'down', visitor_token: answered.token });
    expect(await queue()).toMatchObject(queued);

    // A thumbs down on "not found" adds nothing: that question is queued already, and counted once.
    const lost = await visitorAsks(bot, 'Do you sell submarines?');
    expect(lost.mode).toBe('not_found');
    await rate({ message_id: lost.answerId, rating: 'down', visitor_token: lost.token });
    expect((await queue()).find((group) => group.question === 'Do you sell submarines?')).toMatchObject({
      asked_count: 1,
      rated_unhelpful: false,
    });
    // The bot did answer the first: the insights' unanswered questions leave it out.
    const unanswered = (await insights(shop, `?from=${today()}`)).unanswered_questions.map((q) => q.text);
    expect(unanswered).toEqual(['Do you sell submarines?']);
  });

  it('stores who rated only for bots whose analytics flag collects visitor details', async () => {
    await rate({ message_id: qnaVisit.answerId, rating: 'up', visitor_token: qnaVisit.token });
    await rate({ message_id: trackedVisit.answerId, rating: 'up', visitor_token: trackedVisit.token });
    const [untracked] = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, qnaVisit.answerId));
    const [tracked] = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, trackedVisit.answerId));
    expect(untracked!.visitorId).toBeNull();
    expect(tracked!.visitorId).toBe(trackedVisit.visitorId);
    expect(untracked!.raterKey).not.toContain(qnaVisit.visitorId);
    // Distinct visitors are counted only for the bots that collect them.
    expect((await overview(owner)).visitors).toBe(1);
  });

  it('lets the owner rate answers of their own playground chat, kept out of satisfaction', async () => {
    const reply = await rate(
      { message_id: playgroundAnswerId, rating: 'down' },
      { token: owner.access_token },
    );
    expect(reply.status).toBe(200);
    const satisfaction = (await insights(owner)).satisfaction;
    // The owner trying their bot is no visitor: their thumbs count for nobody's satisfaction.
    expect(satisfaction).toEqual({ up: 2, down: 0, score: 1 });
  });

  it("answers 404 for someone else's answer, a question, or another workspace's user", async () => {
    const cases = [
      // Another visitor's answer.
      rate({ message_id: lostVisit.answerId, rating: 'up', visitor_token: qnaVisit.token }),
      // A visitor's own question is not an answer.
      rate({ message_id: qnaVisit.answerId - 1, rating: 'up', visitor_token: qnaVisit.token }),
      rate({ message_id: 99_999_999, rating: 'up', visitor_token: qnaVisit.token }),
      rate({ message_id: playgroundAnswerId, rating: 'up' }, { token: stranger.access_token }),
      rate({ message_id: qnaVisit.answerId, rating: 'up' }),
      rate({ message_id: qnaVisit.answerId, rating: 'up', visitor_token: 'not-a-token' }),
    ];
    for (const reply of await Promise.all(cases)) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
    const before = await server.database.db.select().from(messageRatings);
    const bad = await rate({ message_id: qnaVisit.answerId, rating: 'meh', visitor_token: qnaVisit.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: expect.any(String) });
    expect(await server.database.db.select().from(messageRatings)).toEqual(before);
  });
});

/**
 * What a reload of the widget shows: the chat socket's resume after seq 0 with the visitor's token.
 * Resolves with every message of the conversation (each checked against the contract), or rejects
 * with the socket's error frame.
 */
async function widgetHistory(token: string, conversationId: number): Promise<ChatMessage[]> {
  const [conversation] = await server.database.db
    .select({ lastSeq: conversations.lastSeq })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${token}`, {
    headers: ORIGIN,
  });
  const received = new Map<number, ChatMessage>();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the history did not come')), 10_000);
      socket.on('message', (raw) => {
        const frame = JSON.parse(raw.toString()) as { error?: string; final_result_object?: unknown };
        if (frame.error) reject(new Error(frame.error));
        if (!frame.final_result_object) return;
        const message = ChatMessage.parse(frame.final_result_object);
        if (message.conversation_id === conversationId) received.set(message.seq, message);
        if (received.size === conversation!.lastSeq) {
          clearTimeout(timer);
          resolve();
        }
      });
      socket.once('open', () =>
        socket.send(JSON.stringify({ type: 'resume', conversation_id: conversationId, after_seq: 0 })),
      );
      socket.once('error', reject);
    });
  } finally {
    socket.close();
  }
  return [...received.values()].sort((a, b) => a.seq - b.seq);
}

const ratingOf = (history: ChatMessage[], messageId: number) => {
  const copies = history.filter((message) => message.id === messageId);
  expect(copies).toHaveLength(1);
  return copies[0]!.rating;
};

describe('ratings in the history a reload shows', () => {
  // A workspace of its own: its visits must not move the figures the other tests count.
  let shop: Account;
  let plainBot: Bot;
  let countingBot: Bot;
  let first: Visit;
  let second: Visit;
  let counted: Visit;
  beforeAll(async () => {
    shop = await signupOwner(server);
    plainBot = await createBotViaApi(server, shop, { bot_name: 'Plain_bot', description: 'x' });
    countingBot = await createBotViaApi(server, shop, {
      bot_name: 'Counting_bot',
      description: 'x',
      analytics: 'true',
    });
    [first, second, counted] = await Promise.all([
      visitorAsks(plainBot, 'Is the shop open on Sunday?'),
      visitorAsks(plainBot, 'Do you deliver on Sunday?'),
      visitorAsks(countingBot, 'Is parking free?'),
    ]);
  }, 60_000);

  it("brings back the visitor's own rating after a reload, with the analytics flag off (a keyed hash only)", async () => {
    let history = await widgetHistory(first.token, first.conversationId);
    expect(ratingOf(history, first.answerId)).toBeNull();
    await rate({ message_id: first.answerId, rating: 'up', visitor_token: first.token });
    history = await widgetHistory(first.token, first.conversationId);
    expect(ratingOf(history, first.answerId)).toBe('up');
    // Bot messages carry it (the welcome: null); the visitor's own question does not.
    expect(history[0]).toMatchObject({ message_type: 'bot', rating: null });
    const question = history.find((message) => message.message_type === 'user');
    expect(question).toBeDefined();
    expect(question).not.toHaveProperty('rating');
    const [stored] = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, first.answerId));
    expect(stored!.visitorId).toBeNull();

    await rate({ message_id: first.answerId, rating: 'down', visitor_token: first.token });
    expect(ratingOf(await widgetHistory(first.token, first.conversationId), first.answerId)).toBe('down');
    await rate({ message_id: first.answerId, rating: null, visitor_token: first.token });
    expect(ratingOf(await widgetHistory(first.token, first.conversationId), first.answerId)).toBeNull();
  });

  it('brings it back with the analytics flag on (the visitor id kept)', async () => {
    await rate({ message_id: counted.answerId, rating: 'down', visitor_token: counted.token });
    const [stored] = await server.database.db
      .select()
      .from(messageRatings)
      .where(eq(messageRatings.messageId, counted.answerId));
    expect(stored!.visitorId).toBe(counted.visitorId);
    expect(ratingOf(await widgetHistory(counted.token, counted.conversationId), counted.answerId)).toBe(
      'down',
    );
  });

  it("never shows another person's rating of the same answer", async () => {
    await rate({ message_id: first.answerId, rating: 'up', visitor_token: first.token });
    // Another visitor's thumbs on the same answer, keyed as the server keys them.
    await server.database.db.insert(messageRatings).values({
      tenantId: shop.user.tenant_id,
      botId: plainBot.bot_id,
      conversationId: first.conversationId,
      messageId: first.answerId,
      raterKey: new RaterKeys(TEST_SECRET).keyOf({
        kind: 'visitor',
        botId: plainBot.bot_id,
        visitorId: second.visitorId,
      }),
      rating: -1,
    });
    expect(ratingOf(await widgetHistory(first.token, first.conversationId), first.answerId)).toBe('up');
    // The second visitor sees their own answer unrated, and cannot read the first one's conversation.
    expect(ratingOf(await widgetHistory(second.token, second.conversationId), second.answerId)).toBeNull();
    await expect(widgetHistory(second.token, first.conversationId)).rejects.toThrow('Conversation not found');
    // The owner reading the visitor's conversation in the console rated nothing: null, not the visitor's.
    const read = await server.get<ConversationWithMessages>(
      `/api/chat/chats/${first.conversationId}`,
      as(shop),
    );
    expect(read.status).toBe(200);
    expect(ratingOf(read.body.messages, first.answerId)).toBeNull();
  });

  it("brings back the owner's rating in the playground's history, and only theirs", async () => {
    const chat = await server.post<{ conversation_id: number; bot_message: { id: number } }>(
      '/api/chat/chats',
      { bot_id: plainBot.bot_id, message: 'Trying the bot' },
      as(shop),
    );
    expect(chat.status).toBe(200);
    const { conversation_id: conversationId, bot_message: answer } = chat.body;
    expect((await rate({ message_id: answer.id, rating: 'up' }, { token: shop.access_token })).status).toBe(
      200,
    );
    const reload = await server.get<ConversationWithMessages>(`/api/chat/chats/${conversationId}`, as(shop));
    expect(reload.status).toBe(200);
    expect(ratingOf(reload.body.messages, answer.id)).toBe('up');
    const after = await server.get<ChatMessage[]>(`/api/chat/chats/conversation/${conversationId}`, as(shop));
    expect(ratingOf(after.body, answer.id)).toBe('up');
    // A teammate who may read the bots sees the conversation, not the owner's thumbs.
    const role = await createRole(server, shop, { 'Create Bot': { read: true } });
    const teammate = await addTeammate(server, shop, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const theirs = await server.get<ConversationWithMessages>(
      `/api/chat/chats/${conversationId}`,
      as(teammate),
    );
    expect(theirs.status).toBe(200);
    expect(ratingOf(theirs.body.messages, answer.id)).toBeNull();
  });
});

describe('booking clicks', () => {
  it("counts clicks reported by the widget, for the visitor's own conversation only", async () => {
    const before = (await overview(owner)).booking_clicks;
    const click = await server.post(
      '/api/analytics/booking-clicks',
      { visitor_token: trackedVisit.token, conversation_id: trackedVisit.conversationId },
      { headers: ORIGIN },
    );
    expect(click.status, JSON.stringify(click.body)).toBe(201);
    const foreign = await server.post(
      '/api/analytics/booking-clicks',
      { visitor_token: trackedVisit.token, conversation_id: qnaVisit.conversationId },
      { headers: ORIGIN },
    );
    expect(foreign.status).toBe(404);
    const stored = await server.database.db
      .select()
      .from(bookingClicks)
      .where(eq(bookingClicks.botId, trackedBot.bot_id));
    expect(stored.map((row) => row.visitorId)).toContain(trackedVisit.visitorId);
    expect((await overview(owner)).booking_clicks).toBe(before + 1);
    expect((await overview(owner, `?bot_id=${helpBot.bot_id}`)).booking_clicks).toBe(0);
  });
});

describe('insights', () => {
  it('lists the most asked questions, the unanswered ones and satisfaction', async () => {
    const result = await insights(owner, `?from=${today()}`);
    expect(result.top_questions[0]).toEqual({ text: 'when do you open', count: 2 });
    await expect
      .poll(async () => (await insights(owner, `?from=${today()}`)).unanswered_questions.map((q) => q.text), {
        timeout: 10_000,
      })
      .toContain('Do you sell submarines?');
    expect(JSON.stringify(result)).not.toContain('Secret question');
  });
});

describe('revenue', () => {
  it('attributes an order to the last conversation with the same customer within 7 days, as money', async () => {
    const tenantId = owner.user.tenant_id;
    const db = server.database.db;
    await db.insert(leads).values({
      tenantId,
      botId: helpBot.bot_id,
      conversationId: qnaVisit.conversationId,
      name: 'Jane',
      email: 'Jane@Example.com',
      fields: { email: 'Jane@Example.com' },
    });
    const [store] = await db
      .insert(stores)
      .values({
        tenantId,
        platform: 'shopify',
        domain: `s-${tenantId}.myshopify.com`,
        name: 'Shop',
        storefrontUrl: 'https://shop.example.com',
        credentialsSealed: 'x',
      })
      .returning();
    const order = (id: string, email: string, placedAt: Date, total: string) => ({
      tenantId,
      storeId: store!.id,
      kind: 'order' as const,
      externalId: id,
      title: `#${id}`,
      lookupKey: id,
      contentHash: id,
      data: {
        number: `#${id}`,
        email,
        phone: null,
        total,
        refunded: '0.00',
        currency: 'USD',
        placed_at: placedAt.toISOString(),
        cancelled_at: null,
      },
    });
    await db
      .insert(storeRecords)
      .values([
        order('1001', 'jane@example.com', new Date(Date.now() + 60_000), '59.98'),
        order('1002', 'someone@else.com', new Date(Date.now() + 60_000), '10.00'),
      ]);
    const reply = await server.get<AnalyticsRevenue>('/api/analytics/revenue', as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      orders: 1,
      revenue: [{ currency: 'USD', amount_minor: 5998 }],
      by_bot: [
        {
          bot_id: helpBot.bot_id,
          bot_name: 'Help_bot',
          channel: 'web',
          orders: 1,
          revenue: [{ currency: 'USD', amount_minor: 5998 }],
        },
      ],
      leads: 1,
    });
    expect(reply.body.rule).toContain('7 days');
    const other = await server.get<AnalyticsRevenue>(
      `/api/analytics/revenue?bot_id=${trackedBot.bot_id}`,
      as(owner),
    );
    expect(other.body.orders).toBe(0);
    const theirs = await server.get<AnalyticsRevenue>('/api/analytics/revenue', as(stranger));
    expect(theirs.body.orders).toBe(0);
    // Home shows the same money.
    const home = await server.get<HomeSummary>('/api/home/summary', as(owner));
    expect(home.body.analytics).toMatchObject({
      conversations: 5,
      revenue: [{ currency: 'USD', amount_minor: 5998 }],
    });
  });

  it('follows the rule: the last conversation wins, none older than 7 days, phones by their last digits', () => {
    const placedAt = new Date('2026-03-10T12:00:00Z');
    const contact = (
      botId: number,
      started: string,
      last: string,
      email: string | null,
      phone: string | null,
    ) => ({
      botId,
      channel: 'web',
      email,
      phone,
      startedAt: new Date(started),
      lastAt: new Date(last),
    });
    const order = {
      email: 'a@x.com',
      phone: '+1 (415) 555-0100',
      placedAt,
      currency: 'USD',
      amountMinor: 100,
    };
    const contacts = [
      contact(1, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', 'a@x.com', null), // 8 days before
      contact(2, '2026-03-05T00:00:00Z', '2026-03-05T01:00:00Z', 'a@x.com', null),
      contact(3, '2026-03-08T00:00:00Z', '2026-03-08T01:00:00Z', null, '4155550100'),
      contact(4, '2026-03-11T00:00:00Z', '2026-03-11T01:00:00Z', 'a@x.com', null), // after the order
      contact(5, '2026-03-09T00:00:00Z', '2026-03-09T01:00:00Z', 'b@x.com', '4155550199'), // someone else
    ];
    expect(attribute(order, contacts)?.botId).toBe(3);
    // Indexed by email and phone for many orders: the same winner.
    expect(attributor(contacts)(order)?.botId).toBe(3);
    expect(attributor(contacts)({ ...order, email: 'nobody@x.com', phone: null })).toBeNull();
    expect(
      attribute(order, [contact(1, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', 'a@x.com', null)]),
    ).toBeNull();
    expect(toMinor('59.98', 'USD')).toBe(5998);
    expect(toMinor('1500', 'JPY')).toBe(1500);
    expect(toMinor('1.5', 'KWD')).toBe(1500);
    expect(toMinor('abc', 'USD')).toBeNull();
  });
});

describe('GET /api/analytics/export.csv', () => {
  it("gives the period's counts per day and channel as CSV", async () => {
    const response = await fetch(`${server.url}/api/analytics/export.csv?from=${today()}`, {
      headers: { authorization: `Bearer ${owner.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain(`analytics-${today()}-to-${today()}.csv`);
    const lines = (await response.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'day,channel,conversations,messages,visitor_messages,answered_by_bot,answered_not_sure,answered_by_qna,agent_messages,unanswered,handoff_requests,model_answers_held_back',
    );
    expect(lines[1]).toBe(`${today()},web,3,9,3,0,0,1,0,2,0,0`);
  });
});

describe('plans', () => {
  it('gates the levels by the plan when plans limit (Free: counts only)', async () => {
    const limited = await startTestServer({ env: { PLAN_LIMITS: 'on' } });
    try {
      const account = await signupOwner(limited);
      const figures = await limited.get<AnalyticsOverview>('/api/analytics/overview', as(account));
      expect(figures.status).toBe(200);
      expect(figures.body.levels).toEqual({ basic: true, advanced: false, dashboard: false });
      expect(figures.body.daily).toBeNull();
      for (const path of ['insights', 'revenue', 'export.csv']) {
        const reply = await limited.get(`/api/analytics/${path}`, as(account));
        expect(reply.status, path).toBe(402);
        expect(reply.body).toEqual({ detail: expect.any(String) });
      }
      const home = await limited.get<HomeSummary>('/api/home/summary', as(account));
      expect(home.body.analytics).toMatchObject({ conversations: 0, answer_rate: null, revenue: [] });
    } finally {
      await limited.close();
    }
  });
});
