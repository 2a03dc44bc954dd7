import {
  type AuthResponse,
  type Bot,
  type EmailLog,
  MESSAGES,
  NOTIFICATION_LIMITS,
  type NotificationCount,
  type NotificationList,
  type Role,
  type SendEmailResponse,
  type VisitorIdentity,
} from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mailOutbox, users } from '../../core/db/schema.js';
import type { JobContext } from '../../core/jobs/queue.js';
import type { ModuleDeps } from '../../core/module.js';
import { createBotViaApi, insertBot } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { UsageNotices } from '../billing/usage-notices.js';
import { bots } from '../bots/bots.schema.js';
import { MailService } from '../mail/mail.service.js';
import { notificationEmails, notifications } from './notifications.schema.js';
import { notify, notifyingSyncFailure } from './notifications.service.js';

type Frame = { type?: string; user_id?: number; tenant_id?: number };

let server: TestServer;
let owner: Account;
let agent: Account;
let manager: Account;
let member: Account;
let partner: Account;
let other: Account;
let admin: Account;
let bot: Bot;

const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const countPath = (account: Account, ids: { user?: number; tenant?: number } = {}) =>
  `/api/notification/count?user_id=${ids.user ?? account.user.id}&tenant_id=${ids.tenant ?? account.user.tenant_id}`;
const countOf = async (account: Account) => {
  const reply = await server.get<NotificationCount>(countPath(account), as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.count;
};
const listOf = async (account: Account, query = '') => {
  const reply = await server.get<NotificationList>(`/api/notification/list${query}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const kindsOf = async (account: Account) => (await listOf(account)).notifications.map((n) => n.kind);

async function teammate(grants: Parameters<typeof createRole>[2]): Promise<Account> {
  const role: Role = await createRole(server, owner, grants);
  return addTeammate(server, owner, role, readToken);
}

/** The user signs in again (a changed user_type shows in a new session). */
async function signInAgain(account: Account): Promise<Account> {
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: account.user.email,
    password: account.password,
  });
  expect(login.status).toBe(200);
  return { ...account, ...login.body };
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  other = await signupOwner(server);
  agent = await teammate({ Inbox: { read: true, write: true } });
  manager = await teammate({ 'Create Bot': { read: true, write: true, create: true } });
  member = await teammate({});
  partner = await teammate({ Inbox: { read: true, write: true }, 'Create Bot': { read: true } });
  await server.database.db.update(users).set({ userType: 'partner' }).where(eq(users.id, partner.user.id));
  partner = await signInAgain(partner);
  const platform = await signupOwner(server);
  await server.database.db.update(users).set({ userType: 'admin' }).where(eq(users.id, platform.user.id));
  admin = await signInAgain(platform);
  bot = await createBotViaApi(server, owner, { bot_name: 'Support' });
});
afterAll(async () => {
  await server?.close();
});

async function openSocket(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    frames,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    close: () => socket.close(),
  };
}

/** The agent's admin channel, as the console opens it. */
async function adminChannel(account: Account) {
  const client = await openSocket(
    `${server.url.replace('http', 'ws')}/api/chat/helpdesk?token=${account.access_token}&tenant_id=${account.user.tenant_id}&user_id=${account.user.id}`,
  );
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'helpdesk' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

/** A widget visitor who presses "Talk to a person"; resolves with the conversation id. */
async function visitorAsksForPerson(): Promise<number> {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  const client = await openSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
  );
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  client.send({ type: 'request_human', bot_id: bot.bot_id, conversation_id: 0 });
  const requested = () =>
    client.frames
      .map(
        (f) =>
          (f as { final_result_object?: { conversation_id: number; handoff?: { to: string } | null } })
            .final_result_object,
      )
      .find((m) => m?.handoff?.to === 'human_requested');
  await expect.poll(requested).toBeDefined();
  const conversationId = requested()!.conversation_id;
  client.close();
  return conversationId;
}

describe('a hand-off request', () => {
  it('notifies once those who read the inbox, tells their admin channel, and nobody else', async () => {
    const channel = await adminChannel(agent);
    const before = { owner: await countOf(owner), agent: await countOf(agent) };
    const conversationId = await visitorAsksForPerson();

    await expect.poll(() => countOf(agent)).toBe(before.agent + 1);
    expect(await countOf(owner)).toBe(before.owner + 1);
    // Section 7: the admin event carries the numeric user_id and tenant_id of the one to fetch.
    await expect
      .poll(() => channel.frames.find((f) => f.type === 'notification'))
      .toEqual({ type: 'notification', user_id: agent.user.id, tenant_id: agent.user.tenant_id });
    channel.close();

    const [latest] = (await listOf(agent)).notifications;
    expect(latest).toMatchObject({
      kind: 'handoff_requested',
      title: 'A visitor asks for a person',
      link: `/inbox?conversation=${conversationId}&bot=${bot.bot_id}`,
      read: false,
    });
    // No Inbox grant, a partner (even with one), another workspace: nothing.
    for (const account of [manager, member, partner, other])
      expect(await kindsOf(account)).not.toContain('handoff_requested');
  });
});

describe('a lead', () => {
  it('notifies those who read Leads (without managing bots), once per lead, linking to the leads page', async () => {
    const reader = await teammate({ Leads: { read: true } });
    const leadBot = await insertBot(server, owner.user.tenant_id, 'Leads_bot');
    await server.database.db
      .update(bots)
      .set({
        leadFormConfig: {
          enabled: true,
          show_when: 'no_answer',
          after_messages: 3,
          title: 'Leave your details',
          fields: [{ name: 'email', label: 'Email', type: 'email', required: true }],
        },
      })
      .where(eq(bots.id, leadBot.id));
    const submitted = await server.post(`/api/auth/bot/uuid/${leadBot.uuid}/lead`, {
      fields: { email: 'ada@example.com' },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const lead = (await listOf(reader)).notifications.find((n) => n.kind === 'lead_created');
    expect(lead).toMatchObject({
      title: 'New lead from Leads_bot',
      body: 'ada@example.com',
      link: `/leads?bot=${leadBot.id}`,
    });
    expect(await kindsOf(owner)).toContain('lead_created');
    expect(await kindsOf(agent)).not.toContain('lead_created');
    expect(await kindsOf(manager)).not.toContain('lead_created');
  });
});

describe('training', () => {
  it('tells bot managers when a Q&A training finishes', async () => {
    const pair = await server.post(
      '/api/qna/',
      { question: 'Opening hours?', answer: '9 to 5', bot_id: bot.bot_id },
      as(owner),
    );
    expect(pair.status, JSON.stringify(pair.body)).toBeLessThan(300);
    const started = await server.post(`/api/training/train/qna/${bot.bot_id}`, {}, as(owner));
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    await expect.poll(async () => kindsOf(manager), { timeout: 10_000 }).toContain('training_finished');
    const finished = (await listOf(manager)).notifications.find((n) => n.kind === 'training_finished');
    expect(finished).toMatchObject({ title: 'Training finished: Q&A', link: '/bot/knowledge/qna' });
    expect(await kindsOf(agent)).not.toContain('training_finished');
  });
});

describe('sync failures', () => {
  const job = (id: string, attempt: number): JobContext<{ url: string }> => ({
    id,
    name: 'crawler.crawl',
    data: { url: 'https://docs.example' },
    tenantId: owner.user.tenant_id,
    attempt,
    progress: async () => undefined,
    signal: new AbortController().signal,
  });
  const failing = () =>
    notifyingSyncFailure(
      server.database.db,
      2,
      (j: JobContext<{ url: string }>) => ({
        what: `website ${j.data.url}`,
        link: '/bot/knowledge/websites',
      }),
      async () => {
        throw new Error('the site answered 500');
      },
    );

  it('say nothing while a retry is left, then once on the last attempt, even if that runs twice', async () => {
    const count = async () => (await kindsOf(manager)).filter((k) => k === 'sync_failed').length;
    const before = await count();
    await expect(failing()(job('job-a', 1))).rejects.toThrow('500');
    expect(await count()).toBe(before);
    await expect(failing()(job('job-a', 2))).rejects.toThrow('500');
    await expect(failing()(job('job-a', 2))).rejects.toThrow('500');
    expect(await count()).toBe(before + 1);
    const failed = (await listOf(manager)).notifications.find((n) => n.kind === 'sync_failed');
    expect(failed).toMatchObject({
      title: 'Sync failed: website https://docs.example',
      link: '/bot/knowledge/websites',
    });
  });

  it('count a result that says failure (a store sync with every type in error)', async () => {
    const before = (await kindsOf(owner)).filter((k) => k === 'sync_failed').length;
    const run = notifyingSyncFailure(
      server.database.db,
      1,
      () => ({ what: 'store', link: '/integrations' }),
      async () => ({ status: 'error' }),
      (result) => result.status === 'error',
    );
    await run(job('job-b', 1));
    expect((await kindsOf(owner)).filter((k) => k === 'sync_failed').length).toBe(before + 1);
  });
});

describe('billing notices', () => {
  it('the message limit at 100 % reaches those who read Subscriptions, once a month', async () => {
    const deps = {
      db: server.database.db,
      mail: new MailService(server.database.db, server.parley.jobs, {
        from: 'test@example.com',
        logger: { info: () => undefined },
      }),
      config: { publicUrl: server.url },
    } as unknown as ModuleDeps;
    const notices = new UsageNotices(deps);
    await notices.noticeMessages(owner.user.tenant_id, 80, 100);
    expect(await kindsOf(owner)).not.toContain('limit_reached');
    await notices.noticeMessages(owner.user.tenant_id, 100, 100);
    await notices.noticeMessages(owner.user.tenant_id, 100, 100);
    expect((await kindsOf(owner)).filter((k) => k === 'limit_reached')).toHaveLength(1);
    for (const account of [agent, manager, partner])
      expect(await kindsOf(account)).not.toContain('limit_reached');
  });

  it('a failed payment (as the Razorpay webhook stores it) reaches those who read Subscriptions', async () => {
    const notified = await server.database.db.transaction((tx) =>
      notify(tx, {
        tenantId: owner.user.tenant_id,
        kind: 'payment_failed',
        title: 'A payment failed',
        link: '/subscriptions',
        dedupeKey: 'payment:pay_test_1',
      }),
    );
    expect(notified).toEqual([owner.user.id]);
    // The same effect again (a webhook retried): nobody is told twice.
    const again = await notify(server.database.db, {
      tenantId: owner.user.tenant_id,
      kind: 'payment_failed',
      title: 'A payment failed',
      dedupeKey: 'payment:pay_test_1',
    });
    expect(again).toEqual([]);
    const rows = await server.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, owner.user.id), eq(notifications.dedupeKey, 'payment:pay_test_1')));
    expect(rows).toHaveLength(1);
  });

  it('a rolled-back cause leaves no notification', async () => {
    await expect(
      server.database.db.transaction(async (tx) => {
        await notify(tx, {
          tenantId: owner.user.tenant_id,
          kind: 'payment_failed',
          title: 'x',
          dedupeKey: 'rolled-back',
        });
        throw new Error('cause failed');
      }),
    ).rejects.toThrow('cause failed');
    const [row] = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(eq(notifications.dedupeKey, 'rolled-back'));
    expect(row!.n).toBe(0);
  });
});

describe('the bell', () => {
  it('opening it resets the count; the list keeps read and unread, newest first', async () => {
    const first = await notify(server.database.db, {
      tenantId: owner.user.tenant_id,
      kind: 'handoff_requested',
      title: 'First',
      dedupeKey: 'bell:1',
    });
    await notify(server.database.db, {
      tenantId: owner.user.tenant_id,
      kind: 'handoff_requested',
      title: 'Second',
      dedupeKey: 'bell:2',
    });
    expect(first).toContain(agent.user.id);
    const list = await listOf(agent, '?limit=2');
    expect(list.notifications.map((n) => n.title)).toEqual(['Second', 'First']);
    expect(list.count).toBe(await countOf(agent));
    expect(list.count).toBeGreaterThanOrEqual(2);

    const seen = await server.post<NotificationCount>('/api/notification/seen', {}, as(agent));
    expect(seen.body).toEqual({ count: 0 });
    expect(await countOf(agent)).toBe(0);
    const after = await listOf(agent, '?unread=true');
    expect(after.notifications.map((n) => n.title)).toContain('First');
    expect(after.unread).toBeGreaterThanOrEqual(2);

    const firstId = list.notifications[1]!.id;
    const read = await server.post(`/api/notification/${firstId}/read`, {}, as(agent));
    expect(read.status).toBe(200);
    expect((await listOf(agent, '?unread=true')).notifications.map((n) => n.id)).not.toContain(firstId);
    // Paging back from the newest.
    const older = await listOf(agent, `?before=${list.notifications[0]!.id}&limit=1`);
    expect(older.notifications.map((n) => n.id)).toEqual([firstId]);

    const all = await server.post('/api/notification/read-all', {}, as(agent));
    expect(all.status).toBe(200);
    expect((await listOf(agent)).unread).toBe(0);
  });

  it("answers 404 for someone else's notification or count, and 400 for bad input", async () => {
    const [mine] = (await listOf(owner)).notifications;
    expect(mine).toBeDefined();
    // Another workspace, and a teammate (who has a copy of their own under another id).
    for (const stranger of [other, agent]) {
      const reply = await server.post(`/api/notification/${mine!.id}/read`, {}, as(stranger));
      expect(reply.status).toBe(404);
    }
    expect((await listOf(owner)).notifications.find((n) => n.id === mine!.id)?.read).toBe(mine!.read);
    const ghost = await server.post('/api/notification/99999991/read', {}, as(owner));
    expect(ghost.status).toBe(404);
    expect((await server.get(countPath(owner, { user: agent.user.id }), as(owner))).status).toBe(404);
    expect((await server.get(countPath(owner, { tenant: other.user.tenant_id }), as(owner))).status).toBe(
      404,
    );
    expect((await server.get('/api/notification/count', as(owner))).status).toBe(400);
    expect((await server.get('/api/notification/list?limit=1000', as(owner))).status).toBe(400);
    expect((await server.get(countPath(owner))).status).toBe(401);
  });

  it('pages back through every notification once, even one stored with an older time than a newer id', async () => {
    const reader = await teammate({ Inbox: { read: true } });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    // A longer transaction stamps its start: the row with the larger id can be the older one.
    const times = [5, 4, 3, 1, 2, 0].map(at);
    for (const [i, createdAt] of times.entries()) {
      await server.database.db.insert(notifications).values({
        tenantId: owner.user.tenant_id,
        userId: reader.user.id,
        kind: 'handoff_requested',
        title: `Page ${i}`,
        dedupeKey: `page:${i}`,
        createdAt,
      });
    }
    const titles: string[] = [];
    let before: number | undefined;
    for (let page = 0; page < 10; page++) {
      const query = `?limit=2${before === undefined ? '' : `&before=${before}`}`;
      const { notifications: rows } = await listOf(reader, query);
      if (rows.length === 0) break;
      titles.push(...rows.map((n) => n.title));
      before = rows.at(-1)!.id;
    }
    expect(titles).toEqual(['Page 5', 'Page 3', 'Page 4', 'Page 2', 'Page 1', 'Page 0']);
    // Someone else's id as the cursor gives nothing of theirs and nothing of one's own.
    const [ownersNewest] = (await listOf(owner)).notifications;
    expect((await listOf(reader, `?before=${ownersNewest!.id}`)).notifications).toEqual([]);
  });

  it('a partner has nothing in it', async () => {
    expect(await countOf(partner)).toBe(0);
    expect((await listOf(partner)).notifications).toEqual([]);
  });
});

describe('email notifications', () => {
  const send = (account: Account, body: Record<string, unknown>) =>
    server.post<SendEmailResponse & { detail?: string }>('/api/notification/send-email', body, as(account));
  const log = (account: Account, query = '') =>
    server.get<EmailLog & { detail?: string }>(`/api/notification/emails/${query}`, as(account));

  it('mails teammates through the outbox and lists them in the log, filtered by bot and dates', async () => {
    const sent = await send(agent, {
      user_ids: [owner.user.id],
      subject: 'Angry customer',
      message: 'Please look at the conversation with the boots.',
      bot_id: bot.bot_id,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.message).toBe('Email notification sent!');
    expect(sent.body.message).toBe(MESSAGES.notification.emailSent);
    expect(await outboxText(server.database, owner.user.email)).toContain('boots');

    const entries = (await log(owner)).body.emails;
    expect(entries[0]).toMatchObject({
      id: sent.body.email_ids[0],
      tenant_id: owner.user.tenant_id,
      bot_id: bot.bot_id,
      sent_by: agent.user.id,
      to: owner.user.email,
      subject: 'Angry customer',
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await log(owner, `?start_date=${today}&end_date=${today}&bot_id=${bot.bot_id}`)).body.emails,
    ).toHaveLength(1);
    expect((await log(owner, '?end_date=2020-01-01')).body.emails).toEqual([]);
    expect((await log(owner, '?start_date=2999-01-01')).body.emails).toEqual([]);
    const otherBot = await insertBot(server, owner.user.tenant_id);
    expect((await log(owner, `?bot_id=${otherBot.id}`)).body.emails).toEqual([]);
    expect((await log(owner, '?start_date=2026-02-01&end_date=2026-01-01')).status).toBe(400);
    expect((await log(owner, '?start_date=yesterday')).status).toBe(400);
  });

  it("keeps each workspace to its own: another tenant's log, bot or users answer 404; admins may look", async () => {
    expect((await log(other)).body.emails).toEqual([]);
    const foreignLog = await log(other, `?tenant_id=${owner.user.tenant_id}`);
    expect(foreignLog.status).toBe(404);
    expect((await log(other, `?bot_id=${bot.bot_id}`)).status).toBe(404);
    expect((await log(admin, `?tenant_id=${owner.user.tenant_id}`)).body.emails.length).toBeGreaterThan(0);
    expect((await log(admin, '?tenant_id=99999991')).status).toBe(404);

    const outboxBefore = await server.database.db.$count(mailOutbox);
    expect((await send(other, { user_ids: [owner.user.id], subject: 'Hi', message: 'x' })).status).toBe(404);
    expect(
      (await send(other, { user_ids: [other.user.id], subject: 'Hi', message: 'x', bot_id: bot.bot_id }))
        .status,
    ).toBe(404);
    expect(await server.database.db.$count(mailOutbox)).toBe(outboxBefore);
  });

  it('needs Inbox: read for the log, write to send; bad input changes nothing', async () => {
    expect((await log(member)).status).toBe(403);
    expect((await send(member, { user_ids: [owner.user.id], subject: 'Hi', message: 'x' })).status).toBe(403);
    expect((await send(partner, { user_ids: [owner.user.id], subject: 'Hi', message: 'x' })).status).toBe(
      403,
    );
    const before = await server.database.db.$count(notificationEmails);
    const empty = await send(agent, { user_ids: [], subject: 'Hi', message: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('Choose at least one recipient');
    expect((await send(agent, { user_ids: [owner.user.id], subject: ' ', message: 'x' })).body.detail).toBe(
      'Subject is required',
    );
    expect((await send(agent, { user_ids: [owner.user.id], subject: 'Hi' })).status).toBe(400);
    expect(await server.database.db.$count(notificationEmails)).toBe(before);
  });

  it(`sends at most ${NOTIFICATION_LIMITS.emailsPerHour} mails per workspace per hour`, async () => {
    const used = await server.database.db.$count(
      notificationEmails,
      eq(notificationEmails.tenantId, owner.user.tenant_id),
    );
    const fill = NOTIFICATION_LIMITS.emailsPerHour - used;
    for (let i = 0; i < fill; i++) {
      const [row] = await server.database.db
        .insert(mailOutbox)
        .values({
          tenantId: owner.user.tenant_id,
          toAddress: owner.user.email,
          subject: 'filler',
          status: 'kept',
        })
        .returning({ id: mailOutbox.id });
      await server.database.db
        .insert(notificationEmails)
        .values({ tenantId: owner.user.tenant_id, outboxId: row!.id });
    }
    const refused = await send(agent, { user_ids: [owner.user.id], subject: 'One more', message: 'x' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another workspace has its own budget.
    expect((await send(other, { user_ids: [other.user.id], subject: 'Hi', message: 'x' })).status).toBe(201);
  });
});
