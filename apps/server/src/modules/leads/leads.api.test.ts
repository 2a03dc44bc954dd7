import {
  BOTS_SUBJECT,
  LEAD_LIMITS,
  LEAD_TEXTS,
  type LeadFormConfig,
  type LeadList,
  MESSAGES,
} from '@parley/contracts';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { bots, leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';

let server: TestServer;
let owner: Account;
let stranger: Account;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });
const GHOST_BOT = 99_999_991;
const GHOST_UUID = '00000000-0000-4000-8000-000000000000';

/** Each visitor comes from an address of its own, so tests do not share the per-IP limit. */
let lastIp = 0;
const newIp = () => `198.51.100.${++lastIp}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

const submitPath = (uuid: string) => `/api/auth/bot/uuid/${uuid}/lead`;
const listPath = (botId: number | string, query = '') => `/api/chat/bots/${botId}/leads${query}`;
const csvPath = (botId: number | string) => `/api/chat/bots/${botId}/leads.csv`;

const FORM: LeadFormConfig = {
  enabled: true,
  show_when: 'no_answer',
  after_messages: 3,
  title: 'Leave your details',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
    { name: 'phone', label: 'Phone number', type: 'tel', required: false },
    { name: 'notes', label: 'Notes', type: 'text', required: false },
  ],
};
const ADA = { name: 'Ada Lovelace', email: 'ada@example.com' };

beforeAll(async () => {
  // Behind a proxy: the visitor's address comes from X-Forwarded-For, so each test can have its own.
  server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  owner = await signupOwner(server);
  stranger = await signupOwner(server);
});
afterAll(() => server.close());

/** A bot of the owner's workspace with the given lead form (set on the row, as the bots API would). */
async function botWithForm(form: LeadFormConfig | null = FORM, account = owner) {
  const bot = await insertBot(server, account.user.tenant_id);
  await server.database.db.update(bots).set({ leadFormConfig: form }).where(eq(bots.id, bot.id));
  return bot;
}
const submit = (uuid: string, body: unknown, ip = newIp(), token?: string) =>
  server.post<{ id: number; message: string } & { detail?: string }>(submitPath(uuid), body, {
    ...from(ip),
    token,
  });
const leadsOf = (botId: number) => server.database.db.select().from(leads).where(eq(leads.botId, botId));

describe('who reads leads', () => {
  it('a teammate restricted to some bots reads their leads only; the others answer 404 like missing bots', async () => {
    const mine = await botWithForm();
    const notMine = await botWithForm();
    const bea = { name: 'Bea Restricted', email: 'bea@example.com' };
    for (const bot of [mine, notMine]) expect((await submit(bot.uuid, { fields: bea })).status).toBe(201);
    const role = await createRole(server, owner, { Leads: { read: true } });
    const agent = await addTeammate(server, owner, role, readToken);
    // Every bot by default.
    expect((await server.get<LeadList>(listPath(notMine.id), as(agent))).status).toBe(200);
    const put = await server.put(
      `/api/auth/bots-assigned/${agent.user.id}`,
      { bot_ids: [mine.id], all_bots: false },
      as(owner),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // The session carries all_bots: the same token now works with the assigned bot only.
    const restricted = agent;
    expect((await server.get<LeadList>(listPath(mine.id), as(restricted))).body.total).toBe(1);
    for (const path of [listPath(notMine.id), csvPath(notMine.id)]) {
      const refused = await server.get(path, as(restricted));
      expect([refused.status, refused.body], path).toEqual([404, { detail: 'Bot not found' }]);
    }
    // The owner still reads every bot's.
    expect((await server.get<LeadList>(listPath(notMine.id), as(owner))).body.total).toBe(1);
  });
});

describe('a visitor leaving details', () => {
  it('is stored with name and email copied out, and listed newest first with a total', async () => {
    const bot = await botWithForm();
    const first = await submit(bot.uuid, { fields: { ...ADA, phone: '+44 20 7946 0958', notes: '' } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({ id: expect.any(Number), message: LEAD_TEXTS.received });
    const second = await submit(bot.uuid, { fields: { name: ' Grace ', email: 'grace@example.com' } });
    expect(second.status).toBe(201);

    const list = await server.get<LeadList>(listPath(bot.id), as(owner));
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((l) => l.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body.items[1]).toEqual({
      id: first.body.id,
      bot_id: bot.id,
      conversation_id: null,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      fields: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958' },
      source: 'lead_form',
      created_at: expect.any(String),
    });
    expect(list.body.items[0]).toMatchObject({ name: 'Grace', email: 'grace@example.com' });
    const [row] = await leadsOf(bot.id);
    expect(row?.tenantId).toBe(owner.user.tenant_id);

    // The owner hears of each lead by mail, with the form's labels.
    const mails = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, owner.user.email));
    const adaMail = mails.find((mail) => mail.textBody?.includes('Ada Lovelace'));
    expect(adaMail?.subject).toBe(`New lead from ${bot.botName}`);
    expect(adaMail?.textBody).toContain('Phone number: +44 20 7946 0958');
    expect(adaMail?.textBody).toContain(`/leads?bot=${bot.id}`);
    expect(mails.filter((mail) => mail.textBody?.includes('grace@example.com'))).toHaveLength(1);
  });

  it("is checked against the bot's form, with details naming the field", async () => {
    const bot = await botWithForm();
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ fields: { email: ADA.email } }, 400, 'Name is required'],
      [{ fields: { name: '  ', email: ADA.email } }, 400, 'Name is required'],
      [{ fields: { name: 'Ada' } }, 400, 'Email is required'],
      [{ fields: { ...ADA, email: 'not-an-email' } }, 400, 'Email must be a valid email address'],
      [{ fields: { ...ADA, phone: 'call me maybe' } }, 400, 'Phone number must be a valid phone number'],
      [{ fields: { ...ADA, age: '36' } }, 400, 'Unknown field: age'],
      [{ fields: { ...ADA, notes: 'x'.repeat(501) } }, 400, 'Notes must be at most 500 characters'],
      [{ fields: { ...ADA, notes: 'bad\u0000byte' } }, 400, 'Notes contains characters that are not allowed'],
      [{ fields: { ...ADA, notes: 5 } }, 400, /text/],
      [{ fields: ['Ada'] }, 400, /fields/],
      [{}, 400, /fields/],
      [{ fields: ADA, conversation_id: 'abc' }, 400, 'Conversation must be a number'],
      [{ fields: ADA, conversation_id: 0 }, 400, 'Conversation must be a positive number'],
    ];
    for (const [body, status, detail] of cases) {
      const reply = await submit(bot.uuid, body);
      expect(reply.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      if (typeof detail === 'string') expect(reply.body).toEqual({ detail });
      else expect(reply.body.detail).toMatch(detail);
    }
    expect(await leadsOf(bot.id)).toHaveLength(0);
  });

  it('answers 404 when the bot does not exist or collects no details, 400 for a malformed uuid', async () => {
    const disabled = await botWithForm({ ...FORM, enabled: false });
    const formless = await botWithForm(null);
    for (const [uuid, detail] of [
      [GHOST_UUID, 'Bot not found'],
      [disabled.uuid, LEAD_TEXTS.formUnavailable],
      [formless.uuid, LEAD_TEXTS.formUnavailable],
    ] as const) {
      const reply = await submit(uuid, { fields: ADA });
      expect(reply.status, uuid).toBe(404);
      expect(reply.body).toEqual({ detail });
    }
    const malformed = await submit('not-a-uuid', { fields: ADA });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: expect.any(String) });
    expect([...(await leadsOf(disabled.id)), ...(await leadsOf(formless.id))]).toHaveLength(0);
  });

  it("links the bot's own conversation for its workspace's user and refuses another bot's or a missing one (404)", async () => {
    const bot = await botWithForm();
    const other = await botWithForm(FORM, stranger);
    const db = server.database.db;
    const [own] = await db
      .insert(conversations)
      .values({ tenantId: owner.user.tenant_id, botId: bot.id })
      .returning();
    const [foreign] = await db
      .insert(conversations)
      .values({ tenantId: stranger.user.tenant_id, botId: other.id })
      .returning();

    // The playground sends the session as proof; a widget visitor sends their token (leads-visitor.api.test.ts).
    const linked = await submit(
      bot.uuid,
      { fields: ADA, conversation_id: own!.id },
      newIp(),
      owner.access_token,
    );
    expect(linked.status).toBe(201);
    for (const conversationId of [foreign!.id, 99_999_999]) {
      const body = { fields: ADA, conversation_id: conversationId };
      const refused = await submit(bot.uuid, body, newIp(), owner.access_token);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ detail: LEAD_TEXTS.conversationNotFound });
    }
    expect((await leadsOf(bot.id)).map((l) => l.conversationId)).toEqual([own!.id]);
    const list = await server.get<LeadList>(listPath(bot.id), as(owner));
    expect(list.body.items[0]?.conversation_id).toBe(own!.id);
  });

  it(`is limited to ${LEAD_LIMITS.perIp} submissions per IP, then 429 with Retry-After`, async () => {
    const bot = await botWithForm();
    const ip = newIp();
    for (let i = 0; i < LEAD_LIMITS.perIp; i++) {
      // Refused submissions count too: the limit protects the server, not only the table.
      // Different answers each time: the same ones again would be the same lead.
      const body = i % 2 === 0 ? { fields: { ...ADA, name: `Ada ${i}` } } : { fields: { name: 'x' } };
      expect((await submit(bot.uuid, body, ip)).status).toBe(i % 2 === 0 ? 201 : 400);
    }
    const limited = await submit(bot.uuid, { fields: ADA }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: expect.stringMatching(/Too many attempts/) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LEAD_LIMITS.windowSeconds);
    // Another visitor is not affected.
    expect((await submit(bot.uuid, { fields: ADA }, newIp())).status).toBe(201);
    expect(await leadsOf(bot.id)).toHaveLength(LEAD_LIMITS.perIp / 2 + 1);
  });
});

describe("the owner's list and export", () => {
  it('pages with skip and limit and refuses bad paging', async () => {
    const bot = await botWithForm();
    for (let i = 0; i < 5; i++) {
      const reply = await submit(bot.uuid, { fields: { name: `Visitor ${i}`, email: `v${i}@example.com` } });
      expect(reply.status).toBe(201);
    }
    const page = await server.get<LeadList>(listPath(bot.id, '?skip=1&limit=2'), as(owner));
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.items.map((l) => l.name)).toEqual(['Visitor 3', 'Visitor 2']);
    const rest = await server.get<LeadList>(listPath(bot.id, '?skip=4'), as(owner));
    expect(rest.body.items.map((l) => l.name)).toEqual(['Visitor 0']);
    const defaults = await server.get<LeadList>(listPath(bot.id), as(owner));
    expect(defaults.body.items).toHaveLength(5);
    for (const query of ['?limit=0', '?limit=101', '?skip=-1', '?limit=abc', '?skip=1.5']) {
      const bad = await server.get(listPath(bot.id, query), as(owner));
      expect(bad.status, query).toBe(400);
      expect(bad.body).toEqual({ detail: expect.any(String) });
    }
    const empty = await server.get<LeadList>(listPath((await botWithForm()).id), as(owner));
    expect(empty.body).toEqual({ items: [], total: 0 });
  });

  it('exports CSV with the form labels as headers, quoting and formula escaping', async () => {
    const bot = await botWithForm();
    const nasty = {
      name: '=HYPERLINK("http://evil.example","click")',
      email: 'mallory@example.com',
      phone: '+1 555 0100',
      notes: 'Line one\nLine "two", with comma',
    };
    expect((await submit(bot.uuid, { fields: ADA })).status).toBe(201);
    expect((await submit(bot.uuid, { fields: nasty })).status).toBe(201);

    const response = await fetch(`${server.url}${csvPath(bot.id)}`, {
      headers: { authorization: `Bearer ${owner.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="leads-${bot.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith('\uFEFFSubmitted at,Name,Email,Phone number,Notes,Conversation ID\r\n')).toBe(
      true,
    );
    expect(text).toContain(
      `"'=HYPERLINK(""http://evil.example"",""click"")",mallory@example.com,'+1 555 0100,"Line one\nLine ""two"", with comma",`,
    );
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(['Submitted at', 'Name', 'Email', 'Phone number', 'Notes', 'Conversation ID']);
    // Newest first, as in the list.
    expect(rows[1]!.slice(1)).toEqual([`'${nasty.name}`, nasty.email, `'${nasty.phone}`, nasty.notes, '']);
    expect(rows[2]!.slice(1)).toEqual([ADA.name, ADA.email, '', '', '']);
    expect(Number.isNaN(Date.parse(rows[1]![0]!))).toBe(false);
  });

  it("answers 404 for another workspace's bot exactly as for a missing one", async () => {
    const bot = await botWithForm();
    expect((await submit(bot.uuid, { fields: ADA })).status).toBe(201);
    for (const target of [bot.id, GHOST_BOT]) {
      const list = await server.get(listPath(target), as(stranger));
      expect(list.status).toBe(404);
      expect(list.body).toEqual({ detail: 'Bot not found' });
      const csv = await server.get(csvPath(target), as(stranger));
      expect(csv.status).toBe(404);
      expect(csv.body).toEqual({ detail: 'Bot not found' });
    }
  });

  it('needs Leads read (403 otherwise, even managing bots) and a session (401)', async () => {
    const bot = await botWithForm();
    // Issue 31: leads are a feature of their own, so an agent reads them without managing bots.
    const nobody = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Home: { read: true }, [BOTS_SUBJECT]: { read: true } }),
      readToken,
    );
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Leads: { read: true } }),
      readToken,
    );
    for (const path of [listPath(bot.id), csvPath(bot.id)]) {
      const refused = await server.get(path, as(nobody));
      expect(refused.status, path).toBe(403);
      expect(refused.body).toEqual({ detail: MESSAGES.auth.forbidden });
      expect((await server.get(path, as(reader))).status, path).toBe(200);
      expect((await server.get(path)).status, path).toBe(401);
    }
    for (const bad of ['abc', '0', '-1']) {
      expect((await server.get(listPath(bad), as(owner))).status).toBe(400);
      expect((await server.get(csvPath(bad), as(owner))).status).toBe(400);
    }
  });
});
