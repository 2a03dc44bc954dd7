import type { Bot, ChatExchange } from '@parley/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { addTrainedPairs, createBotViaApi } from '../../test/bots.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { visitorConversation } from '../../test/visitor.js';
import { appendMessage } from './chat.queries.js';
import { conversations, messages } from './chat.schema.js';

/**
 * A server that crashes while answering has no time to drain: the next one to start answers, once,
 * the web visitors' questions it left, after every answer the crashed one could still have been
 * giving is over; never one a person holds, nor the owner's own tests.
 */
const PAIR = { question: 'Do you ship abroad?', answer: 'Yes, we ship to 40 countries.' };

let database: TestDatabase;
let clockAt = new Date();
const clock: Clock = { now: () => new Date(clockAt) };
let first: TestServer;
let owner: Account;
let bot: Bot;

const lastOf = async (server: TestServer, conversationId: number) => {
  const rows = await server.database.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
  return rows.at(-1)!;
};

/** The question a crashed server stored and never answered. */
const leftOver = (conversationId: number, message = PAIR.question) =>
  appendMessage(first.database.db, conversationId, { messageType: 'user', message, senderId: 'visitor' });

beforeAll(async () => {
  database = await createTestDatabase();
  first = await startTestServer({ database, env: { SCHEDULER_TICK_MS: '3600000' } });
  owner = await signupOwner(first);
  bot = await createBotViaApi(first, owner, { bot_name: 'Left over', is_public: 'true' });
  await addTrainedPairs(first, owner, bot.bot_id, [PAIR]);
}, 60_000);

afterAll(async () => {
  await first?.close({ dropDatabase: false });
  await database?.drop();
});

describe('questions a crashed server left unanswered', () => {
  it('are answered once by the next server, after the grace, and only where the bot holds a web conversation', async () => {
    const visitor = await visitorConversation(first, bot, 'Hello');
    await leftOver(visitor.conversationId);
    const held = await visitorConversation(first, bot, 'Hi there');
    await first.database.db
      .update(conversations)
      .set({ isHelpdeskInControl: true, handoffState: 'human' })
      .where(eq(conversations.id, held.conversationId));
    await leftOver(held.conversationId);
    const test = await first.post<ChatExchange>(
      '/api/chat/chats',
      { bot_id: bot.bot_id, message: 'Hello' },
      { token: owner.access_token },
    );
    await leftOver(test.body.conversation_id);
    await first.close({ dropDatabase: false });

    clockAt = new Date();
    const next = await startTestServer({ database, clock, env: { SCHEDULER_TICK_MS: '3600000' } });
    try {
      // An answer the crashed server could still be giving is not given twice: nothing yet.
      await next.parley.scheduler.tick();
      expect((await lastOf(next, visitor.conversationId)).messageType).toBe('user');

      clockAt = new Date(Date.now() + 121_000);
      await next.parley.scheduler.tick();
      const answered = await lastOf(next, visitor.conversationId);
      expect(answered).toMatchObject({ messageType: 'bot', message: PAIR.answer });
      expect((await lastOf(next, held.conversationId)).messageType).toBe('user');
      expect((await lastOf(next, test.body.conversation_id)).messageType).toBe('user');

      // Once: a later tick, or another server, answers nothing more.
      await next.parley.scheduler.tick();
      const second = await startTestServer({ database, clock, env: { SCHEDULER_TICK_MS: '3600000' } });
      clockAt = new Date(clockAt.getTime() + 121_000);
      await second.parley.scheduler.tick();
      await second.close({ dropDatabase: false });
      expect((await lastOf(next, visitor.conversationId)).id).toBe(answered.id);
    } finally {
      await next.close({ dropDatabase: false });
    }
  }, 60_000);
});
