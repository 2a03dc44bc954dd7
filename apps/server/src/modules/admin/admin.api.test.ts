import type {
  AdminHealth,
  AdminJob,
  AdminJobsPage,
  AdminMail,
  AdminMailPage,
  AdminWorkspaceDetail,
  AdminWorkspacePage,
  AuthResponse,
  ChatMessage,
  Demo,
  DemoList,
} from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, mailOutbox, tenants, users } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { openVisitor } from '../../test/visitor.js';
import { calendarBookings } from '../bots/bots.schema.js';
import { MAIL_JOB } from '../mail/mail.service.js';
import { demoBots } from './admin.schema.js';

let server: TestServer;
let owner: Account;
let other: Account;
let admin: Account;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server, { company_name: `Acme ${Date.now()}` });
  other = await signupOwner(server);
  admin = await promoteToAdmin(await signupOwner(server));
});
afterAll(async () => {
  await server?.close();
});

/** A platform admin (user_type admin, as `npm run admin:create` makes one), signed in again. */
async function promoteToAdmin(account: Account): Promise<Account> {
  await server.database.db.update(users).set({ userType: 'admin' }).where(eq(users.id, account.user.id));
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: account.user.email,
    password: account.password,
  });
  expect(login.status).toBe(200);
  return { ...account, ...login.body };
}

const ROUTES: Array<{ method: 'GET' | 'POST'; path: string }> = [
  { method: 'GET', path: '/api/admin/workspaces' },
  { method: 'GET', path: '/api/admin/workspaces/1' },
  { method: 'GET', path: '/api/admin/jobs' },
  { method: 'POST', path: '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry' },
  { method: 'GET', path: '/api/admin/mail' },
  { method: 'POST', path: '/api/admin/mail/1/resend' },
  { method: 'GET', path: '/api/admin/health' },
  { method: 'GET', path: '/api/admin/demos' },
  { method: 'POST', path: '/api/admin/demos/docs' },
];

describe('the admin console', () => {
  it('answers a workspace owner 403 and a signed-out caller 401 on every route, with no data', async () => {
    for (const { method, path } of ROUTES) {
      const asOwner =
        method === 'GET' ? await server.get(path, as(owner)) : await server.post(path, {}, as(owner));
      expect(asOwner.status, path).toBe(403);
      expect(asOwner.body, path).toEqual({ detail: expect.any(String) });
      const signedOut = method === 'GET' ? await server.get(path) : await server.post(path, {});
      expect(signedOut.status, path).toBe(401);
    }
    // The owner's attempt to seed the demos made nothing.
    expect(await server.database.db.$count(demoBots)).toBe(0);
  });

  it('answers an admin 400 with a detail for malformed ids (the tenancy matrix skips Admin routes)', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '%20', '99999999999']) {
      for (const reply of [
        await server.get(`/api/admin/workspaces/${bad}`, as(admin)),
        await server.post(`/api/admin/mail/${bad}/resend`, {}, as(admin)),
        await server.post(`/api/admin/jobs/${bad}/retry`, {}, as(admin)),
        await server.post(`/api/admin/demos/${bad}`, {}, as(admin)),
      ]) {
        expect(reply.status, bad).toBe(400);
        expect(reply.body).toEqual({ detail: expect.stringMatching(/\S/) });
      }
    }
    expect(await server.database.db.$count(demoBots)).toBe(0);
  });

  it('lists every workspace with its plan, usage and last activity, paged and searchable', async () => {
    await insertBot(server, owner.user.tenant_id);
    await insertBot(server, owner.user.tenant_id);
    const all = await server.get<AdminWorkspacePage>('/api/admin/workspaces?page_size=100', as(admin));
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const ids = all.body.items.map((w) => w.id);
    expect(ids).toEqual(
      expect.arrayContaining([owner.user.tenant_id, other.user.tenant_id, admin.user.tenant_id]),
    );
    const acme = all.body.items.find((w) => w.id === owner.user.tenant_id)!;
    expect(acme).toMatchObject({
      owner_email: owner.user.email,
      plan: { name: expect.any(String) },
      usage: { bots: 2, members: 1, messages_this_month: 0, trained_characters: 0 },
      last_activity_at: null,
      is_demo: false,
    });

    const first = await server.get<AdminWorkspacePage>('/api/admin/workspaces?page_size=1', as(admin));
    const second = await server.get<AdminWorkspacePage>(
      '/api/admin/workspaces?page_size=1&page=2',
      as(admin),
    );
    expect(first.body.items).toHaveLength(1);
    expect(first.body.total).toBe(all.body.total);
    expect(second.body.items[0]!.id).not.toBe(first.body.items[0]!.id);

    // By a member's email, any case; LIKE's wildcards are taken literally.
    const byEmail = await server.get<AdminWorkspacePage>(
      `/api/admin/workspaces?search=${encodeURIComponent(owner.user.email.toUpperCase())}`,
      as(admin),
    );
    expect(byEmail.body.items.map((w) => w.id)).toEqual([owner.user.tenant_id]);
    const wildcard = await server.get<AdminWorkspacePage>('/api/admin/workspaces?search=%25', as(admin));
    expect(wildcard.body.total).toBe(0);

    const bad = await server.get('/api/admin/workspaces?page_size=1000', as(admin));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: expect.any(String) });
  });

  it('shows one workspace with its limits, members and bots; an unknown id is 404', async () => {
    const detail = await server.get<AdminWorkspaceDetail>(
      `/api/admin/workspaces/${owner.user.tenant_id}`,
      as(admin),
    );
    expect(detail.status).toBe(200);
    expect(detail.body.members.map((m) => m.email)).toEqual([owner.user.email]);
    expect(detail.body.bots).toHaveLength(2);
    expect(detail.body.limits.max_chatbots).toBeGreaterThan(0);
    expect((await server.get('/api/admin/workspaces/99999999', as(admin))).status).toBe(404);
    expect((await server.get('/api/admin/workspaces/abc', as(admin))).status).toBe(400);
  });

  it('lists jobs by state and kind, and a retried failed job runs again', async () => {
    let runs = 0;
    server.parley.jobs.register('test.flaky', async () => {
      runs += 1;
      if (runs === 1) throw new Error('the first run fails');
      return { ok: true };
    });
    const id = await server.parley.jobs.enqueue(
      'test.flaky',
      {},
      { maxAttempts: 1, tenantId: owner.user.tenant_id },
    );
    const failedList = () =>
      server.get<AdminJobsPage>('/api/admin/jobs?status=failed&name=test.flaky', as(admin));
    await expect
      .poll(async () => (await failedList()).body.items.map((j) => j.id), { timeout: 10_000 })
      .toEqual([id]);
    const listed = (await failedList()).body;
    expect(listed.items[0]).toMatchObject({
      status: 'failed',
      error: 'the first run fails',
      attempts: 1,
      max_attempts: 1,
      tenant_id: owner.user.tenant_id,
    });
    expect(listed.counts.failed).toBeGreaterThanOrEqual(1);
    expect(listed.kinds).toContain('test.flaky');
    expect(listed.items[0]).not.toHaveProperty('data');

    const retried = await server.post<AdminJob>(`/api/admin/jobs/${id}/retry`, {}, as(admin));
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.status).not.toBe('failed');
    await expect
      .poll(async () => (await server.parley.jobs.get(id))?.status, { timeout: 10_000 })
      .toBe('completed');
    expect(runs).toBe(2);

    // Only a failed job: a completed one would run twice.
    const again = await server.post(`/api/admin/jobs/${id}/retry`, {}, as(admin));
    expect(again.status).toBe(409);
    expect(runs).toBe(2);
    expect(
      (await server.post('/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry', {}, as(admin))).status,
    ).toBe(404);
    expect((await server.post('/api/admin/jobs/not-a-uuid/retry', {}, as(admin))).status).toBe(400);
    expect((await server.get('/api/admin/jobs?status=lost', as(admin))).status).toBe(400);
  });

  it('lists the mail outbox and sends a failed mail again', async () => {
    // A mail whose delivery gave up (what eight refused SMTP connections leave behind).
    const [mail] = await server.database.db
      .insert(mailOutbox)
      .values({
        tenantId: owner.user.tenant_id,
        toAddress: 'lost@example.com',
        subject: 'Hello',
        textBody: 'Hi',
      })
      .returning();
    await server.database.db.insert(jobs).values({
      name: MAIL_JOB,
      data: { outboxId: mail!.id },
      tenantId: owner.user.tenant_id,
      status: 'failed',
      attempts: 8,
      maxAttempts: 8,
      error: 'connect ECONNREFUSED 127.0.0.1:2525',
      completedAt: new Date(),
    });
    const failed = await server.get<AdminMailPage>('/api/admin/mail?status=failed', as(admin));
    expect(failed.status).toBe(200);
    expect(failed.body.items.find((m) => m.id === mail!.id)).toMatchObject({
      to: 'lost@example.com',
      status: 'failed',
      error: 'connect ECONNREFUSED 127.0.0.1:2525',
      attempts: 8,
      tenant_name: expect.any(String),
    });

    // Its outbox row still says queued; the queued filter leaves it out all the same.
    const queued = await server.get<AdminMailPage>('/api/admin/mail?status=queued&page_size=100', as(admin));
    expect(queued.body.items.map((m) => m.id)).not.toContain(mail!.id);

    const resent = await server.post<AdminMail>(`/api/admin/mail/${mail!.id}/resend`, {}, as(admin));
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    // Without SMTP_URL a delivered mail is kept in the outbox: the new job ran.
    await expect
      .poll(
        async () => {
          const page = await server.get<AdminMailPage>('/api/admin/mail?page_size=100', as(admin));
          return page.body.items.find((m) => m.id === mail!.id)?.status;
        },
        { timeout: 10_000 },
      )
      .toBe('kept');
    const twice = await server.post(`/api/admin/mail/${mail!.id}/resend`, {}, as(admin));
    expect(twice.status).toBe(409);
    expect((await server.post('/api/admin/mail/99999999/resend', {}, as(admin))).status).toBe(404);
  });

  it('reports the database, workers, sockets and process', async () => {
    const health = await server.get<AdminHealth>('/api/admin/health', as(admin));
    expect(health.status).toBe(200);
    expect(health.body.database.engine).toBe(server.database.kind);
    expect(health.body.database.size_bytes).toBeGreaterThan(0);
    expect(health.body.database.ping_ms).toBeGreaterThanOrEqual(0);
    expect(health.body.workers.processed_last_hour).toBeGreaterThanOrEqual(1);
    expect(health.body.process.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(health.body.sockets).toMatchObject({ chat: expect.any(Number), helpdesk: expect.any(Number) });
  });
});

describe('Capability Demos', () => {
  const demoOf = async (kind: string) =>
    (await server.get<DemoList>('/api/admin/demos', as(admin))).body.demos.find((d) => d.kind === kind)!;

  it('lists the three demos, none set up yet', async () => {
    const list = await server.get<DemoList>('/api/admin/demos', as(admin));
    expect(list.status).toBe(200);
    expect(list.body.workspace_id).toBeNull();
    expect(list.body.demos.map((d) => [d.kind, d.status])).toEqual([
      ['docs', 'absent'],
      ['store', 'absent'],
      ['booking', 'absent'],
    ]);
    expect((await server.post('/api/admin/demos/crm', {}, as(admin))).status).toBe(400);
  });

  it('sets up the store demo once however often it is asked, and it answers with a citation', async () => {
    const [a, b] = await Promise.all([
      server.post<Demo>('/api/admin/demos/store', {}, as(admin)),
      server.post<Demo>('/api/admin/demos/store', {}, as(admin)),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.bot!.id).toBe(b.body.bot!.id);
    expect((await server.post<Demo>('/api/admin/demos/store', {}, as(admin))).body.bot!.id).toBe(
      a.body.bot!.id,
    );
    expect(await server.database.db.$count(demoBots)).toBe(1);

    await expect.poll(async () => (await demoOf('store')).status, { timeout: 20_000 }).toBe('ready');
    const ready = await demoOf('store');
    expect(ready.trained).toBe(ready.total);
    expect(ready.total).toBe(6);

    // A product whose training gave up: the demo says so, and setting it up again retrains it.
    await server.database.db.execute(
      sql`UPDATE store_records SET training_status = 'failed' WHERE external_id = 'storm-jacket'`,
    );
    expect((await demoOf('store')).status).toBe('failed');
    expect((await server.post<Demo>('/api/admin/demos/store', {}, as(admin))).status).toBe(200);
    await expect.poll(async () => (await demoOf('store')).status, { timeout: 20_000 }).toBe('ready');
    expect(await server.database.db.$count(demoBots)).toBe(1);

    const reply = await visitorAsks(ready.bot!.uuid, ready.bot!.id, 'How much is the trail backpack?');
    expect(reply.message).toMatch(/89/);
    expect(reply.sources.length).toBeGreaterThan(0);
    expect(reply.sources.map((s) => s.page_url).join(' ')).toMatch(/trail-backpack/);
  });

  it('sets up the docs and booking demos in the same demo workspace', async () => {
    const docs = await server.post<Demo>('/api/admin/demos/docs', {}, as(admin));
    const booking = await server.post<Demo>('/api/admin/demos/booking', {}, as(admin));
    expect([docs.status, booking.status]).toEqual([200, 200]);
    const rows = await server.database.db.select().from(demoBots);
    expect(new Set(rows.map((r) => r.tenantId)).size).toBe(1);
    const [workspace] = await server.database.db
      .select()
      .from(tenants)
      .where(eq(tenants.id, rows[0]!.tenantId));
    expect(workspace!.name).toBe('Parley demos');
    expect(await server.database.db.$count(users, eq(users.tenantId, workspace!.id))).toBe(0);
    expect(
      await server.database.db.$count(calendarBookings, eq(calendarBookings.botId, booking.body.bot!.id)),
    ).toBe(1);

    await expect.poll(async () => (await demoOf('docs')).status, { timeout: 20_000 }).toBe('ready');
    const ready = await demoOf('docs');
    const reply = await visitorAsks(ready.bot!.uuid, ready.bot!.id, 'How do I add my bot to my website?');
    expect(reply.message).toMatch(/script/);
    expect(reply.sources[0]).toMatchObject({ source_type: 'qna' });

    // The workspace list marks the demo workspace.
    const page = await server.get<AdminWorkspacePage>(
      '/api/admin/workspaces?search=parley%20demos',
      as(admin),
    );
    expect(page.body.items[0]).toMatchObject({ id: workspace!.id, is_demo: true, usage: { bots: 3 } });
  });
});

/** A website visitor asks in the widget (the full-page chat uses the same socket) and waits for the answer. */
async function visitorAsks(uuid: string, botId: number, question: string): Promise<ChatMessage> {
  const visitor = await openVisitor(server, { uuid, bot_id: botId });
  const answer = await visitor.ask(question);
  // While a visitor is connected, the admin's health counts the chat socket.
  const health = await server.get<AdminHealth>('/api/admin/health', as(admin));
  expect(health.body.sockets.chat).toBeGreaterThanOrEqual(1);
  visitor.close();
  return answer;
}
