import { BOTS_SUBJECT, type CalendarBooking, MESSAGES } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { calendarBookings } from '../bots/bots.schema.js';
import { bookingOfBot } from './calendar.module.js';
import { BOOKING_NOT_FOUND } from './calendar.service.js';

let server: TestServer;
let owner: Account;
let stranger: Account;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });
const path = (botId: number | string) => `/api/bots/${botId}/calendar-booking`;
const GHOST_BOT = 99_999_991;

const VALID = {
  message: 'Pick a time that suits you',
  provider: 'calendly',
  url: 'https://calendly.com/acme/30min',
  title: 'Book a demo',
} as const;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  stranger = await signupOwner(server);
});
afterAll(() => server.close());

const newBot = async (account = owner) => (await insertBot(server, account.user.tenant_id)).id;
const rowsOf = (botId: number) =>
  server.database.db.select().from(calendarBookings).where(eq(calendarBookings.botId, botId));

describe('calendar booking', () => {
  it('answers 404 with a detail when the bot has none, then creates, reads, replaces and deletes it', async () => {
    const botId = await newBot();
    const none = await server.get(path(botId), as(owner));
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: BOOKING_NOT_FOUND });

    const created = await server.post<CalendarBooking>(path(botId), VALID, as(owner));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({
      bot_id: botId,
      ...VALID,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const read = await server.get<CalendarBooking>(path(botId), as(owner));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    // A second POST replaces the configuration: still one row, created_at kept.
    const replaced = await server.post<CalendarBooking>(
      path(botId),
      { message: '  Grab a slot  ', provider: 'tidycal', url: 'http://tidycal.com/acme', title: 'Meet us' },
      as(owner),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      bot_id: botId,
      message: 'Grab a slot',
      provider: 'tidycal',
      url: 'http://tidycal.com/acme',
      title: 'Meet us',
      created_at: created.body.created_at,
    });
    expect(Date.parse(replaced.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
    expect(await rowsOf(botId)).toHaveLength(1);
    expect((await server.get<CalendarBooking>(path(botId), as(owner))).body.provider).toBe('tidycal');

    const deleted = await server.delete(path(botId), as(owner));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: MESSAGES.calendar.deleted });
    expect((await server.get(path(botId), as(owner))).status).toBe(404);
    const again = await server.delete(path(botId), as(owner));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: BOOKING_NOT_FOUND });
  });

  it('accepts every provider of the spec', async () => {
    const botId = await newBot();
    for (const provider of ['google', 'calendly', 'cal', 'tidycal']) {
      const saved = await server.post<CalendarBooking>(path(botId), { ...VALID, provider }, as(owner));
      expect(saved.status, provider).toBe(200);
      expect(saved.body.provider).toBe(provider);
    }
  });

  it("refuses bad input with the spec's texts and saves nothing", async () => {
    const botId = await newBot();
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ ...VALID, message: '' }, MESSAGES.calendar.messageRequired],
      [{ ...VALID, message: '   ' }, MESSAGES.calendar.messageRequired],
      [{ provider: VALID.provider, url: VALID.url, title: VALID.title }, MESSAGES.calendar.messageRequired],
      [{ ...VALID, title: '' }, MESSAGES.calendar.titleRequired],
      [{ ...VALID, title: null }, MESSAGES.calendar.titleRequired],
      [{ ...VALID, url: '' }, MESSAGES.calendar.urlInvalid],
      [{ ...VALID, url: 'calendly.com/acme' }, MESSAGES.calendar.urlInvalid],
      [{ ...VALID, url: 'javascript:alert(1)' }, MESSAGES.calendar.urlInvalid],
      [{ ...VALID, url: 'ftp://files.example.com/x' }, MESSAGES.calendar.urlInvalid],
      [{ ...VALID, url: 'https://' }, MESSAGES.calendar.urlInvalid],
      [{ ...VALID, url: `https://example.com/${'a'.repeat(2100)}` }, MESSAGES.calendar.urlInvalid],
      [
        { message: VALID.message, provider: VALID.provider, title: VALID.title },
        MESSAGES.calendar.urlInvalid,
      ],
      [{ ...VALID, provider: 'outlook' }, /google, calendly, cal, tidycal/],
      [{ ...VALID, message: 'x'.repeat(2001) }, /2000/],
    ];
    for (const [body, detail] of cases) {
      const reply = await server.post<{ detail: string }>(path(botId), body, as(owner));
      expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      if (typeof detail === 'string') expect(reply.body).toEqual({ detail });
      else expect(reply.body.detail).toMatch(detail);
    }
    expect(await rowsOf(botId)).toHaveLength(0);
  });

  it("answers 404 for another workspace's bot exactly as for a bot that does not exist, and changes nothing", async () => {
    const botId = await newBot();
    await server.post(path(botId), VALID, as(owner));
    const before = await rowsOf(botId);
    for (const [method, call] of [
      ['GET', () => server.get(path(botId), as(stranger))],
      ['POST', () => server.post(path(botId), { ...VALID, title: 'Hijacked' }, as(stranger))],
      ['DELETE', () => server.delete(path(botId), as(stranger))],
    ] as const) {
      const foreign = await call();
      expect(foreign.status, method).toBe(404);
      expect(foreign.body).toEqual({ detail: 'Bot not found' });
    }
    expect((await server.get(path(GHOST_BOT), as(stranger))).body).toEqual({ detail: 'Bot not found' });
    expect((await server.post(path(GHOST_BOT), VALID, as(stranger))).status).toBe(404);
    expect((await server.delete(path(GHOST_BOT), as(stranger))).status).toBe(404);
    expect(await rowsOf(botId)).toEqual(before);
    // The stranger's own bot with the same id space is unaffected and works for them.
    const theirs = await newBot(stranger);
    expect((await server.post(path(theirs), VALID, as(stranger))).status).toBe(200);
  });

  it('answers 400 for malformed bot ids and 401 without a session', async () => {
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const reply = await server.get(path(bad), as(owner));
      expect(reply.status, bad).toBe(400);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
    expect((await server.get(path(1))).status).toBe(401);
    expect((await server.post(path(1), VALID)).status).toBe(401);
    expect((await server.delete(path(1))).status).toBe(401);
  });

  it('needs Create Bot read to read and Create Bot write to save or delete (403 otherwise)', async () => {
    const botId = await newBot();
    await server.post(path(botId), VALID, as(owner));
    const nobody = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Home: { read: true } }),
      readToken,
    );
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { [BOTS_SUBJECT]: { read: true, create: true } }),
      readToken,
    );
    const writer = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { [BOTS_SUBJECT]: { write: true } }),
      readToken,
    );

    for (const call of [
      () => server.get(path(botId), as(nobody)),
      () => server.post(path(botId), VALID, as(nobody)),
      () => server.delete(path(botId), as(nobody)),
      () => server.post(path(botId), { ...VALID, title: 'Reader' }, as(reader)),
      () => server.delete(path(botId), as(reader)),
      () => server.get(path(botId), as(writer)),
    ]) {
      const reply = await call();
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
    }
    expect((await server.get<CalendarBooking>(path(botId), as(reader))).body.title).toBe(VALID.title);
    const saved = await server.post<CalendarBooking>(path(botId), { ...VALID, title: 'Writer' }, as(writer));
    expect(saved.status).toBe(200);
    expect((await server.delete(path(botId), as(writer))).status).toBe(200);
  });
});

describe('bookingOfBot', () => {
  it("gives what a visitor sees of the bot's booking, or null", async () => {
    const botId = await newBot();
    expect(await bookingOfBot(server.database.db, botId)).toBeNull();
    await server.post(path(botId), VALID, as(owner));
    expect(await bookingOfBot(server.database.db, botId)).toEqual({
      title: VALID.title,
      message: VALID.message,
      url: VALID.url,
      provider: VALID.provider,
    });
  });
});
