import { BOTS_SUBJECT, type Bot, type CalendarBooking, type QnA, type Role } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi, insertBot, updateBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { qna } from '../qna/qna.schema.js';
import { botRoles, bots, calendarBookings } from './bots.schema.js';

/**
 * A teammate the owner restricted to some bots works with their own, those assigned to them and
 * those carrying their role (requireWorkingBot); any other bot of the workspace answers 404 as a
 * missing bot does, on every route that names one, and is left unchanged.
 */
let server: TestServer;
let owner: Account;
let restricted: Account;
let unrestricted: Account;
let role: Role;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });
const NO_BOT = { detail: 'Bot not found' };
const NO_PAIR = { detail: 'Q&A not found' };
const BOOKING = {
  message: 'Pick a time',
  provider: 'calendly',
  url: 'https://calendly.com/acme/30min',
  title: 'Book a demo',
} as const;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  role = await createRole(server, owner, { [BOTS_SUBJECT]: { create: true, read: true, write: true } });
  restricted = await addTeammate(server, owner, role, readToken);
  unrestricted = await addTeammate(server, owner, role, readToken);
});
afterAll(() => server.close());

/**
 * The restricted teammate's three kinds of bot (assigned, created by them, carrying their role) and
 * one other bot of the workspace; the teammate is restricted to the assigned one.
 */
async function workspaceBots() {
  const assigned = await insertBot(server, owner.user.tenant_id);
  const created = await createBotViaApi(server, restricted, { bot_name: `Own_${assigned.id}` });
  const withRole = await insertBot(server, owner.user.tenant_id);
  await server.database.db
    .insert(botRoles)
    .values({ tenantId: owner.user.tenant_id, botId: withRole.id, roleId: role.id });
  const other = await insertBot(server, owner.user.tenant_id);
  const put = await server.put(
    `/api/auth/bots-assigned/${restricted.user.id}`,
    { bot_ids: [assigned.id], all_bots: false },
    as(owner),
  );
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { worked: [assigned.id, created.bot_id, withRole.id], other: other.id };
}

const botRow = async (id: number) => (await server.database.db.select().from(bots).where(eq(bots.id, id)))[0];
const pairRow = async (id: number) => (await server.database.db.select().from(qna).where(eq(qna.id, id)))[0];
const pairsOf = (botId: number) => server.database.db.select().from(qna).where(eq(qna.botId, botId));
const bookingsOf = (botId: number) =>
  server.database.db.select().from(calendarBookings).where(eq(calendarBookings.botId, botId));

async function addPair(account: Account, botId: number, question = `Opening hours of ${botId}?`) {
  const added = await server.post<QnA>(
    '/api/qna/',
    { bot_id: botId, question, answer: '9 to 5' },
    as(account),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body;
}

const refusedAsMissing = (reply: { status: number; body: unknown }, detail = NO_BOT) =>
  expect([reply.status, reply.body]).toEqual([404, detail]);

describe('a teammate restricted to some bots', () => {
  it('reads and changes their bots; another bot of the workspace is not found and stays as it was', async () => {
    const { worked, other } = await workspaceBots();
    for (const id of worked) {
      const read = await server.get<Bot>(`/api/chat/bots/${id}`, as(restricted));
      expect([read.status, read.body.bot_id], `bot ${id}`).toEqual([200, id]);
      const changed = await updateBotViaApi(server, restricted, id, { description: 'Changed by Grace' });
      expect([changed.status, changed.body.description], `bot ${id}`).toEqual([200, 'Changed by Grace']);
    }
    refusedAsMissing(await server.get(`/api/chat/bots/${other}`, as(restricted)));
    refusedAsMissing(await updateBotViaApi(server, restricted, other, { description: 'Changed by Grace' }));
    refusedAsMissing(await server.delete(`/api/chat/bots/${other}`, as(restricted)));
    const untouched = await botRow(other);
    expect(untouched?.description).not.toBe('Changed by Grace');

    // Their own bot and the one carrying their role are free to delete (an assigned one is in use).
    for (const id of worked.slice(1)) {
      expect((await server.delete(`/api/chat/bots/${id}`, as(restricted))).status, `bot ${id}`).toBe(200);
      expect(await botRow(id)).toBeUndefined();
    }
  });

  it('adds, lists, edits, deletes and trains Q&A of their bots only', async () => {
    const { worked, other } = await workspaceBots();
    const theirs = await Promise.all(worked.map((id) => addPair(restricted, id)));
    const othersPair = await addPair(owner, other);

    const refused = await server.post(
      '/api/qna/',
      { bot_id: other, question: 'Sneaked in?', answer: 'No' },
      as(restricted),
    );
    refusedAsMissing(refused);
    expect((await pairsOf(other)).map((pair) => pair.id)).toEqual([othersPair.id]);

    refusedAsMissing(await server.get(`/api/qna/?bot_id=${other}`, as(restricted)));
    for (const pair of theirs) {
      const listed = await server.get<QnA[]>(`/api/qna/?bot_id=${pair.bot_id}`, as(restricted));
      expect([listed.status, listed.body.map((p) => p.id)]).toEqual([200, [pair.id]]);
    }
    // Without a bot: the pairs of the bots they work with, none of the other bot's.
    const all = await server.get<QnA[]>('/api/qna/', as(restricted));
    expect(all.body.map((pair) => pair.bot_id).sort()).toEqual([...worked].sort());

    refusedAsMissing(
      await server.put(`/api/qna/${othersPair.id}`, { answer: 'Changed' }, as(restricted)),
      NO_PAIR,
    );
    refusedAsMissing(await server.delete(`/api/qna/${othersPair.id}`, as(restricted)), NO_PAIR);
    expect((await pairRow(othersPair.id))?.answer).toBe('9 to 5');
    const edited = await server.put<QnA>(`/api/qna/${theirs[0]!.id}`, { answer: 'Changed' }, as(restricted));
    expect([edited.status, edited.body.answer]).toEqual([200, 'Changed']);

    refusedAsMissing(await server.post(`/api/training/train/qna/${other}`, undefined, as(restricted)));
    expect(
      (await server.post(`/api/training/train/qna/${worked[0]}`, undefined, as(restricted))).status,
    ).toBe(202);

    refusedAsMissing(await server.delete(`/api/qna/?bot_id=${other}`, as(restricted)));
    expect((await server.delete(`/api/qna/${theirs[1]!.id}`, as(restricted))).status).toBe(200);
    expect((await server.delete(`/api/qna/?bot_id=${worked[2]}`, as(restricted))).status).toBe(200);
    expect(await pairsOf(worked[2]!)).toEqual([]);
    // "Delete every pair" deletes those of their bots, not the other bot's.
    const wiped = await server.delete<{ message: string }>('/api/qna/?all=true', as(restricted));
    expect(wiped.body).toEqual({ message: '1 Q&A pairs deleted' });
    expect(await pairsOf(worked[0]!)).toEqual([]);
    expect((await pairsOf(other)).map((pair) => pair.id)).toEqual([othersPair.id]);
  });

  it("sets up, reads and removes their bots' calendar booking; another bot's is not found", async () => {
    const { worked, other } = await workspaceBots();
    for (const id of worked) {
      const path = `/api/bots/${id}/calendar-booking`;
      expect((await server.post(path, BOOKING, as(restricted))).status, `bot ${id}`).toBe(200);
      const read = await server.get<CalendarBooking>(path, as(restricted));
      expect([read.status, read.body.bot_id]).toEqual([200, id]);
      expect((await server.delete(path, as(restricted))).status, `bot ${id}`).toBe(200);
    }
    const path = `/api/bots/${other}/calendar-booking`;
    refusedAsMissing(await server.post(path, BOOKING, as(restricted)));
    expect(await bookingsOf(other)).toEqual([]);
    expect((await server.post(path, BOOKING, as(owner))).status).toBe(200);
    refusedAsMissing(await server.get(path, as(restricted)));
    refusedAsMissing(await server.delete(path, as(restricted)));
    expect(await bookingsOf(other)).toHaveLength(1);
  });

  it("searches their bots' knowledge only", async () => {
    const { worked, other } = await workspaceBots();
    for (const id of worked) {
      const found = await server.post(
        `/api/knowledge/search/${id}`,
        { query: 'opening hours' },
        as(restricted),
      );
      expect(found.status, `bot ${id}: ${JSON.stringify(found.body)}`).toBe(200);
    }
    refusedAsMissing(
      await server.post(`/api/knowledge/search/${other}`, { query: 'opening hours' }, as(restricted)),
    );
  });
});

describe('the owner and a teammate not restricted', () => {
  it('reach every bot of the workspace on the same routes', async () => {
    const { other } = await workspaceBots();
    for (const account of [owner, unrestricted]) {
      const bot = await insertBot(server, owner.user.tenant_id);
      expect((await server.get(`/api/chat/bots/${other}`, as(account))).status).toBe(200);
      expect((await updateBotViaApi(server, account, other, { description: 'Fine' })).status).toBe(200);
      const pair = await addPair(account, other, `Question ${account.user.id}?`);
      expect((await server.get<QnA[]>('/api/qna/', as(account))).body.map((p) => p.id)).toContain(pair.id);
      expect((await server.put(`/api/qna/${pair.id}`, { answer: 'Fine' }, as(account))).status).toBe(200);
      expect((await server.delete(`/api/qna/${pair.id}`, as(account))).status).toBe(200);
      expect((await server.get(`/api/qna/?bot_id=${other}`, as(account))).status).toBe(200);
      expect((await server.post(`/api/training/train/qna/${other}`, undefined, as(account))).status).toBe(
        202,
      );
      const path = `/api/bots/${other}/calendar-booking`;
      expect((await server.post(path, BOOKING, as(account))).status).toBe(200);
      expect((await server.get(path, as(account))).status).toBe(200);
      expect((await server.delete(path, as(account))).status).toBe(200);
      expect(
        (await server.post(`/api/knowledge/search/${other}`, { query: 'hours' }, as(account))).status,
      ).toBe(200);
      expect((await server.delete(`/api/chat/bots/${bot.id}`, as(account))).status).toBe(200);
    }
  });
});
