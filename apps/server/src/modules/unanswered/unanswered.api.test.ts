import type { Bot, NotificationList, QnA, UnansweredGroup, VisitorIdentity } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { visitorConversation } from '../../test/visitor.js';
import { appendMessage } from '../chat/chat.queries.js';
import { SMALL_TALK_REPLIES } from '../chat/small-talk.js';
import { forgetQuestion, overlap, SAME_QUESTION } from './unanswered.service.js';

let server: TestServer;
let owner: Account;
let other: Account;
let bot: Bot;

const as = (account: Account) => ({ token: account.access_token });

/** A website visitor asks `question` in the widget and waits for the bot's answer. */
async function visitorAsks(target: Bot, question: string): Promise<string> {
  return (await visitorConversation(server, target, question)).answer;
}

/** A visitor's conversation over one socket: each question waits for the next bot or system reply. */
async function visitorTalk(target: Bot, questions: string[]): Promise<number> {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: target.uuid });
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
  );
  let replies = 0;
  let conversationId = 0;
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as {
      final_result_object?: { message_type: string; conversation_id: number };
    };
    const type = frame.final_result_object?.message_type;
    if (type === 'bot' || type === 'system') {
      replies += 1;
      conversationId = frame.final_result_object!.conversation_id;
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  for (const message of questions) {
    const before = replies;
    socket.send(
      JSON.stringify({
        content: { bot_id: target.bot_id, conversation_id: conversationId, message, message_type: 'user' },
        elements: [],
      }),
    );
    // The first question also gets the welcome message.
    await expect.poll(() => replies, { timeout: 10_000 }).toBeGreaterThan(before + (before === 0 ? 1 : 0));
  }
  socket.close();
  return conversationId;
}

const queue = async (account: Account, botId: number) => {
  const reply = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${botId}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  other = await signupOwner(server);
  bot = await createBotViaApi(server, owner, { bot_name: 'Shoe shop' });
});
afterAll(async () => {
  await server?.close();
});

describe('the queue of unanswered questions', () => {
  it('forgets an unsent question: its group shows another wording, or goes when it was alone', async () => {
    const shop = await createBotViaApi(server, owner, { bot_name: 'Unsend shop' });
    const first = await visitorConversation(server, shop, 'Do you ship to Canada? 4111');
    await visitorAsks(shop, 'do you ship to canada');
    const alone = await visitorConversation(server, shop, 'Can I pay with PayPal? 4111 1111');
    expect((await queue(owner, shop.bot_id)).map((g) => [g.question, g.asked_count])).toEqual([
      ['Do you ship to Canada? 4111', 2],
      ['Can I pay with PayPal? 4111 1111', 1],
    ]);
    const forget = (conversationId: number, question: string) =>
      forgetQuestion(server.database.db, {
        tenantId: owner.user.tenant_id,
        botId: shop.bot_id,
        conversationId,
        question,
      });
    // Another conversation's words are not these.
    await forget(alone.conversationId, 'Do you ship to Canada? 4111');
    expect(await queue(owner, shop.bot_id)).toHaveLength(2);

    await forget(first.conversationId, 'Do you ship to Canada? 4111');
    await forget(alone.conversationId, 'Can I pay with PayPal? 4111 1111');
    const left = await queue(owner, shop.bot_id);
    expect(left.map((g) => [g.question, g.asked_count])).toEqual([['do you ship to canada', 1]]);
    expect(JSON.stringify(left)).not.toContain('4111');
  });

  it('collects what visitors asked and the bot could not answer, near duplicates grouped, with counts', async () => {
    await visitorAsks(bot, 'Do you ship to Canada?');
    await visitorAsks(bot, 'Shipping to Canada?');
    await visitorAsks(bot, 'do you ship to canada');
    await visitorAsks(bot, 'Can I pay with PayPal?');
    // The owner's own test chat in the console is not a visitor's question.
    const test = await server.post(
      '/api/chat/chats',
      { bot_id: bot.bot_id, message: 'Is there a discount code?' },
      as(owner),
    );
    expect(test.status, JSON.stringify(test.body)).toBeLessThan(300);

    const groups = await queue(owner, bot.bot_id);
    expect(groups.map((g) => [g.question, g.asked_count])).toEqual([
      ['Do you ship to Canada?', 3],
      ['Can I pay with PayPal?', 1],
    ]);
    expect(groups[0]!.examples).toEqual(['do you ship to canada', 'Shipping to Canada?']);

    // Asked a third time: the bot's managers are told once, with the way to answer it.
    const bell = await server.get<NotificationList>('/api/notification/list', as(owner));
    const told = bell.body.notifications.filter((n) => n.kind === 'question_repeated');
    expect(told).toEqual([
      expect.objectContaining({
        title: 'Asked 3 times: “Do you ship to Canada?”',
        body: 'Shoe shop did not know, was not sure, or its answer was rated down. Answer it once in Q&A and the bot will from then on.',
        link: `/bot/knowledge/qna?bot=${bot.bot_id}`,
      }),
    ]);
    // A fourth time tells nobody again.
    await visitorAsks(bot, 'shipping to canada??');
    const after = await server.get<NotificationList>('/api/notification/list', as(owner));
    expect(after.body.notifications.filter((n) => n.kind === 'question_repeated')).toHaveLength(1);
    // Nobody of another workspace hears of it.
    const theirs = await server.get<NotificationList>('/api/notification/list', as(other));
    expect(theirs.body.notifications.filter((n) => n.kind === 'question_repeated')).toEqual([]);
    expect(Date.parse(groups[0]!.last_asked_at)).toBeGreaterThanOrEqual(
      Date.parse(groups[0]!.first_asked_at),
    );
  });

  it('turns an owner’s answer into a Q&A pair, trained at once, and the next visitor asking it gets that answer', async () => {
    const [shipping] = await queue(owner, bot.bot_id);
    const answered = await server.post<QnA>(
      `/api/unanswered/${shipping!.id}/answer`,
      { answer: 'Yes: parcels to Canada arrive in five to seven working days.' },
      as(owner),
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(answered.body).toMatchObject({
      bot_id: bot.bot_id,
      question: 'Do you ship to Canada?',
      training: true,
    });
    expect((await queue(owner, bot.bot_id)).map((g) => g.question)).toEqual(['Can I pay with PayPal?']);

    // Once the pair is trained (a job queued with the save), a visitor asking it is answered.
    const trained = async () =>
      (await server.get<QnA[]>(`/api/qna/?bot_id=${bot.bot_id}`, as(owner))).body.find(
        (pair) => pair.id === answered.body.id,
      )?.trained;
    await expect.poll(trained, { timeout: 10_000 }).toBe(true);
    const reply = await visitorAsks(bot, 'Can you ship to Canada?');
    expect(reply).toBe('Yes: parcels to Canada arrive in five to seven working days.');
    // Answered: the question is not queued again.
    expect((await queue(owner, bot.bot_id)).map((g) => g.question)).toEqual(['Can I pay with PayPal?']);

    const again = await server.post(`/api/unanswered/${shipping!.id}/answer`, { answer: 'Twice' }, as(owner));
    expect(again.status).toBe(400);

    // A group answered with a question the bot already has a pair for: refused, it stays queued.
    const [paypal] = await queue(owner, bot.bot_id);
    const dup = await server.post(
      `/api/unanswered/${paypal!.id}/answer`,
      { question: 'do you ship to CANADA?', answer: 'No.' },
      as(owner),
    );
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      detail: 'This bot already has a Q&A pair for that question: "Do you ship to Canada?"',
    });
    expect((await queue(owner, bot.bot_id)).map((g) => g.question)).toEqual(['Can I pay with PayPal?']);
    const pairs = await server.get<QnA[]>(`/api/qna/?bot_id=${bot.bot_id}`, as(owner));
    expect(pairs.body.map((pair) => pair.answer)).not.toContain('No.');
  });

  it('suggests what an agent replied, in a conversation they took over, to a queued question', async () => {
    const { conversationId } = await visitorConversation(server, bot, 'Do you sell gift cards?');
    await appendMessage(server.database.db, conversationId, {
      messageType: 'helpdesk',
      message: 'Yes, gift cards from 10 to 200 euros, sent by email.',
      senderId: String(owner.user.id),
    });
    const gift = (await queue(owner, bot.bot_id)).find((g) => g.question === 'Do you sell gift cards?');
    expect(gift?.suggestion).toMatchObject({
      answer: 'Yes, gift cards from 10 to 200 euros, sent by email.',
      agent: `${owner.user.first_name} ${owner.user.last_name}`,
    });
    const accepted = await server.post<QnA>(
      `/api/unanswered/${gift!.id}/answer`,
      { answer: gift!.suggestion!.answer },
      as(owner),
    );
    expect(accepted.status).toBe(201);
  });

  it("never queues a question the bot answered before the visitor asked for a person, so an agent's reply is not credited to it", async () => {
    const bakery = await createBotViaApi(server, owner, { bot_name: 'Bakery' });
    await server.post(
      '/api/qna/',
      {
        bot_id: bakery.bot_id,
        question: 'Is the almond croissant vegan?',
        answer: 'No, it is made with butter.',
      },
      as(owner),
    );
    await expect
      .poll(
        async () =>
          (await server.get<QnA[]>(`/api/qna/?bot_id=${bakery.bot_id}`, as(owner))).body[0]?.trained,
      )
      .toBe(true);
    const conversationId = await visitorTalk(bakery, [
      'Is the almond croissant vegan?',
      'Can I talk to a person?',
    ]);
    await appendMessage(server.database.db, conversationId, {
      messageType: 'helpdesk',
      message: 'Hi, this is Maya. We do not deliver on Sundays.',
      senderId: String(owner.user.id),
    });
    const groups = await queue(owner, bakery.bot_id);
    expect(groups.map((g) => g.question)).not.toContain('Is the almond croissant vegan?');
    expect(groups.every((g) => g.suggestion === null)).toBe(true);
  });

  it("credits an agent's reply to the last question before it that the bot could not answer", async () => {
    const shop = await createBotViaApi(server, owner, { bot_name: 'Corner shop' });
    const conversationId = await visitorTalk(shop, [
      'Do you deliver on Sundays?',
      'Do you have a loyalty card?',
    ]);
    await appendMessage(server.database.db, conversationId, {
      messageType: 'helpdesk',
      message: 'Yes, ask for a loyalty card at the till.',
      senderId: String(owner.user.id),
    });
    const groups = await queue(owner, shop.bot_id);
    const loyalty = groups.find((g) => g.question === 'Do you have a loyalty card?');
    const sundays = groups.find((g) => g.question === 'Do you deliver on Sundays?');
    expect(loyalty?.suggestion?.answer).toBe('Yes, ask for a loyalty card at the till.');
    expect(sundays).toBeDefined();
    expect(sundays!.suggestion).toBeNull();
  });

  it('counts a question once when the visitor, not answered, then asks for a person', async () => {
    const florist = await createBotViaApi(server, owner, { bot_name: 'Corner florist' });
    await visitorTalk(florist, ['Do you deliver to Hove?', 'Can I talk to a person please?']);
    await visitorTalk(florist, ['Do you deliver to Hove?']);
    const groups = await queue(owner, florist.bot_id);
    expect(groups.map((g) => [g.question, g.asked_count])).toEqual([['Do you deliver to Hove?', 2]]);
  });

  it('never queues a greeting or thanks: the question between them is queued, and asking for a person after a greeting queues nothing', async () => {
    const cafe = await createBotViaApi(server, owner, { bot_name: 'Harbour cafe' });
    expect(await visitorAsks(cafe, 'hi there!')).toBe(SMALL_TALK_REPLIES.greeting);
    await visitorTalk(cafe, ['hello', 'Do you repair bikes?', 'ok thanks, bye']);
    await visitorTalk(cafe, ['good morning', 'Can I talk to a person?']);
    expect((await queue(owner, cafe.bot_id)).map((g) => g.question)).toEqual(['Do you repair bikes?']);
  });

  it('dismisses a group, refuses a blank answer, and hides every group from other workspaces and members without Bots', async () => {
    const [paypal] = await queue(owner, bot.bot_id);
    const blank = await server.post(`/api/unanswered/${paypal!.id}/answer`, { answer: '  ' }, as(owner));
    expect(blank.status).toBe(400);

    // Another workspace: 404 for the bot's queue, the answer and the dismissal; nothing changes.
    expect((await server.get(`/api/unanswered/bot/${bot.bot_id}`, as(other))).status).toBe(404);
    expect(
      (await server.post(`/api/unanswered/${paypal!.id}/answer`, { answer: 'No' }, as(other))).status,
    ).toBe(404);
    expect((await server.delete(`/api/unanswered/${paypal!.id}`, as(other))).status).toBe(404);
    for (const path of ['/api/unanswered/dismiss', '/api/unanswered/restore'])
      expect((await server.post(path, { ids: [paypal!.id] }, as(other))).status, path).toBe(404);
    const role = await createRole(server, owner, { Home: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await server.get(`/api/unanswered/bot/${bot.bot_id}`, as(member))).status).toBe(403);
    expect((await server.delete(`/api/unanswered/${paypal!.id}`, as(member))).status).toBe(403);
    for (const path of ['/api/unanswered/dismiss', '/api/unanswered/restore'])
      expect((await server.post(path, { ids: [paypal!.id] }, as(member))).status, path).toBe(403);
    const [pair] = (await server.get<QnA[]>(`/api/qna/?bot_id=${bot.bot_id}`, as(owner))).body;
    expect(
      (await server.post(`/api/unanswered/${paypal!.id}/answer`, { answer: 'No' }, as(member))).status,
    ).toBe(403);
    expect(
      (await server.post(`/api/unanswered/${paypal!.id}/link`, { qna_id: pair!.id }, as(member))).status,
    ).toBe(403);
    expect(
      (await server.post(`/api/unanswered/${paypal!.id}/link`, { qna_id: pair!.id }, as(other))).status,
    ).toBe(404);
    expect(await queue(owner, bot.bot_id)).toHaveLength(1);

    expect((await server.delete(`/api/unanswered/${paypal!.id}`, as(owner))).status).toBe(200);
    expect(await queue(owner, bot.bot_id)).toEqual([]);
  });
});

describe('overlap', () => {
  it('groups rewordings with the same words and keeps different questions apart', () => {
    expect(overlap(['ship', 'canada'], ['ship', 'canada'])).toBe(1);
    expect(overlap(['ship', 'canada'], ['ship', 'canada', 'cost'])).toBeGreaterThanOrEqual(SAME_QUESTION);
    expect(overlap(['ship', 'canada'], ['pay', 'paypal'])).toBe(0);
    expect(overlap(['ship', 'canada'], ['ship', 'mexico'])).toBeLessThan(SAME_QUESTION);
  });
});

describe('same as an existing answer', () => {
  const CANADA = 'Yes: parcels to Canada arrive in five to seven working days.';
  const TORONTO = 'could you send my order to toronto?';

  it("adds a visitor's wording to a pair, which answers it from then on, until the owner removes it", async () => {
    const shop = await createBotViaApi(server, owner, { bot_name: 'Bike shop' });
    const made = await server.post<QnA>(
      '/api/qna/',
      { bot_id: shop.bot_id, question: 'Do you ship to Canada?', answer: CANADA },
      as(owner),
    );
    const pairs = async () =>
      (await server.get<QnA[]>(`/api/qna/?bot_id=${shop.bot_id}`, as(owner))).body.find(
        (pair) => pair.id === made.body.id,
      );
    await expect.poll(async () => (await pairs())?.trained, { timeout: 10_000 }).toBe(true);
    expect(await visitorAsks(shop, TORONTO)).not.toBe(CANADA);
    const [group] = await queue(owner, shop.bot_id);
    expect(group!.question).toBe(TORONTO);
    // No word of it is the pair's: no pair is offered first.
    expect(group!.likely_pair).toBeNull();

    // Refused, changing nothing: no pair named, another bot's pair, another workspace.
    const link = (account: Account, body: unknown) =>
      server.post<QnA>(`/api/unanswered/${group!.id}/link`, body, as(account));
    expect((await link(owner, {})).body).toEqual({ detail: 'Q&A is required' });
    const [otherBotsPair] = (await server.get<QnA[]>(`/api/qna/?bot_id=${bot.bot_id}`, as(owner))).body;
    const wrongBot = await link(owner, { qna_id: otherBotsPair!.id });
    expect(wrongBot.status).toBe(400);
    expect(wrongBot.body).toEqual({ detail: "That Q&A pair is not one of this bot's" });
    expect((await link(other, { qna_id: made.body.id })).status).toBe(404);
    expect(await queue(owner, shop.bot_id)).toHaveLength(1);

    const linked = await link(owner, { qna_id: made.body.id });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({ id: made.body.id, alternate_questions: [TORONTO], trained: true });
    expect(await queue(owner, shop.bot_id)).toEqual([]);
    // The next visitor in those words gets the pair's answer, with no training between.
    expect(await visitorAsks(shop, 'Could you send my order to Toronto')).toBe(CANADA);

    // The owner edits the wordings: at most 20, and removing them stops the match at once.
    const many = Array.from({ length: 21 }, (_, i) => `wording ${i}`);
    const tooMany = await server.put(`/api/qna/${made.body.id}`, { alternate_questions: many }, as(owner));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ detail: 'At most 20 other wordings' });
    // As the console's dialog saves: both texts, unchanged, so the pair is not trained again.
    const cleared = await server.put<QnA>(
      `/api/qna/${made.body.id}`,
      { question: 'Do you ship to Canada?', answer: CANADA, alternate_questions: [] },
      as(owner),
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ alternate_questions: [], trained: true, training: false });
    expect(await visitorAsks(shop, TORONTO)).not.toBe(CANADA);

    // A question sharing some of the pair's words, too few to answer with it, offers it first.
    const vancouver = 'Do you ship to Vancouver or Toronto?';
    expect(await visitorAsks(shop, vancouver)).not.toBe(CANADA);
    const near = (await queue(owner, shop.bot_id)).find((g) => g.question === vancouver);
    expect(near?.likely_pair).toEqual({ id: made.body.id, question: 'Do you ship to Canada?' });
  });
});
