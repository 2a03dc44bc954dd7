import type {
  Addon,
  AuthResponse,
  ChatExchange,
  MessageLimit,
  Plan,
  PlanConsumption,
  PlanInput,
  SubscriptionsResponse,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { mailOutbox, users } from '../../core/db/schema.js';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { startWooFake } from '../../test/fakes/woocommerce.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { conversations } from '../chat/chat.schema.js';
import { fileGroups } from '../files/files.schema.js';
import { replaceDocument } from '../knowledge/ingest.js';
import { subscriptionAddons, subscriptions } from './billing.schema.js';
import { applyRetention } from './retention.js';

let server: TestServer;
let owner: Account;
let other: Account;
let admin: Account;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  // The WooCommerce fake listens on loopback, which store addresses may not point at otherwise.
  server = await startTestServer({ env: { PLAN_LIMITS: 'on', CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
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

const planNamed = async (name: string) =>
  (await server.get<Plan[]>('/api/admin/pricing/plans', as(admin))).body.find((p) => p.name === name)!;

/** Changes a plan through the admin API, keeping what is not given. */
async function changePlan(name: string, changes: Partial<PlanInput>): Promise<Plan> {
  const plan = await planNamed(name);
  const { id: _id, ...fields } = plan;
  const reply = await server.put<Plan>(
    `/api/admin/pricing/plans/${plan.id}`,
    { ...fields, ...changes },
    as(admin),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

describe('plans and add-ons', () => {
  it('offers the seeded plans, the free one the default, prices in cents', async () => {
    const reply = await server.get<Plan[]>('/api/pricing/plans', as(owner));
    expect(reply.body.map((p) => [p.name, p.price_monthly, p.is_default])).toEqual([
      ['Free', 0, true],
      ['Starter', 1900, false],
      ['Pro', 4900, false],
      ['Business', 14900, false],
    ]);
    const pro = reply.body.find((p) => p.name === 'Pro')!;
    expect(pro).toMatchObject({
      max_chatbots: 10,
      whatsapp_integration: true,
      white_labeling: false,
      currency: 'USD',
    });
    const addons = await server.get<Addon[]>('/api/pricing/addons', as(owner));
    expect(addons.body.map((a) => a.kind).sort()).toEqual([
      'characters',
      'chatbots',
      'messages',
      'team_members',
    ]);
  });

  it('lets only platform admins change plans; one default at a time; names unique', async () => {
    const free = await planNamed('Free');
    const { id: _id, ...fields } = free;
    expect((await server.put(`/api/admin/pricing/plans/${free.id}`, fields, as(owner))).status).toBe(403);
    expect((await server.get('/api/admin/pricing/plans', as(owner))).status).toBe(403);
    const created = await server.post<Plan>(
      '/api/admin/pricing/plans',
      { ...fields, name: 'Team', price_monthly: 2500, price_yearly: 25000, is_default: true },
      as(admin),
    );
    expect(created.status).toBe(201);
    const all = (await server.get<Plan[]>('/api/admin/pricing/plans', as(admin))).body;
    expect(all.filter((p) => p.is_default).map((p) => p.name)).toEqual(['Team']);
    await changePlan('Free', { is_default: true });
    await changePlan('Team', { is_active: false });
    expect((await server.get<Plan[]>('/api/pricing/plans', as(owner))).body.map((p) => p.name)).not.toContain(
      'Team',
    );
    const taken = await server.post(
      '/api/admin/pricing/plans',
      { ...fields, name: 'Pro', is_default: false },
      as(admin),
    );
    expect(taken.status).toBe(409);
    const negative = await server.post(
      '/api/admin/pricing/plans',
      { ...fields, name: 'Odd', price_monthly: -1 },
      as(admin),
    );
    expect(negative.status).toBe(400);
    const fractional = await server.post(
      '/api/admin/pricing/plans',
      { ...fields, name: 'Odd', price_monthly: 9.99 },
      as(admin),
    );
    expect(fractional.status).toBe(400);
  });

  it('answers malformed and unknown ids on the admin routes with 400 and 404', async () => {
    const addon = (await server.get<Addon[]>('/api/admin/pricing/addons', as(admin))).body[0]!;
    const { id: _id, ...fields } = addon;
    for (const bad of ['abc', '0', '-1', '1.5']) {
      expect((await server.put(`/api/admin/pricing/plans/${bad}`, {}, as(admin))).status).toBe(400);
      expect((await server.put(`/api/admin/pricing/addons/${bad}`, fields, as(admin))).status).toBe(400);
    }
    expect((await server.put('/api/admin/pricing/addons/999999', fields, as(admin))).status).toBe(404);
    const created = await server.post<Addon>(
      '/api/admin/pricing/addons',
      { ...fields, name: 'Tiny pack', units: 10 },
      as(admin),
    );
    expect(created.body).toMatchObject({ name: 'Tiny pack', units: 10 });
  });
});

describe("a workspace's subscriptions and consumption", () => {
  it('starts on the free plan with no subscription; another workspace answers 404', async () => {
    const tenantId = owner.user.tenant_id;
    const reply = await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${tenantId}`,
      as(owner),
    );
    expect(reply.body.current).toMatchObject({
      plan: { name: 'Free' },
      subscription_id: null,
      renews_at: null,
    });
    expect(reply.body.subscriptions).toEqual([]);
    for (const path of [
      `/api/pricing/subscriptions/${tenantId}`,
      `/api/pricing/subscriptions/pending/${tenantId}`,
      `/api/pricing/subscriptions/inprocess/${tenantId}`,
      `/api/pricing/consumption/${tenantId}`,
    ]) {
      expect([path, (await server.get(path, as(other))).status]).toEqual([path, 404]);
    }
  });

  it('lists pending and in-process subscriptions apart', async () => {
    const tenantId = other.user.tenant_id;
    const pro = await planNamed('Pro');
    await server.database.db.insert(subscriptions).values([
      { tenantId, planId: pro.id, billingCycle: 'monthly', status: 'created' },
      { tenantId, planId: pro.id, billingCycle: 'yearly', status: 'pending' },
    ]);
    const pending = await server.get<{ pending_subscriptions: { status: string }[] }>(
      `/api/pricing/subscriptions/pending/${tenantId}`,
      as(other),
    );
    expect(pending.body.pending_subscriptions.map((s) => s.status)).toEqual(['created']);
    const inProcess = await server.get<{ pending_subscriptions: { status: string; is_active: boolean }[] }>(
      `/api/pricing/subscriptions/inprocess/${tenantId}`,
      as(other),
    );
    expect(inProcess.body.pending_subscriptions.map((s) => s.status)).toEqual(['pending']);
    // A renewal being retried still grants its plan.
    const current = await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${tenantId}`,
      as(other),
    );
    expect(current.body.current.plan.name).toBe('Pro');
  });

  it('measures consumption against the limits', async () => {
    const reply = await server.get<PlanConsumption>(
      `/api/pricing/consumption/${owner.user.tenant_id}`,
      as(owner),
    );
    expect(reply.body).toMatchObject({
      plan: 'Free',
      max_chatbots: 0,
      max_team_members: 1,
      messages_per_month: 0,
      characters_qna: 0,
    });
    expect(reply.body.limits).toMatchObject({ max_chatbots: 1, max_team_members: 1 });
  });

  it('needs the Subscriptions permission: a teammate without it gets 403', async () => {
    const boss = await signupOwner(server);
    await server.database.db.insert(subscriptions).values({
      tenantId: boss.user.tenant_id,
      planId: (await planNamed('Business')).id,
      billingCycle: 'monthly',
      status: 'active',
    });
    const role = await createRole(server, boss, { Inbox: { read: true } });
    const member = await addTeammate(server, boss, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await server.get(`/api/pricing/subscriptions/${boss.user.tenant_id}`, as(member))).status).toBe(
      403,
    );
    expect((await server.get('/api/pricing/plans', as(member))).status).toBe(403);
  });
});

describe('limits', () => {
  it('refuses a second bot on the free plan, naming the plan; a paid plan applies at once', async () => {
    const account = await signupOwner(server);
    await createBotViaApi(server, account, { bot_name: 'First' });
    const form = new FormData();
    form.append('bot_name', 'Second');
    const refused = await fetch(`${server.url}/api/chat/bots`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${account.access_token}` },
    });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({
      detail: 'Your Free plan allows 1 chatbot. Upgrade your plan or add more to continue.',
    });
    await server.database.db.insert(subscriptions).values({
      tenantId: account.user.tenant_id,
      planId: (await planNamed('Starter')).id,
      billingCycle: 'monthly',
      status: 'active',
    });
    await createBotViaApi(server, account, { bot_name: 'Second' });
  });

  it('refuses an invitation past the team size; an add-on raises it', async () => {
    const account = await signupOwner(server);
    const invite = (email: string) =>
      server.post('/api/auth/invite-user', { email, role_id: account.user.roles[0]!.id }, as(account));
    const refused = await invite('helper@example.com');
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      detail: 'Your Free plan allows 1 team member. Upgrade your plan or add more to continue.',
    });
    const seat = (await server.get<Addon[]>('/api/pricing/addons', as(account))).body.find(
      (a) => a.kind === 'team_members',
    )!;
    await server.database.db
      .insert(subscriptionAddons)
      .values({ tenantId: account.user.tenant_id, addonId: seat.id, quantity: 1, status: 'active' });
    expect((await invite('helper@example.com')).status).toBe(201);
    // Bought on the free plan, the add-on has no plan subscription but is listed.
    const listed = await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${account.user.tenant_id}`,
      as(account),
    );
    expect(listed.body.subscriptions).toEqual([]);
    expect(listed.body.addons.map((a) => [a.addon.kind, a.quantity, a.is_active])).toEqual([
      ['team_members', 1, true],
    ]);
    // The same address again replaces its invitation; a third person does not fit.
    expect((await invite('helper@example.com')).status).toBe(201);
    expect((await invite('another@example.com')).status).toBe(402);
  });

  it("answers with the notice past the month's messages, and mails the owners at 80 % and 100 %", async () => {
    await changePlan('Free', { messages_credits_per_month: 5 });
    try {
      const account = await signupOwner(server);
      const bot = await createBotViaApi(server, account, { bot_name: 'Counter' });
      const ask = () =>
        server.post<ChatExchange>(
          '/api/chat/chats',
          { bot_id: bot.bot_id, message: 'Hello there?' },
          as(account),
        );
      for (let i = 0; i < 5; i++) expect((await ask()).body.bot_message!.answer_mode).not.toBe('limit');
      expect((await ask()).body.bot_message!.answer_mode).toBe('limit');
      const limit = await server.get<MessageLimit>(
        `/api/chat/message-limit/${account.user.tenant_id}`,
        as(account),
      );
      // The notice itself is a bot message too.
      expect(limit.body).toMatchObject({ used: 6, limit: 5, remaining: 0 });
      await expect
        .poll(
          async () =>
            (
              await server.database.db
                .select()
                .from(mailOutbox)
                .where(eq(mailOutbox.toAddress, account.user.email))
            )
              .map((m) => m.subject)
              .sort(),
          {
            timeout: 10_000,
          },
        )
        .toEqual([
          'Your bots have used 80% of their messages this month',
          'Your bots have used all their messages this month',
        ]);
    } finally {
      await changePlan('Free', { messages_credits_per_month: 100 });
    }
  });

  it('refuses attaching sources past the trained characters, before anything is linked', async () => {
    const account = await signupOwner(server);
    const bot = await createBotViaApi(server, account, { bot_name: 'Reader' });
    const tenantId = account.user.tenant_id;
    const [group] = await server.database.db
      .insert(fileGroups)
      .values({ tenantId, userId: account.user.id, groupName: 'manual' })
      .returning();
    await replaceDocument(server.database.db, {
      tenantId,
      sourceType: 'file',
      sourceId: 424242,
      collectionId: group!.id,
      title: 'Manual',
      sections: [{ text: 'x '.repeat(250_000) }],
    });
    const form = new FormData();
    form.append('file_group_ids', JSON.stringify([group!.id]));
    const reply = await fetch(`${server.url}/api/chat/bots/${bot.bot_id}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${account.access_token}` },
    });
    expect(reply.status).toBe(402);
    expect(((await reply.json()) as { detail: string }).detail).toMatch(
      /more than the 400,000 trained characters your Free plan allows/,
    );
    const linked = await server.get<{ file_group_ids: number[] }>(
      `/api/chat/bots/${bot.bot_id}`,
      as(account),
    );
    expect(linked.body.file_group_ids).toEqual([]);
  });

  it('refuses a source that grows a bot past its trained characters (a Q&A pair), before it is trained', async () => {
    await changePlan('Free', { trained_characters_per_chatbot: 60 });
    try {
      const account = await signupOwner(server);
      const bot = await createBotViaApi(server, account, { bot_name: 'Small' });
      const pair = (answer: string) =>
        server.post(
          '/api/qna/',
          { bot_id: bot.bot_id, question: 'Do you ship abroad?', answer },
          as(account),
        );
      expect((await pair('Yes, to most countries.')).status).toBe(201);
      await expect
        .poll(
          async () =>
            (
              await server.get<PlanConsumption>(
                `/api/pricing/consumption/${account.user.tenant_id}`,
                as(account),
              )
            ).body.characters_qna,
          {
            timeout: 10_000,
          },
        )
        .toBeGreaterThan(0);
      const refused = await pair('Yes: we ship to every country in Europe, Asia and the Americas.');
      expect(refused.status).toBe(402);
      expect((refused.body as { detail: string }).detail).toMatch(
        /more than the 60 trained characters your Free plan allows/,
      );
      const listed = await server.get(`/api/qna/?bot_id=${bot.bot_id}`, as(account));
      expect(JSON.stringify(listed.body)).not.toContain('every country in Europe');
    } finally {
      await changePlan('Free', { trained_characters_per_chatbot: 400_000 });
    }
  });

  it('fails the training of store records that would take its bot past the trained characters', async () => {
    const woo = await startWooFake();
    await changePlan('Free', { trained_characters_per_chatbot: 3000 });
    try {
      const shop = woo.addStore({ products: 40 });
      const account = await signupOwner(server);
      const bot = await createBotViaApi(server, account, { bot_name: 'Shop' });
      const connected = await server.post<{ store: { id: number } }>(
        '/api/woocommerce/connect',
        {
          store_url: shop.url,
          consumer_key: shop.consumerKey,
          consumer_secret: shop.consumerSecret,
          bot_id: bot.bot_id,
        },
        as(account),
      );
      const base = `/api/woocommerce/stores/${connected.body.store.id}`;
      await server.post(`${base}/products/sync`, { limit: 100 }, as(account));
      await expect
        .poll(
          async () =>
            (await server.get<{ overallStatus: string }>(`${base}/sync/status`, as(account))).body
              .overallStatus,
          { timeout: 20_000 },
        )
        .toBe('completed');
      await server.post(`${base}/content/train`, { content_type: 'products' }, as(account));
      await expect
        .poll(
          async () =>
            (await server.get<{ active: boolean }>(`${base}/training/status`, as(account))).body.active,
          {
            timeout: 30_000,
          },
        )
        .toBe(false);
      const final = (
        await server.get<{ content_types: { content_type: string; failed: number; trained: number }[] }>(
          `${base}/training/status`,
          as(account),
        )
      ).body;
      const products = final.content_types.find((t) => t.content_type === 'products')!;
      expect(products.failed).toBeGreaterThan(0);
      expect(
        (await server.get<PlanConsumption>(`/api/pricing/consumption/${account.user.tenant_id}`, as(account)))
          .body.limits.trained_characters_per_chatbot,
      ).toBe(3000);
    } finally {
      await changePlan('Free', { trained_characters_per_chatbot: 400_000 });
      await woo.close();
    }
  });

  it('refuses file uploads on a plan without them, before reading the upload', async () => {
    await changePlan('Free', { allows_file_uploads: false });
    try {
      const account = await signupOwner(server);
      const form = new FormData();
      form.append('group_name', 'docs');
      form.append('user_id', String(account.user.id));
      form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
      const reply = await fetch(`${server.url}/api/file/upload-multiple`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${account.access_token}` },
      });
      expect(reply.status).toBe(402);
      expect(((await reply.json()) as { detail: string }).detail).toBe(
        'Allows file uploads is not included in your Free plan. Upgrade your plan to use it.',
      );
    } finally {
      await changePlan('Free', { allows_file_uploads: true });
    }
  });

  it('shows "Powered by Parley" to visitors unless the plan allows custom branding', async () => {
    const account = await signupOwner(server);
    const bot = await createBotViaApi(server, account, { bot_name: 'Branded' });
    const view = () => server.get<{ show_branding: boolean }>(`/api/auth/bot/uuid/${bot.uuid}`);
    expect((await view()).body.show_branding).toBe(true);
    await server.database.db.insert(subscriptions).values({
      tenantId: account.user.tenant_id,
      planId: (await planNamed('Pro')).id,
      billingCycle: 'monthly',
      status: 'active',
    });
    expect((await view()).body.show_branding).toBe(false);
  });

  it("deletes conversations past the plan's history retention, and keeps them on a plan that keeps all", async () => {
    const keeper = await signupOwner(server);
    const forgetful = await signupOwner(server);
    await server.database.db.insert(subscriptions).values({
      tenantId: keeper.user.tenant_id,
      planId: (await planNamed('Business')).id,
      billingCycle: 'yearly',
      status: 'active',
    });
    const old = new Date(Date.now() - 40 * 86_400_000);
    const ids: Record<string, number> = {};
    for (const [label, account] of [
      ['keeper', keeper],
      ['forgetful', forgetful],
    ] as const) {
      const bot = await createBotViaApi(server, account, { bot_name: `Bot ${label}` });
      const chat = await server.post<ChatExchange>(
        '/api/chat/chats',
        { bot_id: bot.bot_id, message: 'hi' },
        as(account),
      );
      ids[label] = chat.body.conversation_id;
      await server.database.db
        .update(conversations)
        .set({ lastMessageAt: old })
        .where(eq(conversations.id, chat.body.conversation_id));
    }
    const fresh = await server.post<ChatExchange>(
      '/api/chat/chats',
      { bot_id: (await createBotViaApi(server, keeper, { bot_name: 'Another' })).bot_id, message: 'hey' },
      as(keeper),
    );
    expect(fresh.status).toBe(200);
    await applyRetention({ db: server.database.db, config: { PLAN_LIMITS: 'on' } as Config }, new Date());
    const left = await server.database.db.select({ id: conversations.id }).from(conversations);
    const leftIds = left.map((r) => r.id);
    expect(leftIds).toContain(ids.keeper);
    expect(leftIds).not.toContain(ids.forgetful);
  });
});
