import { MESSAGES, type QnA, type SearchResult, type TrainingProgress } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunks, conversations, messages } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { createTestDatabase } from '../../test/database.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { plans } from '../billing/billing.schema.js';

let server: TestServer;
let owner: Account;
let botId: number;
beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  botId = (await insertBot(server, owner.user.tenant_id)).id;
});
afterAll(() => server.close());

const as = (account: Account) => ({ token: account.access_token });

async function train(bot: number, account = owner): Promise<TrainingProgress> {
  const started = await server.post<{ task_id: string }>(
    `/api/training/train/qna/${bot}`,
    undefined,
    as(account),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const progress = await server.get<TrainingProgress>(
      `/api/training/train/progress/${started.body.task_id}`,
      as(account),
    );
    expect(progress.status).toBe(200);
    if (progress.body.status === 'completed' || progress.body.status === 'failed') return progress.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('training did not finish');
}

describe('Q&A pairs', () => {
  it('creates, lists, edits and deletes pairs with the spec texts on bad input', async () => {
    const created = await server.post<QnA>(
      '/api/qna/',
      { bot_id: botId, question: 'Do you ship abroad?', answer: 'Yes, to 40 countries.' },
      as(owner),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ bot_id: botId, trained: false, character_count: null });

    for (const [body, detail] of [
      [{ bot_id: botId, question: '', answer: 'x' }, MESSAGES.qna.questionRequired],
      [{ bot_id: botId, question: 'x', answer: '  ' }, MESSAGES.qna.answerRequired],
      [{ question: 'x', answer: 'y' }, MESSAGES.qna.botRequired],
    ] as const) {
      const bad = await server.post('/api/qna/', body, as(owner));
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ detail });
    }

    const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${botId}`, as(owner));
    expect(listed.body.map((q) => q.id)).toContain(created.body.id);
    const edited = await server.put<QnA>(
      `/api/qna/${created.body.id}`,
      { answer: 'Yes, to 41 countries.' },
      as(owner),
    );
    expect(edited.body).toMatchObject({ answer: 'Yes, to 41 countries.', question: 'Do you ship abroad?' });
    expect((await server.delete(`/api/qna/${created.body.id}`, as(owner))).status).toBe(200);
    expect((await server.delete(`/api/qna/${created.body.id}`, as(owner))).status).toBe(404);
  });

  it('trains pairs with progress; a trained pair answers its question and survives re-training without doubles', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    const pairs = [
      ['What is your refund policy?', 'Refunds are accepted within 30 days of delivery with the receipt.'],
      ['How long does shipping take?', 'Orders arrive within 3 to 5 business days in Europe.'],
      ['Can I change my delivery address?', 'Yes, until the parcel leaves our warehouse; write to support.'],
    ];
    for (const [question, answer] of pairs)
      await server.post('/api/qna/', { bot_id: bot, question, answer }, as(owner));
    const done = await train(bot);
    expect(done).toMatchObject({ status: 'completed', current: 3, total: 3, percentage: 100, error: null });
    const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(owner));
    expect(listed.body.every((q) => q.trained && (q.character_count ?? 0) > 0)).toBe(true);

    const found = await server.post<SearchResult>(
      `/api/knowledge/search/${bot}`,
      { query: 'what is the refund policy' },
      as(owner),
    );
    expect(found.status).toBe(200);
    expect(found.body.qna_match).toMatchObject({ question: 'What is your refund policy?' });
    expect(found.body.hits[0]).toMatchObject({
      source_type: 'qna',
      page_title: 'What is your refund policy?',
    });

    // A natural question that shares only some words still finds the right pair's passage.
    const loose = await server.post<SearchResult>(
      `/api/knowledge/search/${bot}`,
      { query: 'how many days until my order arrives?' },
      as(owner),
    );
    expect(loose.body.hits[0]?.page_title).toBe('How long does shipping take?');

    await train(bot);
    const { eq } = await import('drizzle-orm');
    const rows = await server.database.db.select().from(chunks).where(eq(chunks.collectionId, bot));
    expect(rows.filter((r) => r.sourceType === 'qna')).toHaveLength(3);
  });

  it('trains a pair when it is saved: answerable within seconds with no Train, its state listed', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    const search = (query: string) =>
      server.post<SearchResult>(`/api/knowledge/search/${bot}`, { query }, as(owner));
    const answered = async (query: string, answer: string) => {
      const deadline = Date.now() + 10_000;
      while ((await search(query)).body.qna_match?.answer !== answer) {
        if (Date.now() > deadline) throw new Error(`"${query}" is still not answered with "${answer}"`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const created = await server.post<QnA>(
      '/api/qna/',
      { bot_id: bot, question: 'Do you deliver on Sundays?', answer: 'No, Monday to Saturday only.' },
      as(owner),
    );
    expect(created.body).toMatchObject({ trained: false, training: true });
    await answered('do you deliver on sundays', 'No, Monday to Saturday only.');
    const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(owner));
    expect(listed.body).toEqual([expect.objectContaining({ trained: true, training: false })]);

    const edited = await server.put<QnA>(
      `/api/qna/${created.body.id}`,
      { answer: 'Yes, on Sundays too since May.' },
      as(owner),
    );
    expect(edited.body).toMatchObject({ trained: false, training: true });
    await answered('do you deliver on sundays', 'Yes, on Sundays too since May.');
  });

  it('does not answer from another bot, an untrained pair, or stop words alone', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    const other = (await insertBot(server, owner.user.tenant_id)).id;
    await server.post(
      '/api/qna/',
      { bot_id: other, question: 'What is your refund policy?', answer: 'Other bot.' },
      as(owner),
    );
    await train(other);
    await server.post(
      '/api/qna/',
      { bot_id: bot, question: 'Where is your office?', answer: 'In Lisbon.' },
      as(owner),
    );
    const result = await server.post<SearchResult>(
      `/api/knowledge/search/${bot}`,
      { query: 'refund policy' },
      as(owner),
    );
    expect(result.body).toMatchObject({
      qna_match: null,
      hits: [],
      mode: 'full-text',
      // A bot with no sources yet reads questions in English.
      languages: ['english'],
      decision: { answers: false },
    });
    const stop = await server.post<SearchResult>(
      `/api/knowledge/search/${other}`,
      { query: 'what is the' },
      as(owner),
    );
    expect(stop.body.hits).toEqual([]);
  });

  it('deletes all pairs of a bot, and their knowledge', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    await server.post('/api/qna/', { bot_id: bot, question: 'Opening hours?', answer: '9 to 5.' }, as(owner));
    await train(bot);
    const cleared = await server.delete<{ message: string }>(`/api/qna/?bot_id=${bot}`, as(owner));
    expect(cleared.body.message).toBe('1 Q&A pairs deleted');
    // With no scope named, nothing is deleted: a missing pair id must never wipe a workspace.
    const unscoped = await server.delete('/api/qna/', as(owner));
    expect(unscoped.status).toBe(400);
    expect(unscoped.body).toEqual({ detail: 'Name a bot_id, or all=true to delete every Q&A pair' });
    const result = await server.post<SearchResult>(
      `/api/knowledge/search/${bot}`,
      { query: 'opening hours' },
      as(owner),
    );
    expect(result.body.hits).toEqual([]);
  });
});

const searchOf = (bot: number, query: string) =>
  server.post<SearchResult>(`/api/knowledge/search/${bot}`, { query }, as(owner));

async function trainedPair(bot: number, question: string, answer: string): Promise<QnA> {
  const created = await server.post<QnA>('/api/qna/', { bot_id: bot, question, answer }, as(owner));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(owner));
    if (listed.body.find((q) => q.id === created.body.id)?.trained) return created.body;
    if (Date.now() > deadline) throw new Error(`"${question}" was not trained`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('what the bot knows follows the pairs at once', () => {
  it('never quotes an edited answer again, even before (or without) the new text being trained', async () => {
    const database = await createTestDatabase();
    const worker = await startTestServer({ database });
    const boss = await signupOwner(worker);
    const bot = (await insertBot(worker, boss.user.tenant_id)).id;
    const pair = await worker.post<QnA>(
      '/api/qna/',
      { bot_id: bot, question: 'Do you deliver on Sundays?', answer: 'No, Monday to Saturday only.' },
      as(boss),
    );
    const deadline = Date.now() + 10_000;
    while (!(await worker.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(boss))).body[0]?.trained) {
      if (Date.now() > deadline) throw new Error('the pair was not trained');
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.close({ dropDatabase: false });
    // No workers here: the edit's training never runs, the old answer must be gone all the same.
    const api = await startTestServer({ database, role: 'api' });
    try {
      const search = () =>
        api.post<SearchResult>(
          `/api/knowledge/search/${bot}`,
          { query: 'do you deliver on sundays' },
          as(boss),
        );
      expect((await search()).body.hits[0]?.content).toContain('Monday to Saturday');
      const edited = await api.put<QnA>(
        `/api/qna/${pair.body.id}`,
        { answer: 'Yes, on Sundays too since May.' },
        as(boss),
      );
      expect(edited.body).toMatchObject({ trained: false, training: true });
      const after = await search();
      expect(after.body.qna_match).toBeNull();
      expect(JSON.stringify(after.body.hits)).not.toContain('Monday to Saturday');
    } finally {
      await api.close({ dropDatabase: true });
    }
  });

  it('deleting one pair removes its knowledge and leaves the others answering', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    const gone = await trainedPair(bot, 'Do you sell gift cards?', 'Gift cards from 10 to 200 euros.');
    await trainedPair(bot, 'Where is your shop?', 'At 12 Rue de la Paix, Paris.');
    expect((await searchOf(bot, 'gift cards')).body.qna_match?.qna_id).toBe(gone.id);
    expect((await server.delete(`/api/qna/${gone.id}`, as(owner))).status).toBe(200);
    const after = await searchOf(bot, 'do you sell gift cards');
    expect(after.body.qna_match).toBeNull();
    expect(JSON.stringify(after.body.hits)).not.toContain('Gift cards from');
    expect((await searchOf(bot, 'where is your shop')).body.qna_match?.answer).toBe(
      'At 12 Rue de la Paix, Paris.',
    );
  });

  it('refuses a question the bot already has (any case or spacing), so the first pair keeps answering', async () => {
    const bot = (await insertBot(server, owner.user.tenant_id)).id;
    const other = (await insertBot(server, owner.user.tenant_id)).id;
    const first = await trainedPair(bot, 'Do you ship abroad?', 'Yes, to 40 countries.');
    const detail = 'This bot already has a Q&A pair for that question: "Do you ship abroad?"';
    const again = await server.post(
      '/api/qna/',
      { bot_id: bot, question: '  do you   SHIP abroad? ', answer: 'No.' },
      as(owner),
    );
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail });
    // Another bot may have it; an edit onto it is refused too; an edit keeping its own question is fine.
    expect(
      (
        await server.post(
          '/api/qna/',
          { bot_id: other, question: 'Do you ship abroad?', answer: 'No.' },
          as(owner),
        )
      ).status,
    ).toBe(201);
    const second = await trainedPair(bot, 'Do you ship to Canada?', 'Yes, in 7 days.');
    const onto = await server.put(`/api/qna/${second.id}`, { question: 'DO YOU SHIP ABROAD?' }, as(owner));
    expect(onto.status).toBe(409);
    expect(onto.body).toEqual({ detail });
    const recased = await server.put<QnA>(
      `/api/qna/${first.id}`,
      { question: 'Do you ship Abroad?' },
      as(owner),
    );
    expect(recased.status).toBe(200);
    const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(owner));
    expect(listed.body.map((q) => [q.question, q.answer])).toEqual([
      ['Do you ship Abroad?', 'Yes, to 40 countries.'],
      ['Do you ship to Canada?', 'Yes, in 7 days.'],
    ]);
  });
});

describe("the plan's trained characters", () => {
  it('refuses an edit that takes the bot past them, keeping the pair as it was', async () => {
    const limited = await startTestServer({ env: { PLAN_LIMITS: 'on' } });
    try {
      await limited.database.db.update(plans).set({ trainedCharactersPerChatbot: 80 });
      const boss = await signupOwner(limited);
      const bot = (await insertBot(limited, boss.user.tenant_id)).id;
      const pair = await limited.post<QnA>(
        '/api/qna/',
        { bot_id: bot, question: 'Do you ship abroad?', answer: 'Yes, to most countries.' },
        as(boss),
      );
      expect(pair.status, JSON.stringify(pair.body)).toBe(201);
      // Within the limit counting what the pair holds now, not on top of it.
      const shorter = await limited.put<QnA>(
        `/api/qna/${pair.body.id}`,
        { answer: 'Yes, to 40 countries.' },
        as(boss),
      );
      expect(shorter.status, JSON.stringify(shorter.body)).toBe(200);
      const longer = await limited.put(
        `/api/qna/${pair.body.id}`,
        { answer: 'Yes: we ship to every country in Europe, Asia, Africa and the Americas.' },
        as(boss),
      );
      expect(longer.status).toBe(402);
      expect((longer.body as { detail: string }).detail).toMatch(/more than the 80 trained characters/);
      const listed = await limited.get<QnA[]>(`/api/qna/?bot_id=${bot}`, as(boss));
      expect(listed.body.map((q) => q.answer)).toEqual(['Yes, to 40 countries.']);
    } finally {
      await limited.close();
    }
  });
});

/** A conversation of the bot with one visitor message in it: the message's id (a Q&A pair's chat_id). */
async function chatMessage(tenantId: number, bot: number): Promise<number> {
  const [conversation] = await server.database.db
    .insert(conversations)
    .values({ tenantId, botId: bot, visitorId: 'visitor-1', lastSeq: 1 })
    .returning();
  const [message] = await server.database.db
    .insert(messages)
    .values({
      tenantId,
      conversationId: conversation!.id,
      botId: bot,
      seq: 1,
      messageType: 'user',
      message: 'Do you deliver on Sundays?',
    })
    .returning();
  return message!.id;
}

describe('a pair drawn from a chat (chat_id)', () => {
  const pairsOf = async (account: Account) =>
    (await server.get<QnA[]>('/api/qna/', as(account))).body.map((q) => q.id);

  it("keeps the id of one of the bot's own messages", async () => {
    const chatId = await chatMessage(owner.user.tenant_id, botId);
    const created = await server.post<QnA>(
      '/api/qna/',
      { bot_id: botId, question: 'Sunday delivery?', answer: 'No, Monday to Saturday.', chat_id: chatId },
      as(owner),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.chat_id).toBe(chatId);
  });

  it("answers 404 for another workspace's message and 400 for another bot's, storing nothing", async () => {
    const stranger = await signupOwner(server);
    const theirBot = (await insertBot(server, stranger.user.tenant_id)).id;
    const theirMessage = await chatMessage(stranger.user.tenant_id, theirBot);
    const otherBot = (await insertBot(server, owner.user.tenant_id)).id;
    const otherBotsMessage = await chatMessage(owner.user.tenant_id, otherBot);
    const before = await pairsOf(owner);
    const pair = (chat_id: number) => ({ bot_id: botId, question: 'Copied?', answer: 'Yes.', chat_id });

    const foreign = await server.post('/api/qna/', pair(theirMessage), as(owner));
    expect([foreign.status, foreign.body]).toEqual([404, { detail: 'Chat message not found' }]);
    const missing = await server.post('/api/qna/', pair(theirMessage + 1000), as(owner));
    expect([missing.status, missing.body]).toEqual([404, { detail: 'Chat message not found' }]);
    const wrongBot = await server.post('/api/qna/', pair(otherBotsMessage), as(owner));
    expect([wrongBot.status, wrongBot.body]).toEqual([
      400,
      { detail: 'The chat message is not from a conversation of this bot' },
    ]);
    expect(await pairsOf(owner)).toEqual(before);
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 for another workspace's bot, pair and task, and changes nothing", async () => {
    const intruder = await signupOwner(server);
    const pair = await server.post<QnA>(
      '/api/qna/',
      { bot_id: botId, question: 'Secret?', answer: 'Yes.' },
      as(owner),
    );
    const task = await server.post<{ task_id: string }>(
      `/api/training/train/qna/${botId}`,
      undefined,
      as(owner),
    );
    const calls = [
      server.post('/api/qna/', { bot_id: botId, question: 'x', answer: 'y' }, as(intruder)),
      server.get(`/api/qna/?bot_id=${botId}`, as(intruder)),
      server.put(`/api/qna/${pair.body.id}`, { answer: 'hacked' }, as(intruder)),
      server.delete(`/api/qna/${pair.body.id}`, as(intruder)),
      server.delete(`/api/qna/?bot_id=${botId}`, as(intruder)),
      server.post(`/api/training/train/qna/${botId}`, undefined, as(intruder)),
      server.get(`/api/training/train/progress/${task.body.task_id}`, as(intruder)),
      server.post(`/api/knowledge/search/${botId}`, { query: 'secret' }, as(intruder)),
    ];
    for (const reply of await Promise.all(calls)) expect(reply.status).toBe(404);
    const own = await server.get<QnA[]>('/api/qna/', as(intruder));
    expect(own.body).toEqual([]);
    const still = await server.get<QnA[]>(`/api/qna/?bot_id=${botId}`, as(owner));
    expect(still.body.find((q) => q.id === pair.body.id)?.answer).toBe('Yes.');
  });

  it('refuses a member without the Create Bot feature', async () => {
    const role = await createRole(server, owner, { Home: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const pair = await server.post<QnA>(
      '/api/qna/',
      { bot_id: botId, question: 'Is parking free?', answer: 'Yes, for clients.' },
      as(owner),
    );
    const calls = [
      server.get('/api/qna/', as(member)),
      server.post('/api/qna/', { bot_id: botId, question: 'x?', answer: 'y' }, as(member)),
      server.put(`/api/qna/${pair.body.id}`, { answer: 'No.' }, as(member)),
      server.delete(`/api/qna/${pair.body.id}`, as(member)),
      server.delete(`/api/qna/?bot_id=${botId}`, as(member)),
      server.post(`/api/training/train/qna/${botId}`, undefined, as(member)),
    ];
    for (const reply of await Promise.all(calls)) expect(reply.status).toBe(403);
    const still = await server.get<QnA[]>(`/api/qna/?bot_id=${botId}`, as(owner));
    expect(still.body.find((q) => q.id === pair.body.id)?.answer).toBe('Yes, for clients.');
  });
});
