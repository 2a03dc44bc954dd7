import type { Conversation } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { startConversationWith } from './chat.queries.js';
import { conversations } from './chat.schema.js';

/** A question that is refused must not leave a conversation holding only the welcome message. */
let server: TestServer;
let owner: Account;
let botId: number;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  botId = (await insertBot(server, owner.user.tenant_id)).id;
});
afterAll(() => server?.close());

const conversationsOfBot = async () =>
  server.database.db.select().from(conversations).where(eq(conversations.botId, botId));

it('refuses a message holding a NUL character with a 400 and starts no conversation', async () => {
  const reply = await server.post<{ detail: string }>(
    '/api/chat/chats',
    { bot_id: botId, message: 'where is my\u0000 parcel?' },
    as(owner),
  );
  expect(reply.status).toBe(400);
  expect(reply.body.detail).toBe('message: must not contain NUL characters');
  const listed = await server.get<Conversation[]>(`/api/chat/chats?bot_id=${botId}`, as(owner));
  expect(listed.body).toEqual([]);
});

it('stores a new conversation, its welcome and its first question together or not at all', async () => {
  // Past the contracts, the database itself refuses the question (text cannot hold NUL).
  const refused = startConversationWith(
    server.database.db,
    { tenantId: owner.user.tenant_id, botId, userId: owner.user.id, visitorId: null, channel: 'bot' },
    'Hello!',
    undefined,
    { messageType: 'user', message: 'a\u0000b' },
    {},
  );
  await expect(refused).rejects.toThrow();
  expect(await conversationsOfBot()).toEqual([]);
});
