import type {
  AdminPlanGrantResult,
  AdminWorkspaceDetail,
  AuthResponse,
  Plan,
  PlanConsumption,
  SubscriptionsResponse,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../core/db/schema.js';
import { createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { subscriptions } from './billing.schema.js';

const as = (account: Account) => ({ token: account.access_token });

/** A platform admin (user_type admin, as `npm run admin:create` makes one), signed in again. */
async function promoteToAdmin(server: TestServer, account: Account): Promise<Account> {
  await server.database.db.update(users).set({ userType: 'admin' }).where(eq(users.id, account.user.id));
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: account.user.email,
    password: account.password,
  });
  expect(login.status).toBe(200);
  return { ...account, ...login.body };
}

async function postBot(server: TestServer, account: Account, name: string): Promise<Response> {
  const form = new FormData();
  form.append('bot_name', name);
  return fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
}

const subscriptionsOf = (server: TestServer, account: Account) =>
  server.get<SubscriptionsResponse>(`/api/pricing/subscriptions/${account.user.tenant_id}`, as(account));

describe('a fresh install (PLAN_LIMITS unset, no payment provider)', () => {
  let server: TestServer;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    // An empty value counts as unset: the configuration's own default applies.
    server = await startTestServer({ env: { PLAN_LIMITS: '' } });
    owner = await signupOwner(server);
    admin = await promoteToAdmin(server, await signupOwner(server));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs with plans off: the Subscriptions page is told so, nothing is limited', async () => {
    const reply = await subscriptionsOf(server, owner);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      plans_enabled: false,
      payments_enabled: false,
      current: { complimentary: false, ends_at: null },
    });
    const consumption = await server.get<PlanConsumption>(
      `/api/pricing/consumption/${owner.user.tenant_id}`,
      as(owner),
    );
    expect(consumption.body.unlimited).toBe(true);
    // The default plan (Free) allows one bot and one team member: neither holds here.
    for (const name of ['One', 'Two', 'Three']) await createBotViaApi(server, owner, { bot_name: name });
    const invite = (email: string) =>
      server.post('/api/auth/invite-user', { email, role_id: owner.user.roles[0]!.id }, as(owner));
    expect((await invite('first@example.com')).status).toBe(201);
    expect((await invite('second@example.com')).status).toBe(201);
  });

  it('refuses an admin giving a plan, saying plans are off', async () => {
    const pro = (await server.get<Plan[]>('/api/admin/pricing/plans', as(admin))).body.find(
      (p) => p.name === 'Pro',
    )!;
    const reply = await server.put(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: pro.id },
      as(admin),
    );
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({
      detail:
        'Plans are off on this install (PLAN_LIMITS=off): nothing is limited, so there is no plan to give',
    });
  });
});

describe('plans on: an admin puts a workspace on any plan', () => {
  let server: TestServer;
  let admin: Account;
  let plans: Plan[];
  const planNamed = (name: string) => plans.find((p) => p.name === name)!;
  beforeAll(async () => {
    server = await startTestServer({ env: { PLAN_LIMITS: 'on' } });
    admin = await promoteToAdmin(server, await signupOwner(server));
    plans = (await server.get<Plan[]>('/api/admin/pricing/plans', as(admin))).body;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives a complimentary plan with an end date: limits follow at once, the workspace sees it', async () => {
    const owner = await signupOwner(server);
    await createBotViaApi(server, owner, { bot_name: 'First' });
    expect((await postBot(server, owner, 'Second')).status).toBe(402);

    const endsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const granted = await server.put<AdminPlanGrantResult>(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: planNamed('Pro').id, ends_at: endsAt },
      as(admin),
    );
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.message).toMatch(/is now on Pro\.$/);
    expect(granted.body.subscription).toMatchObject({
      complimentary: true,
      status: 'active',
      auto_renew: false,
      razorpay_subscription_id: null,
      end_date: endsAt,
    });
    expect((await postBot(server, owner, 'Second')).status).toBe(201);

    const seen = await subscriptionsOf(server, owner);
    expect(seen.body).toMatchObject({
      plans_enabled: true,
      payments_enabled: false,
      current: {
        plan: { name: 'Pro' },
        complimentary: true,
        ends_at: endsAt,
        renews_at: null,
        limits: { max_chatbots: planNamed('Pro').max_chatbots },
      },
    });
    const detail = await server.get<AdminWorkspaceDetail>(
      `/api/admin/workspaces/${owner.user.tenant_id}`,
      as(admin),
    );
    expect(detail.body.plan.name).toBe('Pro');
    expect(detail.body.complimentary).toEqual({
      subscription_id: granted.body.subscription!.id,
      ends_at: endsAt,
      custom_limits: null,
    });
  });

  it('gives custom limits in place of the plan’s; a new grant replaces the previous one', async () => {
    const owner = await signupOwner(server);
    const first = await server.put<AdminPlanGrantResult>(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: planNamed('Pro').id },
      as(admin),
    );
    expect(first.status).toBe(200);
    const custom = await server.put<AdminPlanGrantResult>(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: planNamed('Free').id, ends_at: null, limits: { max_chatbots: 2, max_team_members: 7 } },
      as(admin),
    );
    expect(custom.status).toBe(200);
    const seen = await subscriptionsOf(server, owner);
    expect(seen.body.current).toMatchObject({
      plan: { name: 'Free' },
      complimentary: true,
      ends_at: null,
      limits: {
        max_chatbots: 2,
        max_team_members: 7,
        messages_credits_per_month: planNamed('Free').messages_credits_per_month,
      },
    });
    // The first grant was ended by the second.
    expect(
      seen.body.subscriptions.map((s) => [s.plan.name, s.status, s.complimentary, s.custom_limits]),
    ).toEqual([
      ['Free', 'active', true, { max_chatbots: 2, max_team_members: 7 }],
      ['Pro', 'cancelled', true, null],
    ]);
    await createBotViaApi(server, owner, { bot_name: 'One' });
    await createBotViaApi(server, owner, { bot_name: 'Two' });
    const third = await postBot(server, owner, 'Three');
    expect(third.status).toBe(402);
    expect(await third.json()).toEqual({
      detail: 'Your Free plan allows 2 chatbots. Upgrade your plan or add more to continue.',
    });
  });

  it('ends a grant on its end date, and when the admin takes it back', async () => {
    const owner = await signupOwner(server);
    const granted = await server.put<AdminPlanGrantResult>(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: planNamed('Business').id, ends_at: new Date(Date.now() + 86_400_000).toISOString() },
      as(admin),
    );
    expect((await subscriptionsOf(server, owner)).body.current.plan.name).toBe('Business');
    // The end date passes.
    await server.database.db
      .update(subscriptions)
      .set({ endDate: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.id, granted.body.subscription!.id));
    expect((await subscriptionsOf(server, owner)).body.current).toMatchObject({
      plan: { name: 'Free' },
      complimentary: false,
    });

    await server.put(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      { plan_id: planNamed('Starter').id },
      as(admin),
    );
    expect((await subscriptionsOf(server, owner)).body.current.plan.name).toBe('Starter');
    const ended = await server.delete<AdminPlanGrantResult>(
      `/api/admin/workspaces/${owner.user.tenant_id}/plan`,
      as(admin),
    );
    expect(ended.status).toBe(200);
    expect(ended.body.message).toMatch(/is back on the plan it pays for\.$/);
    expect((await subscriptionsOf(server, owner)).body.current.plan.name).toBe('Free');
    const again = await server.delete(`/api/admin/workspaces/${owner.user.tenant_id}/plan`, as(admin));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'This workspace has no plan given by an admin' });
  });

  it('refuses what cannot be given, and anyone but a platform admin', async () => {
    const owner = await signupOwner(server);
    const path = `/api/admin/workspaces/${owner.user.tenant_id}/plan`;
    const pro = planNamed('Pro').id;
    expect((await server.put(path, { plan_id: pro }, as(owner))).status).toBe(403);
    expect((await server.delete(path, as(owner))).status).toBe(403);
    expect((await server.put(path, { plan_id: pro })).status).toBe(401);
    const past = await server.put(
      path,
      { plan_id: pro, ends_at: new Date(Date.now() - 60_000).toISOString() },
      as(admin),
    );
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ detail: 'The end date must be in the future' });
    expect((await server.put(path, { plan_id: 999_999 }, as(admin))).body).toEqual({
      detail: 'Plan not found',
    });
    const missing = await server.put('/api/admin/workspaces/999999/plan', { plan_id: pro }, as(admin));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Workspace not found' });
    const bad = await server.put(path, { plan_id: pro, limits: { max_chatbots: -1 } }, as(admin));
    expect(bad.status).toBe(400);
    expect((await subscriptionsOf(server, owner)).body.current.plan.name).toBe('Free');
  });
});
