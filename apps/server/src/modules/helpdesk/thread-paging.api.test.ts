import type { Bot, HelpdeskConversation } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { appendMessage } from '../chat/chat.queries.js';

/**
 * A customer who has written for months: the inbox opens the thread on its newest messages and
 * reads older ones page by page (before_seq + limit), within the same tenant and bot scope as the
 * full read, which stays as it was for callers that pass neither.
 */
const as = (account: Account) => ({ token: account.access_token });

let server: TestServer;
let owner: Account;
let other: Account;
let agent: Account;
let mine: Bot;
let theirs: Bot;
let longId: number;
let theirId: number;
/** Messages in the long conversation: the welcome (seq 1) and 129 more. */
const TOTAL = 130;

const read = (account: Account, id: number, query = '') =>
  server.get<HelpdeskConversation & { detail?: string }>(
    `/api/chat/helpdesk/conversations/${id}${query}`,
    as(account),
  );
const seqs = (body: HelpdeskConversation) => body.messages.map((m) => m.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function newChat(bot: Bot): Promise<number> {
  const made = await server.post<HelpdeskConversation>(
    '/api/chat/helpdesk/new-chat',
    { bot_id: bot.bot_id },
    as(owner),
  );
  expect(made.status).toBe(201);
  return made.body.id;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  other = await signupOwner(server);
  mine = await createBotViaApi(server, owner, { bot_name: 'Boots' });
  theirs = await createBotViaApi(server, owner, { bot_name: 'Payroll' });
  const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
  agent = await addTeammate(
    server,
    owner,
    await createRole(server, owner, { Inbox: { read: true, write: true } }),
    readToken,
  );
  const restricted = await server.put(
    `/api/auth/bots-assigned/${agent.user.id}`,
    { bot_ids: [mine.bot_id], all_bots: false },
    as(owner),
  );
  expect(restricted.status).toBe(200);
  longId = await newChat(mine);
  for (let i = 2; i <= TOTAL; i++) {
    await appendMessage(server.database.db, longId, {
      messageType: i % 2 === 0 ? 'user' : 'bot',
      message: `message ${i}`,
    });
  }
  theirId = await newChat(theirs);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /chat/helpdesk/conversations/:id, paged', () => {
  it('answers every message when neither before_seq nor limit is given, as before', async () => {
    const all = await read(owner, longId);
    expect(all.status).toBe(200);
    expect(seqs(all.body)).toEqual(range(1, TOTAL));
    expect(all.body.has_earlier).toBeUndefined();
    expect(all.body.last_seq).toBe(TOTAL);
  });

  it('opens on the newest page and walks back to the welcome without a gap or a repeat', async () => {
    const first = await read(agent, longId, '?limit=50');
    expect(first.status).toBe(200);
    expect(seqs(first.body)).toEqual(range(81, 130));
    expect(first.body.has_earlier).toBe(true);
    // The conversation itself is all there: the socket resumes after its last seq.
    expect(first.body).toMatchObject({ id: longId, bot_id: mine.bot_id, last_seq: TOTAL });
    expect(first.body.messages.at(-1)?.message).toBe('message 130');

    const second = await read(agent, longId, '?before_seq=81&limit=50');
    expect(seqs(second.body)).toEqual(range(31, 80));
    expect(second.body.has_earlier).toBe(true);
    const last = await read(agent, longId, '?before_seq=31&limit=50');
    expect(seqs(last.body)).toEqual(range(1, 30));
    expect(last.body.has_earlier).toBe(false);
    expect(last.body.messages[0]?.message_type).toBe('bot');
  });

  it('uses the default page of 50 with before_seq alone, and says nothing remains at exactly the start', async () => {
    const page = await read(owner, longId, '?before_seq=51');
    expect(seqs(page.body)).toEqual(range(1, 50));
    expect(page.body.has_earlier).toBe(false);
    const beforeFirst = await read(owner, longId, '?before_seq=1&limit=10');
    expect(beforeFirst.status).toBe(200);
    expect(beforeFirst.body.messages).toEqual([]);
    expect(beforeFirst.body.has_earlier).toBe(false);
  });

  it('keeps the reader’s own thumbs on the answers of a page, not another person’s', async () => {
    const answer = (await read(owner, longId, '?limit=2')).body.messages.find(
      (m) => m.message_type === 'bot',
    )!;
    const rated = await server.post(
      '/api/analytics/ratings',
      { message_id: answer.id, rating: 'up' },
      as(owner),
    );
    expect(rated.status).toBe(200);
    const forOwner = (await read(owner, longId, '?limit=2')).body.messages.find((m) => m.id === answer.id);
    const forAgent = (await read(agent, longId, '?limit=2')).body.messages.find((m) => m.id === answer.id);
    expect(forOwner?.rating).toBe('up');
    expect(forAgent?.rating).toBeNull();
  });

  it('refuses a bad page with a detail', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=abc', '?before_seq=0', '?before_seq=2.5']) {
      const bad = await read(owner, longId, query);
      expect(bad.status, query).toBe(400);
      expect(typeof bad.body.detail, query).toBe('string');
    }
    expect((await read(owner, longId, '?limit=abc')).body.detail).toContain('limit');
  });

  it('answers 404 for another workspace and for a bot the agent does not work with, paged or not', async () => {
    for (const query of ['', '?limit=50', '?before_seq=81&limit=50']) {
      expect((await read(other, longId, query)).status, `other tenant ${query}`).toBe(404);
      expect((await read(agent, theirId, query)).status, `other bot ${query}`).toBe(404);
      expect((await read(owner, theirId, query)).status, `owner ${query}`).toBe(200);
    }
    expect((await read(other, longId, '?limit=50')).body).not.toHaveProperty('messages');
  });
});
