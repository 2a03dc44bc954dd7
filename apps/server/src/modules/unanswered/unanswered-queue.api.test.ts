import type { Bot, NotificationList, QnA, UnansweredGroup, VisitorIdentity } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTrainedPairs, askBot, createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { openVisitor } from '../../test/visitor.js';

/**
 * The unanswered queue as a shop owner lives it in their first month: visitors ask one thing in
 * their own words and typos, sometimes several times in one chat; the owner answers it once, and
 * the next visitor in any of those words gets that answer; a mis-click on Dismiss is undone.
 */
let server: TestServer;
let owner: Account;
let other: Account;
const as = (account: Account) => ({ token: account.access_token });
const HOVE = 'Yes, we deliver to Hove on weekdays for $3.';

/** One visitor's conversation: each question asked in turn, each waiting for the bot's answer. */
async function conversation(bot: Bot, questions: string[]): Promise<{ id: number; modes: string[] }> {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
  );
  const modes: string[] = [];
  let id = 0;
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as {
      final_result_object?: { message_type: string; conversation_id: number; answer_mode: string | null };
    };
    const message = frame.final_result_object;
    if (message?.message_type !== 'bot') return;
    id = message.conversation_id;
    if (message.answer_mode) modes.push(message.answer_mode);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  for (const message of questions) {
    const before = modes.length;
    const content = { bot_id: bot.bot_id, conversation_id: id, message, message_type: 'user' };
    socket.send(JSON.stringify({ content, elements: [] }));
    await expect.poll(() => modes.length, { timeout: 10_000 }).toBe(before + 1);
  }
  socket.close();
  return { id, modes };
}

/** A visitor asks once, in a new conversation: the answer's mode and text. */
async function asks(bot: Bot, question: string) {
  const visitor = await openVisitor(server, bot);
  const reply = await visitor.ask(question);
  visitor.close();
  return reply;
}

const queue = async (account: Account, botId: number) => {
  const reply = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${botId}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const counts = async (botId: number) =>
  (await queue(owner, botId)).map((group) => [group.question, group.asked_count]);
const pairsOf = async (botId: number) =>
  (await server.get<QnA[]>(`/api/qna/?bot_id=${botId}`, as(owner))).body;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
});

describe('a question asked in many wordings', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await createBotViaApi(server, owner, { bot_name: 'Corner bakery' });
  });

  it('groups typos and other forms of its words, and counts a visitor rewording it in one chat once', async () => {
    await asks(bot, 'Do you deliver to Hove?');
    await asks(bot, 'Delivery to Hove?');
    // One visitor, not answered, tries again in other words: one asking, not three.
    const retried = await conversation(bot, ['do u delivr to hove??', 'deliveries to hove', 'hove delivery']);
    expect(retried.modes).toEqual(['not_found', 'not_found', 'not_found']);
    await asks(bot, 'Can I pay with PayPal?');
    await asks(bot, 'Do you have gluten free bread?');
    await asks(bot, 'gluten-free bread?');

    expect(await counts(bot.bot_id)).toEqual([
      ['Do you deliver to Hove?', 3],
      ['Do you have gluten free bread?', 2],
      ['Can I pay with PayPal?', 1],
    ]);
    const [hove] = await queue(owner, bot.bot_id);
    expect(hove!.examples).toEqual(['hove delivery', 'deliveries to hove', 'do u delivr to hove??']);
    // The conversation to read it in: the latest one that asked it.
    expect(hove!.conversation_id).toBe(retried.id);
    // Three conversations asked it: the bell rings once, now.
    const bell = await server.get<NotificationList>('/api/notification/list', as(owner));
    expect(bell.body.notifications.filter((n) => n.kind === 'question_repeated')).toEqual([
      expect.objectContaining({ title: 'Asked 3 times: “Do you deliver to Hove?”' }),
    ]);
  });

  it('answers every wording visitors used once the owner answers it, with no Train press', async () => {
    const [hove] = await queue(owner, bot.bot_id);
    const answered = await server.post<QnA>(
      `/api/unanswered/${hove!.id}/answer`,
      { answer: HOVE },
      as(owner),
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(answered.body).toMatchObject({ question: 'Do you deliver to Hove?', training: true });
    expect(answered.body.alternate_questions).toEqual([
      'Delivery to Hove?',
      'do u delivr to hove??',
      'deliveries to hove',
      'hove delivery',
    ]);
    expect((await counts(bot.bot_id)).map(([question]) => question)).toEqual([
      'Do you have gluten free bread?',
      'Can I pay with PayPal?',
    ]);
    await expect.poll(async () => (await pairsOf(bot.bot_id))[0]?.trained, { timeout: 10_000 }).toBe(true);
    for (const wording of ['do u delivr to hove??', 'hove delivery', 'Delivery to Hove?']) {
      const reply = await asks(bot, wording);
      expect([wording, reply.answer_mode, reply.message]).toEqual([wording, 'qna', HOVE]);
    }
    // Answered: none of them is queued again.
    expect(await counts(bot.bot_id)).toHaveLength(2);
  });

  it('takes the groups asking the same thing, kept apart before, out of the queue with the one answered', async () => {
    const shop = await createBotViaApi(server, owner, { bot_name: 'Split groups' });
    await asks(shop, 'Do you deliver to Hove?');
    await asks(shop, 'Do you sell birthday cakes?');
    // A queue kept from before typos and word forms counted holds the same question apart.
    await server.database.db.execute(
      sql.raw(`insert into unanswered_groups (tenant_id, bot_id, question, terms)
       values (${owner.user.tenant_id}, ${shop.bot_id}, 'Delivery to Hove?', '{deliveri,hove}')`),
    );
    const waiting = await queue(owner, shop.bot_id);
    expect(waiting).toHaveLength(3);
    const hove = waiting.find((group) => group.question === 'Do you deliver to Hove?');
    const answered = await server.post<QnA>(
      `/api/unanswered/${hove!.id}/answer`,
      { answer: HOVE },
      as(owner),
    );
    expect(answered.body.alternate_questions).toEqual(['Delivery to Hove?']);
    expect((await counts(shop.bot_id)).map(([question]) => question)).toEqual([
      'Do you sell birthday cakes?',
    ]);
  });

  it('leaves a wording another pair has to that pair, so the two never tie and neither answers', async () => {
    const shop = await createBotViaApi(server, owner, { bot_name: 'Tied wordings' });
    await addTrainedPairs(server, owner, shop.bot_id, [{ question: 'Do you deliver?', answer: 'Yes.' }]);
    // A visitor rates the pair's answer down: its question is queued, in the pair's own words.
    const visitor = await openVisitor(server, shop);
    const reply = await visitor.ask('Do you deliver?');
    visitor.close();
    expect(reply.answer_mode).toBe('qna');
    const rated = await server.post(
      '/api/analytics/ratings',
      { message_id: reply.id, rating: 'down', visitor_token: visitor.token },
      { headers: { origin: 'https://shop.example.com' } },
    );
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    // The owner's test in the playground: not a visitor, it teaches the queue nothing.
    expect((await askBot(server, owner, shop.bot_id, 'Do you deliver to Lewes?')).status).toBe(200);
    const waiting = await queue(owner, shop.bot_id);
    expect(waiting.map((g) => [g.question, g.rated_unhelpful])).toEqual([['Do you deliver?', true]]);
    const [group] = waiting;

    const answered = await server.post<QnA>(
      `/api/unanswered/${group!.id}/answer`,
      { question: 'Do you deliver to Hove?', answer: HOVE },
      as(owner),
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(answered.body.alternate_questions).toEqual([]);
    expect(await queue(owner, shop.bot_id)).toEqual([]);
  });
});

describe('dismissing, undoing and dismissing in bulk', () => {
  let bot: Bot;
  let groups: UnansweredGroup[];
  beforeAll(async () => {
    bot = await createBotViaApi(server, owner, { bot_name: 'Bulk shop' });
  });
  const byQuestion = (question: string) => groups.find((g) => g.question === question)!.id;

  it('brings a dismissed question back as it was', async () => {
    for (const question of ['asdf qwer', 'Do you sell socks?', 'test test bot', 'Do you buy gold?'])
      await asks(bot, question);
    groups = await queue(owner, bot.bot_id);
    const socks = byQuestion('Do you sell socks?');
    expect((await server.delete(`/api/unanswered/${socks}`, as(owner))).status).toBe(200);
    expect((await counts(bot.bot_id)).map(([q]) => q)).not.toContain('Do you sell socks?');
    const undone = await server.post('/api/unanswered/restore', { ids: [socks] }, as(owner));
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body).toEqual({ message: 'Question restored' });
    expect(await counts(bot.bot_id)).toContainEqual(['Do you sell socks?', 1]);
    // Restoring an open question again changes nothing.
    expect((await server.post('/api/unanswered/restore', { ids: [socks] }, as(owner))).status).toBe(200);
    expect(await queue(owner, bot.bot_id)).toHaveLength(4);
  });

  it('dismisses several at once, all or nothing, and says how many', async () => {
    const junk = [byQuestion('asdf qwer'), byQuestion('test test bot')];
    const bad = await server.post('/api/unanswered/dismiss', { ids: [] }, as(owner));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'Name at least one question' });
    // Another workspace cannot dismiss them, nor hide a foreign id among its own.
    const theirs = await createBotViaApi(server, other, { bot_name: 'Their shop' });
    await asks(theirs, 'Do you rent bikes?');
    const [foreign] = await queue(other, theirs.bot_id);
    expect((await server.post('/api/unanswered/dismiss', { ids: junk }, as(other))).status).toBe(404);
    const mixed = await server.post('/api/unanswered/dismiss', { ids: [...junk, foreign!.id] }, as(owner));
    expect(mixed.status).toBe(404);
    expect(mixed.body).toEqual({ detail: 'Some of these questions were not found' });
    expect(await queue(owner, bot.bot_id)).toHaveLength(4);
    expect(await queue(other, theirs.bot_id)).toHaveLength(1);
    expect((await server.post('/api/unanswered/restore', { ids: [foreign!.id] }, as(owner))).status).toBe(
      404,
    );

    const done = await server.post('/api/unanswered/dismiss', { ids: junk }, as(owner));
    expect(done.body).toEqual({ message: '2 questions dismissed' });
    expect((await counts(bot.bot_id)).map(([q]) => q).sort()).toEqual([
      'Do you buy gold?',
      'Do you sell socks?',
    ]);
    const undone = await server.post('/api/unanswered/restore', { ids: junk }, as(owner));
    expect(undone.body).toEqual({ message: '2 questions restored' });
    expect(await queue(owner, bot.bot_id)).toHaveLength(4);
  });

  it('never brings back a question answered meanwhile', async () => {
    const gold = byQuestion('Do you buy gold?');
    await server.post(`/api/unanswered/${gold}/answer`, { answer: 'No, sorry.' }, as(owner));
    const undone = await server.post('/api/unanswered/restore', { ids: [gold] }, as(owner));
    expect(undone.status).toBe(400);
    expect(undone.body).toEqual({
      detail: 'This question was answered meanwhile: its answer is in the Q&A pairs',
    });
  });

  it('tells how many are open when more wait than the queue lists', async () => {
    const reply = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${bot.bot_id}`, as(owner));
    expect(reply.headers.get('x-total-count')).toBe(String(reply.body.length));
  });
});

describe('a teammate restricted to some bots', () => {
  it("sees and answers only their bots' questions; the others' answer 404, as if they did not exist", async () => {
    const mine = await createBotViaApi(server, owner, { bot_name: 'Their bot' });
    const notMine = await createBotViaApi(server, owner, { bot_name: 'Payroll bot' });
    await asks(mine, 'Do you open on Easter Monday?');
    await asks(notMine, 'When is payday this month?');
    const role = await createRole(server, owner, { 'Create Bot': { read: true, create: true, write: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const restricted = await server.put(
      `/api/auth/bots-assigned/${member.user.id}`,
      { bot_ids: [mine.bot_id], all_bots: false },
      as(owner),
    );
    expect(restricted.status, JSON.stringify(restricted.body)).toBe(200);
    const [payday] = await queue(owner, notMine.bot_id);

    expect((await queue(member, mine.bot_id)).map((g) => g.question)).toEqual([
      'Do you open on Easter Monday?',
    ]);
    const hidden = await server.get(`/api/unanswered/bot/${notMine.bot_id}`, as(member));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'Bot not found' });
    for (const attempt of [
      server.post(`/api/unanswered/${payday!.id}/answer`, { answer: 'The 28th.' }, as(member)),
      server.delete(`/api/unanswered/${payday!.id}`, as(member)),
      server.post('/api/unanswered/dismiss', { ids: [payday!.id] }, as(member)),
    ])
      expect((await attempt).status).toBe(404);
    expect(await queue(owner, notMine.bot_id)).toHaveLength(1);
    expect(await pairsOf(notMine.bot_id)).toEqual([]);
  });
});
