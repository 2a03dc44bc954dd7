import { randomBytes } from 'node:crypto';
import {
  PAYMENT_TEXTS,
  SHOPIFY_BILLING_TEXTS,
  type ShopifySubscriptionCheckout,
  STORE_TEXTS,
  type StoreResponse,
  type Subscription,
  type SubscriptionsResponse,
} from '@parley/contracts';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../../core/db/schema.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../../test/factories.js';
import { type FakeShop, type ShopifyFake, startShopifyFake } from '../../../test/fakes/shopify.js';
import { outboxText } from '../../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { plans, subscriptions } from '../billing.schema.js';

const DOMAIN = 'acme-billing.myshopify.com';
const OTHER_DOMAIN = 'other-billing.myshopify.com';
const RETURN = 'http://parley.test/upgrade?from=shopify';
let server: TestServer;
let fake: ShopifyFake;
let shop: FakeShop;
let owner: Account;
let other: Account;
let storeId: number;
let otherStoreId: number;
const ids = { pro: 0, free: 0 };
const as = (account: Account) => ({ token: account.access_token });
const suffix = randomBytes(3).toString('hex');

beforeAll(async () => {
  fake = await startShopifyFake();
  shop = fake.addShop(DOMAIN, { name: 'Acme Billing' });
  fake.addShop(OTHER_DOMAIN, { name: 'Other Billing' });
  server = await startTestServer({
    env: {
      SHOPIFY_SHOP_URL: fake.shopUrlTemplate,
      SHOPIFY_API_KEY: fake.apiKey,
      SHOPIFY_API_SECRET: fake.apiSecret,
      PLAN_LIMITS: 'on',
    },
  });
  const db = server.database.db;
  const [pro] = await db
    .insert(plans)
    .values({
      name: `Shopify Pro ${suffix}`,
      currency: 'USD',
      priceMonthly: 1999,
      priceYearly: 19_990,
      maxChatbots: 5,
      maxTeamMembers: 5,
      messagesCreditsPerMonth: 5000,
      trainedCharactersPerChatbot: 1_000_000,
      chatHistoryRetention: 0,
    })
    .returning();
  const [free] = await db.select().from(plans).where(eq(plans.isDefault, true)).limit(1);
  Object.assign(ids, { pro: pro!.id, free: free!.id });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  storeId = await connect(owner, DOMAIN);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** OAuth as the store tests do: consent on the fake, then the console's callback. */
async function connect(account: Account, domain: string): Promise<number> {
  const started = await server.post<{ authorization_url: string }>(
    '/api/shopify/connect',
    { shop_url: domain },
    as(account),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const url = new URL(started.body.authorization_url);
  const params = fake.approve(domain, {
    redirectUri: url.searchParams.get('redirect_uri')!,
    state: url.searchParams.get('state')!,
  });
  const reply = await server.post<StoreResponse>('/api/shopify/callback', params, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.store.id;
}

const create = (account: Account, body: Record<string, unknown> = {}) =>
  server.post<ShopifySubscriptionCheckout>(
    '/api/shopify/subscriptions/create',
    {
      tenant_id: account.user.tenant_id,
      plan_id: ids.pro,
      billing_cycle: 'monthly',
      return_url: RETURN,
      ...body,
    },
    as(account),
  );
const activate = (account: Account, subscriptionId: number, store = storeId) =>
  server.get<Subscription>(
    `/api/shopify/subscriptions/activate?subscription_id=${subscriptionId}&store_id=${store}&charge_id=1`,
    as(account),
  );
const cancel = (account: Account, subscriptionId: number, store = storeId) =>
  server.post<Subscription>(
    '/api/shopify/subscriptions/cancel',
    { subscription_id: subscriptionId, store_id: store },
    as(account),
  );
const ofUser = (account: Account, userId = account.user.id) =>
  server.get<Subscription[]>(`/api/shopify/subscriptions/user/${userId}`, as(account));
const current = async (account: Account) =>
  (
    await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${account.user.tenant_id}`,
      as(account),
    )
  ).body.current;
const row = async (id: number) =>
  (await server.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const charge = (gid: string) =>
  shop.appSubscriptions.find((c) => `gid://shopify/AppSubscription/${c.id}` === gid)!;
const hooks = () => `${server.url}/api/shopify/webhooks`;

/** Every webhook job of the workspace has run. */
async function webhooksDone(account: Account) {
  await expect
    .poll(
      async () =>
        (
          await server.database.db
            .select({ id: jobs.id })
            .from(jobs)
            .where(
              and(
                eq(jobs.name, 'stores.webhook'),
                eq(jobs.tenantId, account.user.tenant_id),
                ne(jobs.status, 'completed'),
              ),
            )
        ).length,
      { timeout: 15_000, interval: 100 },
    )
    .toBe(0);
}

describe('paying for a plan through Shopify', () => {
  let sub: Subscription;
  let confirmation: string;

  it('needs a connected Shopify store (400), a return address on this console (400) and a paid plan (400)', async () => {
    const none = await create(other);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ detail: SHOPIFY_BILLING_TEXTS.noStore });
    for (const return_url of ['https://evil.example/upgrade', 'http://parley.test.evil.example/x']) {
      const elsewhere = await create(owner, { return_url });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body).toEqual({ detail: SHOPIFY_BILLING_TEXTS.returnUrlInvalid });
    }
    expect((await create(owner, { return_url: 'not a url' })).status).toBe(400);
    const free = await create(owner, { plan_id: ids.free });
    expect(free.status).toBe(400);
    expect(free.body).toEqual({ detail: PAYMENT_TEXTS.freePlan });
    expect((await create(owner, { billing_cycle: 'weekly' })).status).toBe(400);
    expect(shop.appSubscriptions).toEqual([]);
    expect(
      await server.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, owner.user.tenant_id)),
    ).toEqual([]);
  });

  it("creates a pending recurring app charge at the plan's price and answers Shopify's confirmation page", async () => {
    const reply = await create(owner);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    sub = reply.body.subscription;
    confirmation = reply.body.confirmation_url;
    expect(confirmation).toMatch(new RegExp(`^${fake.url}/shops/${DOMAIN}/admin/charges/\\d+/confirm$`));
    expect(sub).toMatchObject({
      tenant_id: owner.user.tenant_id,
      plan_id: ids.pro,
      billing_cycle: 'monthly',
      status: 'created',
      is_active: false,
      razorpay_subscription_id: null,
    });
    expect(sub.shopify_subscription_id).toMatch(/^gid:\/\/shopify\/AppSubscription\/\d+$/);
    const made = charge(sub.shopify_subscription_id!);
    expect(made).toMatchObject({
      status: 'PENDING',
      amount: '19.99',
      currencyCode: 'USD',
      interval: 'EVERY_30_DAYS',
      test: true,
      name: `Parley Shopify Pro ${suffix} (monthly)`,
    });
    const back = new URL(made.returnUrl);
    expect(`${back.origin}${back.pathname}`).toBe('http://parley.test/upgrade');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      from: 'shopify',
      subscription_id: String(sub.id),
      store_id: String(storeId),
    });
    // Not yet paid: the free plan still applies.
    expect((await current(owner)).subscription_id).toBeNull();
    const yearly = await create(owner, { billing_cycle: 'yearly', store_id: storeId });
    expect(yearly.status).toBe(201);
    expect(charge(yearly.body.subscription.shopify_subscription_id!)).toMatchObject({
      amount: '199.90',
      interval: 'ANNUAL',
    });
  });

  it("sends the merchant back to the console from Shopify's page, with both ids and Shopify's charge id", async () => {
    const page = await fetch(confirmation);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('USD 19.99 every 30 days');
    const approve = /<form method="post" action="([^"]+\/approve)"/.exec(html)![1]!;
    const answer = await fetch(`${fake.url}${approve}`, { method: 'POST', redirect: 'manual' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    expect(back.origin).toBe('http://parley.test');
    expect(back.searchParams.get('subscription_id')).toBe(String(sub.id));
    expect(back.searchParams.get('store_id')).toBe(String(storeId));
    expect(`gid://shopify/AppSubscription/${back.searchParams.get('charge_id')}`).toBe(
      sub.shopify_subscription_id,
    );
    expect(charge(sub.shopify_subscription_id!).status).toBe('ACTIVE');
  });

  it('activates on return: active to the end of Shopify’s period, and the plan applies at once', async () => {
    const reply = await activate(owner, sub.id);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ id: sub.id, status: 'active', is_active: true, auto_renew: true });
    expect(reply.body.start_date).not.toBeNull();
    expect(reply.body.end_date).toBe(charge(sub.shopify_subscription_id!).currentPeriodEnd);
    const now = await current(owner);
    expect(now.subscription_id).toBe(sub.id);
    expect(now.plan.id).toBe(ids.pro);
    // Twice is the same.
    const again = await activate(owner, sub.id);
    expect(again.body).toMatchObject({ status: 'active', start_date: reply.body.start_date });
  });

  it("lists the workspace's Shopify subscriptions for the caller's own user id", async () => {
    await server.database.db.insert(subscriptions).values({
      tenantId: owner.user.tenant_id,
      planId: ids.pro,
      billingCycle: 'monthly',
      status: 'cancelled',
      razorpaySubscriptionId: `sub_${suffix}`,
    });
    const reply = await ofUser(owner);
    expect(reply.status).toBe(200);
    expect(reply.body.map((s) => s.shopify_subscription_id)).toHaveLength(2);
    expect(reply.body.every((s) => s.shopify_subscription_id !== null)).toBe(true);
    expect(reply.body.find((s) => s.id === sub.id)).toMatchObject({
      status: 'active',
      plan: { id: ids.pro },
    });
    expect((await ofUser(owner, other.user.id)).status).toBe(404);
  });

  it('a teammate without Upgrade or Subscriptions is refused (403); a reader may list', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const calls = [
      server.post(
        '/api/shopify/subscriptions/create',
        { tenant_id: owner.user.tenant_id, plan_id: ids.pro, billing_cycle: 'monthly', return_url: RETURN },
        as(member),
      ),
      server.get(
        `/api/shopify/subscriptions/activate?subscription_id=${sub.id}&store_id=${storeId}`,
        as(member),
      ),
      server.post(
        '/api/shopify/subscriptions/cancel',
        { subscription_id: sub.id, store_id: storeId },
        as(member),
      ),
      server.get(`/api/shopify/subscriptions/user/${member.user.id}`, as(member)),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403, 403]);
    const reader = await createRole(server, owner, { Subscriptions: { read: true } });
    const viewer = await addTeammate(server, owner, reader, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await ofUser(viewer)).status).toBe(200);
    expect((await cancel(viewer, sub.id)).status).toBe(403);
    expect((await row(sub.id)).status).toBe('active');
  });

  it('the app_subscriptions/update webhook keeps the state true; an older one changes nothing', async () => {
    expect(shop.webhookSubscriptions.map((w) => w.topic)).toContain('APP_SUBSCRIPTIONS_UPDATE');
    const gid = sub.shopify_subscription_id!;
    const frozen = await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, gid, {
      status: 'FROZEN',
      updatedAt: new Date().toISOString(),
    });
    expect(frozen.status).toBe(200);
    await expect
      .poll(async () => (await row(sub.id)).status, { timeout: 15_000, interval: 100 })
      .toBe('halted');
    expect((await current(owner)).subscription_id).toBeNull();

    const stale = await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, gid, {
      status: 'ACTIVE',
      updatedAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(stale.status).toBe(200);
    await webhooksDone(owner);
    expect((await row(sub.id)).status).toBe('halted');

    await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, gid, {
      status: 'ACTIVE',
      updatedAt: new Date(Date.now() + 1000).toISOString(),
    });
    await expect
      .poll(async () => (await row(sub.id)).status, { timeout: 15_000, interval: 100 })
      .toBe('active');
    expect((await current(owner)).subscription_id).toBe(sub.id);
  });

  it('refuses a delivery with a bad HMAC (401) and changes nothing', async () => {
    const gid = sub.shopify_subscription_id!;
    const tampered = await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, gid, {
      status: 'CANCELLED',
      updatedAt: new Date(Date.now() + 5000).toISOString(),
      tamper: true,
    });
    expect(tampered.status).toBe(401);
    const wrong = await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, gid, {
      status: 'CANCELLED',
      updatedAt: new Date(Date.now() + 5000).toISOString(),
      secret: 'not-the-secret',
    });
    expect(wrong.status).toBe(401);
    await webhooksDone(owner);
    expect((await row(sub.id)).status).toBe('active');
  });

  it("another workspace's ids answer 404 and change nothing", async () => {
    otherStoreId = await connect(other, OTHER_DOMAIN);
    const theirs = await create(other);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const theirId = theirs.body.subscription.id;
    expect(theirs.body.confirmation_url).toContain(`/shops/${OTHER_DOMAIN}/`);
    const replies = await Promise.all([
      create(owner, { tenant_id: other.user.tenant_id }),
      create(owner, { store_id: otherStoreId }),
      activate(owner, theirId),
      activate(owner, sub.id, otherStoreId),
      cancel(owner, theirId),
      cancel(owner, sub.id, otherStoreId),
      ofUser(owner, other.user.id),
    ]);
    expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect((await row(theirId)).status).toBe('created');
    expect((await row(sub.id)).status).toBe('active');
    expect(fake.shop(OTHER_DOMAIN).appSubscriptions.map((c) => c.status)).toEqual(['PENDING']);
    expect((await ofUser(other)).body.map((s) => s.id)).toEqual([theirId]);
  });

  it('cancels at Shopify: cancelled, auto_renew false, the plan no longer applies', async () => {
    const reply = await cancel(owner, sub.id);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      id: sub.id,
      status: 'cancelled',
      auto_renew: false,
      is_active: false,
    });
    expect(charge(sub.shopify_subscription_id!).status).toBe('CANCELLED');
    expect((await current(owner)).subscription_id).toBeNull();
    const again = await cancel(owner, sub.id);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: PAYMENT_TEXTS.alreadyCancelled });
    // A late ACTIVE delivery cannot bring a cancelled subscription back.
    await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, sub.shopify_subscription_id!, {
      status: 'ACTIVE',
      updatedAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await webhooksDone(owner);
    expect((await row(sub.id)).status).toBe('cancelled');
  });

  it('a declined charge ends on activate; approving a new charge replaces the old one at Shopify', async () => {
    const declined = (await create(owner)).body.subscription;
    fake.declineCharge(DOMAIN, declined.shopify_subscription_id!);
    const ended = await activate(owner, declined.id);
    expect(ended.body).toMatchObject({ status: 'expired', auto_renew: false, is_active: false });

    const first = (await create(owner)).body.subscription;
    fake.approveCharge(DOMAIN, first.shopify_subscription_id!);
    expect((await activate(owner, first.id)).body.status).toBe('active');
    const second = (await create(owner, { billing_cycle: 'yearly' })).body.subscription;
    fake.approveCharge(DOMAIN, second.shopify_subscription_id!);
    expect((await activate(owner, second.id)).body).toMatchObject({
      status: 'active',
      billing_cycle: 'yearly',
    });
    expect((await current(owner)).subscription_id).toBe(second.id);
    // Shopify cancelled the first when the second was approved, and says so by webhook.
    expect(charge(first.shopify_subscription_id!).status).toBe('CANCELLED');
    await fake.sendAppSubscriptionUpdate(hooks(), DOMAIN, first.shopify_subscription_id!);
    await expect
      .poll(async () => (await row(first.id)).status, { timeout: 15_000, interval: 100 })
      .toBe('cancelled');
    expect((await row(first.id)).autoRenew).toBe(false);
    expect((await current(owner)).subscription_id).toBe(second.id);
  });

  it("answers Shopify's refusal as a 400 with its reason, and keeps no row", async () => {
    const [before] = await server.database.db.select().from(plans).where(eq(plans.id, ids.pro));
    // A currency Shopify does not take for app charges (the fake wants three capital letters).
    await server.database.db.update(plans).set({ currency: 'us$' }).where(eq(plans.id, ids.pro));
    const count = (await ofUser(owner)).body.length;
    const refused = await create(owner);
    await server.database.db.update(plans).set({ currency: before!.currency }).where(eq(plans.id, ids.pro));
    expect(refused.status).toBe(400);
    expect((refused.body as unknown as { detail: string }).detail).toMatch(
      new RegExp(`^${SHOPIFY_BILLING_TEXTS.createFailed}: .*Currency code is invalid`),
    );
    expect((await ofUser(owner)).body).toHaveLength(count);
  });

  it('a disconnected store cannot be charged', async () => {
    shop.revoke();
    await fake.sendWebhook(hooks(), 'app/uninstalled', { id: 1, domain: DOMAIN }, { shop: DOMAIN });
    await webhooksDone(owner);
    const reply = await create(owner, { store_id: storeId });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: STORE_TEXTS.storeDisconnected });
    expect((await create(owner)).body).toEqual({ detail: SHOPIFY_BILLING_TEXTS.noStore });
  });
});
