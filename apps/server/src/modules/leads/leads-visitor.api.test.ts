import {
  type InboxList,
  LEAD_TEXTS,
  type LeadFormConfig,
  type LeadList,
  MESSAGES,
  type VisitorIdentity,
} from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { bots, leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';
import { notifications } from '../notifications/notifications.schema.js';

let server: TestServer;
let smtp: SmtpCapture;
let owner: Account;
let stranger: Account;
const as = (account: Account) => ({ token: account.access_token });
const readToken = async (email: string) => tokenFromText((await smtp.waitFor(email, /invited you/)).text);

let lastIp = 0;
const from = () => ({ headers: { 'x-forwarded-for': `203.0.113.${++lastIp}` } });

const FORM: LeadFormConfig = {
  enabled: true,
  show_when: 'no_answer',
  after_messages: 3,
  title: 'Leave your details',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
    { name: 'phone', label: 'Phone', type: 'tel', required: false },
  ],
};

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ env: { TRUST_PROXY: 'true', SMTP_URL: smtp.url } });
  owner = await signupOwner(server);
  stranger = await signupOwner(server);
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

async function botWithForm(account = owner) {
  const bot = await insertBot(server, account.user.tenant_id);
  await server.database.db.update(bots).set({ leadFormConfig: FORM }).where(eq(bots.id, bot.id));
  return bot;
}
type Bot = Awaited<ReturnType<typeof botWithForm>>;

/** A widget visitor of the bot (their signed identity) and a conversation of theirs. */
async function visitorWithConversation(bot: Bot) {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  expect(identity.status).toBe(200);
  const [conversation] = await server.database.db
    .insert(conversations)
    .values({ tenantId: bot.tenantId, botId: bot.id, visitorId: identity.body.visitor_id })
    .returning();
  return { token: identity.body.visitor_token, conversationId: conversation!.id };
}

const submit = (bot: Bot, body: unknown, extra: { token?: string } = {}) =>
  server.post<{ id: number; detail?: string }>(`/api/auth/bot/uuid/${bot.uuid}/lead`, body, {
    ...from(),
    ...extra,
  });
const leadRows = (bot: Bot) => server.database.db.select().from(leads).where(eq(leads.botId, bot.id));
const leadPath = (botId: number, leadId: number | string) => `/api/chat/bots/${botId}/leads/${leadId}`;
const notificationsOf = (leadId: number) =>
  server.database.db
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.tenantId, owner.user.tenant_id), eq(notifications.dedupeKey, `lead:${leadId}`)),
    );

/** The visitor email the owner's inbox shows for a conversation (the bot's open ones). */
async function inboxEmailOf(bot: Bot, conversationId: number) {
  const reply = await server.get<InboxList>(
    `/api/chat/helpdesk/inbox/${owner.user.tenant_id}?filter=bot&bot_id=${bot.id}`,
    as(owner),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const row = reply.body.conversations.find((c) => c.conversation_id === conversationId);
  expect(row, 'conversation in the inbox').toBeDefined();
  return row!.visitor_email;
}

describe("a lead's link to its conversation", () => {
  it("links the visitor's own conversation, proven by their token; another's or another bot's is 404", async () => {
    const bot = await botWithForm();
    const ada = await visitorWithConversation(bot);
    const bea = await visitorWithConversation(bot);
    const elsewhere = await visitorWithConversation(await botWithForm());
    const fields = { name: 'Ada', email: 'ada@example.com' };

    const linked = await submit(bot, {
      fields,
      conversation_id: ada.conversationId,
      visitor_token: ada.token,
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const refused: Array<[number, string]> = [
      [bea.conversationId, ada.token],
      [ada.conversationId, elsewhere.token],
      [ada.conversationId, 'not-a-token'],
    ];
    for (const [conversationId, token] of refused) {
      const reply = await submit(bot, {
        fields: { name: 'Mallory', email: 'mallory@example.com' },
        conversation_id: conversationId,
        visitor_token: token,
      });
      expect([reply.status, reply.body]).toEqual([404, { detail: LEAD_TEXTS.conversationNotFound }]);
    }
    expect((await leadRows(bot)).map((l) => [l.conversationId, l.name])).toEqual([
      [ada.conversationId, 'Ada'],
    ]);
  });

  it("keeps a lead that names a conversation without proof, unlinked: it never labels someone else's chat", async () => {
    const bot = await botWithForm();
    const victim = await visitorWithConversation(bot);
    const forged = await submit(bot, {
      fields: { name: 'Mallory', email: 'mallory@example.com' },
      conversation_id: victim.conversationId,
    });
    expect(forged.status).toBe(201);
    const [row] = await leadRows(bot);
    expect([row?.name, row?.conversationId]).toEqual(['Mallory', null]);
    // The inbox names a conversation's visitor from its leads: the victim's stays theirs.
    expect(await inboxEmailOf(bot, victim.conversationId)).toBeNull();
    const own = await submit(bot, {
      fields: { name: 'Victor', email: 'victor@example.com' },
      conversation_id: victim.conversationId,
      visitor_token: victim.token,
    });
    expect(own.status).toBe(201);
    expect(await inboxEmailOf(bot, victim.conversationId)).toBe('victor@example.com');
  });

  it("links the playground's conversation for a signed-in user of the bot's workspace only", async () => {
    const bot = await botWithForm();
    const [mine] = await server.database.db
      .insert(conversations)
      .values({ tenantId: bot.tenantId, botId: bot.id, userId: owner.user.id })
      .returning();
    const fields = { name: 'Tester', email: 'tester@example.com' };
    const byOwner = await submit(bot, { fields, conversation_id: mine!.id }, as(owner));
    expect(byOwner.status).toBe(201);
    const byStranger = await submit(
      bot,
      { fields: { ...fields, phone: '+1 555 0100' }, conversation_id: mine!.id },
      as(stranger),
    );
    expect(byStranger.status).toBe(201);
    const rows = await leadRows(bot);
    expect(new Map(rows.map((l) => [l.id, l.conversationId]))).toEqual(
      new Map([
        [byOwner.body.id, mine!.id],
        [byStranger.body.id, null],
      ]),
    );
  });
});

describe('the same visitor submitting twice', () => {
  it('the same answers again are the same lead: one row, one mail, one notification', async () => {
    const bot = await botWithForm();
    const ada = await visitorWithConversation(bot);
    const body = {
      fields: { name: 'Ada Twice', email: 'ada.twice@example.com' },
      conversation_id: ada.conversationId,
      visitor_token: ada.token,
    };
    // A double click sends both at once; a retry after a lost reply sends it again later.
    const [first, second] = await Promise.all([submit(bot, body), submit(bot, body)]);
    const third = await submit(bot, { ...body, fields: { ...body.fields, name: '  Ada Twice ' } });
    for (const reply of [first, second, third]) expect(reply.status).toBe(201);
    expect(new Set([first.body.id, second.body.id, third.body.id]).size).toBe(1);
    expect(await leadRows(bot)).toHaveLength(1);
    expect(await notificationsOf(first.body.id)).toHaveLength(1);

    // Different answers are a new lead, and the owner hears of it.
    const corrected = await submit(bot, { ...body, fields: { ...body.fields, phone: '+44 20 7946 0958' } });
    expect(corrected.status).toBe(201);
    expect(corrected.body.id).not.toBe(first.body.id);
    await smtp.waitFor(owner.user.email, new RegExp(`New lead from ${bot.botName}`));
    await expect
      .poll(() => smtp.mails.filter((m) => m.text.includes('ada.twice@example.com')).length)
      .toBe(2);
    const mail = smtp.mails.find((m) => m.text.includes('+44 20 7946 0958'));
    expect(mail?.to).toEqual([owner.user.email.toLowerCase()]);
    expect(mail?.text).toContain('Phone: +44 20 7946 0958');
    // Replying to the mail answers the visitor; the address leaves the outbox once sent.
    expect(mail?.raw).toMatch(/^Reply-To: ada\.twice@example\.com\r?$/m);
    const leadMails = () =>
      server.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.subject, `New lead from ${bot.botName}`));
    await expect.poll(async () => (await leadMails()).every((row) => row.status === 'sent')).toBe(true);
    const sent = await leadMails();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.map((row) => row.replyTo)).toEqual(sent.map(() => null));
    expect(await leadRows(bot)).toHaveLength(2);
  });
});

describe('erasing a lead (GDPR)', () => {
  it('deletes the lead and the notifications naming it; the list and export no longer show it', async () => {
    const bot = await botWithForm();
    const kept = await submit(bot, { fields: { name: 'Keep Me', email: 'keep@example.com' } });
    const erased = await submit(bot, { fields: { name: 'Forget Me', email: 'forget@example.com' } });
    expect(await notificationsOf(erased.body.id)).not.toHaveLength(0);

    const reply = await server.delete<{ message: string }>(leadPath(bot.id, erased.body.id), as(owner));
    expect([reply.status, reply.body]).toEqual([200, { message: LEAD_TEXTS.deleted }]);
    expect((await leadRows(bot)).map((l) => l.id)).toEqual([kept.body.id]);
    expect(await notificationsOf(erased.body.id)).toHaveLength(0);
    expect(await notificationsOf(kept.body.id)).not.toHaveLength(0);
    const list = await server.get<LeadList>(`/api/chat/bots/${bot.id}/leads`, as(owner));
    expect(list.body.total).toBe(1);
    const csv = await server.get<string>(`/api/chat/bots/${bot.id}/leads.csv`, as(owner));
    expect(String(csv.body)).not.toContain('forget@example.com');

    const again = await server.delete(leadPath(bot.id, erased.body.id), as(owner));
    expect([again.status, again.body]).toEqual([404, { detail: LEAD_TEXTS.notFound }]);
  });

  it("answers 404 for another bot's or workspace's lead and changes nothing", async () => {
    const bot = await botWithForm();
    const otherBot = await botWithForm();
    const lead = await submit(bot, { fields: { name: 'Stay', email: 'stay@example.com' } });
    const cases: Array<[string, Account, string]> = [
      [leadPath(otherBot.id, lead.body.id), owner, LEAD_TEXTS.notFound],
      [leadPath(bot.id, lead.body.id), stranger, 'Bot not found'],
      [leadPath(99_999_991, lead.body.id), owner, 'Bot not found'],
    ];
    for (const [path, account, detail] of cases) {
      const reply = await server.delete(path, as(account));
      expect([reply.status, reply.body], path).toEqual([404, { detail }]);
    }
    for (const bad of ['abc', '0', '-1']) {
      expect((await server.delete(leadPath(bot.id, bad), as(owner))).status).toBe(400);
    }
    expect((await server.delete(leadPath(bot.id, lead.body.id))).status).toBe(401);
    expect(await leadRows(bot)).toHaveLength(1);
  });

  it('needs Leads write: an agent who reads leads gets 403, a role granted write may erase', async () => {
    const bot = await botWithForm();
    const lead = await submit(bot, { fields: { name: 'Perm', email: 'perm@example.com' } });
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Leads: { read: true } }),
      readToken,
    );
    const refused = await server.delete(leadPath(bot.id, lead.body.id), as(reader));
    expect([refused.status, refused.body]).toEqual([403, { detail: MESSAGES.auth.forbidden }]);
    expect(await leadRows(bot)).toHaveLength(1);
    const writer = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Leads: { read: true, write: true } }),
      readToken,
    );
    expect((await server.delete(leadPath(bot.id, lead.body.id), as(writer))).status).toBe(200);
    expect(await leadRows(bot)).toHaveLength(0);
  });
});
