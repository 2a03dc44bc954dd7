import { randomBytes } from 'node:crypto';
import type {
  AddonCheckoutResponse,
  CheckoutResponse,
  InvoiceHistory,
  Subscription,
  SubscriptionsResponse,
} from '@parley/contracts';
import { PAYMENT_TEXTS } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../core/clock.js';
import { signupOwner } from '../../../test/factories.js';
import {
  type FakeEvent,
  type RazorpayFake,
  razorpayEnv,
  startRazorpayFake,
} from '../../../test/fakes/razorpay.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { addons, plans, subscriptionAddons, subscriptions } from '../billing.schema.js';

/**
 * A plan chosen while the one in force is cancelled at the end of its period starts when that
 * period ends (Razorpay's start_at): the old plan grants until then, the new one takes over at that
 * moment whatever order the webhooks come in, and the change can be undone before it starts.
 */
let server: TestServer;
let fake: RazorpayFake;
/** The server's time: the fake's (moved by its renewals), so both agree on when a period ends. */
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
const clockAt = (seconds: number) => {
  offsetMs = seconds * 1000 - Date.now();
};
const ids = { small: 0, big: 0, messages: 0 };
const as = (account: Account) => ({ token: account.access_token });
const suffix = randomBytes(3).toString('hex');

beforeAll(async () => {
  fake = await startRazorpayFake();
  server = await startTestServer({
    clock,
    env: {
      PLAN_LIMITS: 'on',
      ...razorpayEnv(fake),
    },
  });
  fake.webhookUrl = `${server.url}/api/payment/razorpay/webhook`;
  const plan = (name: string, price: number, bots: number) => ({
    name: `${name} ${suffix}`,
    currency: 'INR',
    priceMonthly: price,
    priceYearly: price * 10,
    maxChatbots: bots,
    maxTeamMembers: 3,
    messagesCreditsPerMonth: 100,
    trainedCharactersPerChatbot: 1_000_000,
    chatHistoryRetention: 0,
  });
  const [small, big] = await server.database.db
    .insert(plans)
    .values([plan('Small', 2000, 1), plan('Big', 5000, 3)])
    .returning();
  const [messages] = await server.database.db
    .insert(addons)
    .values({ name: `Messages ${suffix}`, kind: 'messages', units: 5, currency: 'INR', priceMonthly: 1000 })
    .returning();
  Object.assign(ids, { small: small!.id, big: big!.id, messages: messages!.id });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => clockAt(fake.now));

const subscribe = (account: Account, planId: number) =>
  server.post<CheckoutResponse & { detail?: string }>(
    '/api/payment/create-subscription',
    { plan_id: planId, billing_cycle: 'monthly' },
    as(account),
  );
const cancel = (account: Account, id: number, body: object = {}) =>
  server.post<Subscription>(`/api/payment/cancel-subscription/${id}`, body, as(account));
const workspace = async (account: Account) =>
  (
    await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${account.user.tenant_id}`,
      as(account),
    )
  ).body;
const invoices = async (account: Account) =>
  (
    await server.get<InvoiceHistory>(`/api/payment/invoice-history/${account.user.tenant_id}`, as(account))
  ).body.invoices.map((i) => [i.amount, i.period_start]);
const row = async (id: number) =>
  (await server.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const allOk = (deliveries: { status: number; body: string }[]) =>
  expect(deliveries.map((d) => `${d.status} ${d.body}`)).toEqual(deliveries.map(() => '200 {"ok":true}'));
const newBot = async (account: Account, name: string) => {
  const form = new FormData();
  form.append('bot_name', name);
  const response = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return response.status;
};
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** On Big, paid, then cancelled at the end of its period; two bots made (Big allows 3, Small 1). */
async function cancelledBig() {
  const account = await signupOwner(server);
  const made = await subscribe(account, ids.big);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const bigRz = made.body.checkout.subscription_id;
  allOk(await fake.pay(bigRz).then(() => fake.deliveries.slice(-3)));
  expect(await newBot(account, 'One')).toBe(201);
  expect(await newBot(account, 'Two')).toBe(201);
  const cancelled = await cancel(account, made.body.subscription.id);
  expect(cancelled.body).toMatchObject({ status: 'active', auto_renew: false });
  const end = fake.subscriptions.get(bigRz)!.current_end!;
  expect(cancelled.body.end_date).toBe(iso(end));
  return { account, bigId: made.body.subscription.id, bigRz, end };
}

/** Small chosen and paid at checkout while Big runs to its end. */
async function scheduledSmall(account: Account, end: number) {
  const made = await subscribe(account, ids.small);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const smallRz = made.body.checkout.subscription_id;
  // Razorpay is asked to start it when Big's period ends, not now.
  expect(fake.lastBody.get('POST /v1/subscriptions')).toMatchObject({ start_at: end });
  expect(made.body.subscription).toMatchObject({
    scheduled: true,
    is_active: false,
    start_date: iso(end),
    status: 'created',
  });
  const events = await fake.pay(smallRz, { deliver: false });
  expect(events.map((e) => e.event)).toEqual(['subscription.authenticated']);
  allOk(await fake.deliver(...events));
  return { smallId: made.body.subscription.id, smallRz };
}

describe('a plan chosen while the current one is cancelled at the end of its period', () => {
  it('starts when Big ends: nothing charged before, Big granting until then, Small from that moment', async () => {
    const { account, bigId, bigRz, end } = await cancelledBig();
    const { smallId, smallRz } = await scheduledSmall(account, end);

    // Until the end: Big's limits, Small listed as scheduled, only Big invoiced.
    const before = await workspace(account);
    expect(before.current).toMatchObject({ subscription_id: bigId, limits: { max_chatbots: 3 } });
    expect(before.subscriptions.find((s) => s.id === smallId)).toMatchObject({
      status: 'authenticated',
      scheduled: true,
      is_active: false,
    });
    expect(await newBot(account, 'Three')).toBe(201);
    expect(await invoices(account)).toEqual([[5000, expect.any(String)]]);
    // A second change waits for the first to be undone.
    const another = await subscribe(account, ids.big);
    expect(another.status).toBe(409);
    expect(another.body.detail).toBe(PAYMENT_TEXTS.changeScheduled(`Small ${suffix}`, dayOf(end)));

    // A second before the end, still Big; at the end Razorpay ends Big, then starts Small.
    clockAt(end - 1);
    expect((await workspace(account)).current.subscription_id).toBe(bigId);
    clockAt(end);
    const bigEnded = await fake.charge(bigRz, { deliver: false });
    expect(bigEnded.map((e) => e.event)).toEqual(['subscription.cancelled']);
    allOk(await fake.deliver(...bigEnded));
    // Small's own webhooks are not here yet: it takes over at its start all the same.
    const between = await workspace(account);
    expect(between.current).toMatchObject({ subscription_id: smallId, limits: { max_chatbots: 1 } });
    expect(await newBot(account, 'Four')).toBe(402);
    allOk(await fake.charge(smallRz).then(() => fake.deliveries.slice(-2)));
    expect(await row(smallId)).toMatchObject({ status: 'active', autoRenew: true });
    const after = await workspace(account);
    expect(after.current).toMatchObject({ subscription_id: smallId, plan: { id: ids.small } });
    expect(after.subscriptions.find((s) => s.id === smallId)).toMatchObject({
      scheduled: false,
      is_active: true,
    });
    // Small's first charge pays the period that starts where Big's ends: no day paid twice.
    expect(await invoices(account)).toEqual([
      [2000, iso(end)],
      [5000, expect.any(String)],
    ]);
  });

  it('carries the add-ons bought on Big over to Small: still counted, listed on Small, billed as before', async () => {
    const { account, bigId, bigRz, end } = await cancelledBig();
    const bought = await server.post<AddonCheckoutResponse>(
      '/api/payment/add-addon',
      { addon_id: ids.messages, quantity: 2 },
      as(account),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const addonRz = bought.body.checkout.subscription_id;
    allOk(await fake.pay(addonRz).then(() => fake.deliveries.slice(-3)));
    const linkId = bought.body.subscription_addon.id;
    const { smallId, smallRz } = await scheduledSmall(account, end);
    const onBig = await workspace(account);
    expect(onBig.current.limits.messages_credits_per_month).toBe(100 + 10);
    expect(onBig.subscriptions.find((s) => s.id === bigId)!.subscription_addons.map((a) => a.id)).toEqual([
      linkId,
    ]);

    clockAt(end);
    allOk(await fake.charge(bigRz).then(() => fake.deliveries.slice(-1)));
    allOk(await fake.charge(smallRz).then(() => fake.deliveries.slice(-2)));
    const onSmall = await workspace(account);
    expect(onSmall.current).toMatchObject({
      subscription_id: smallId,
      limits: { max_chatbots: 1, messages_credits_per_month: 100 + 10 },
    });
    const small = onSmall.subscriptions.find((s) => s.id === smallId)!;
    expect(small.subscription_addons).toMatchObject([
      { id: linkId, quantity: 2, status: 'active', auto_renew: true, is_active: true },
    ]);
    expect(onSmall.subscriptions.find((s) => s.id === bigId)!.subscription_addons).toEqual([]);
    // Nothing about the add-on changed at Razorpay: it renews on its own date, at its own price.
    expect(fake.subscriptions.get(addonRz)).toMatchObject({ status: 'active', cancelAtCycleEnd: false });
    const [stored] = await server.database.db
      .select()
      .from(subscriptionAddons)
      .where(eq(subscriptionAddons.id, linkId));
    expect(stored).toMatchObject({ subscriptionId: smallId, status: 'active' });
  });

  it("takes over at the end when Small's webhooks arrive before Big's cancellation", async () => {
    const { account, bigId, bigRz, end } = await cancelledBig();
    const { smallId, smallRz } = await scheduledSmall(account, end);
    clockAt(end);
    const bigEnded = await fake.charge(bigRz, { deliver: false });
    const [activated, charged] = await fake.charge(smallRz, { deliver: false });
    // Charged first, then activated, then Big's end; and the authentication again, late.
    allOk(await fake.deliver(charged!, activated!));
    expect((await workspace(account)).current.subscription_id).toBe(smallId);
    allOk(await fake.deliver(...bigEnded));
    const final = await workspace(account);
    expect(final.current).toMatchObject({ subscription_id: smallId, limits: { max_chatbots: 1 } });
    expect(await row(bigId)).toMatchObject({ status: 'cancelled' });
    expect(await row(smallId)).toMatchObject({ status: 'active' });
    expect((await invoices(account)).map(([amount]) => amount)).toEqual([2000, 5000]);
  });

  it('an old authentication event arriving after the start changes nothing', async () => {
    const { account, end } = await cancelledBig();
    const made = await subscribe(account, ids.small);
    const smallRz = made.body.checkout.subscription_id;
    const [authenticated] = (await fake.pay(smallRz, { deliver: false })) as FakeEvent[];
    clockAt(end);
    allOk(await fake.charge(smallRz).then(() => fake.deliveries.slice(-2)));
    allOk(await fake.deliver(authenticated!));
    expect(await row(made.body.subscription.id)).toMatchObject({ status: 'active' });
    expect((await workspace(account)).current.plan.id).toBe(ids.small);
  });

  it('can be undone before it starts: cancelled at Razorpay at once, Big until its end, then the free plan', async () => {
    const { account, bigId, bigRz, end } = await cancelledBig();
    const { smallId, smallRz } = await scheduledSmall(account, end);
    // Another workspace cannot touch it.
    const stranger = await signupOwner(server);
    expect((await cancel(stranger, smallId, { at_period_end: false })).status).toBe(404);
    expect(fake.subscriptions.get(smallRz)!.status).toBe('authenticated');

    // The console's default body (at the end of the period) still ends it now: it has no period yet.
    const undone = await cancel(account, smallId);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body).toMatchObject({ status: 'cancelled', scheduled: false, is_active: false });
    expect(fake.subscriptions.get(smallRz)!.status).toBe('cancelled');
    await fake.idle();
    const state = await workspace(account);
    expect(state.current).toMatchObject({ subscription_id: bigId, limits: { max_chatbots: 3 } });
    expect(state.subscriptions.filter((s) => s.scheduled)).toEqual([]);

    // Big's end: nothing follows it.
    clockAt(end);
    allOk(await fake.charge(bigRz).then(() => fake.deliveries.slice(-1)));
    const ended = await workspace(account);
    expect(ended.current.subscription_id).toBeNull();
    expect(ended.current.plan.is_default).toBe(true);
    expect((await invoices(account)).map(([amount]) => amount)).toEqual([5000]);
  });

  it('after undoing, another plan can be chosen, and it is scheduled in turn', async () => {
    const { account, end } = await cancelledBig();
    const { smallId } = await scheduledSmall(account, end);
    expect((await cancel(account, smallId, { at_period_end: false })).status).toBe(200);
    await fake.idle();
    const again = await subscribe(account, ids.big);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.subscription).toMatchObject({ scheduled: true, start_date: iso(end) });
    expect(fake.lastBody.get('POST /v1/subscriptions')).toMatchObject({ start_at: end });
  });

  it('a plan given by the Parley team until a date: one bought starts when the grant ends', async () => {
    const account = await signupOwner(server);
    const end = fake.now + 10 * 86_400;
    const [grant] = await server.database.db
      .insert(subscriptions)
      .values({
        tenantId: account.user.tenant_id,
        planId: ids.big,
        billingCycle: 'monthly',
        status: 'active',
        autoRenew: false,
        startDate: new Date(),
        endDate: new Date(end * 1000),
        complimentary: true,
      })
      .returning();
    const { smallId } = await scheduledSmall(account, end);
    expect((await workspace(account)).current).toMatchObject({
      subscription_id: grant!.id,
      complimentary: true,
    });
    clockAt(end);
    expect((await workspace(account)).current).toMatchObject({
      subscription_id: smallId,
      complimentary: false,
    });
  });

  it('a plan still renewing is changed in place, not scheduled (409)', async () => {
    const account = await signupOwner(server);
    const made = await subscribe(account, ids.big);
    allOk(await fake.pay(made.body.checkout.subscription_id).then(() => fake.deliveries.slice(-3)));
    const second = await subscribe(account, ids.small);
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe(PAYMENT_TEXTS.alreadySubscribed);
  });

  it('with nothing in force, a plan starts at checkout as before', async () => {
    const account = await signupOwner(server);
    const made = await subscribe(account, ids.small);
    expect(made.body.subscription).toMatchObject({ scheduled: false, start_date: null });
    expect(fake.lastBody.get('POST /v1/subscriptions')).not.toHaveProperty('start_at');
    allOk(await fake.pay(made.body.checkout.subscription_id).then(() => fake.deliveries.slice(-3)));
    expect((await workspace(account)).current.subscription_id).toBe(made.body.subscription.id);
  });
});

function dayOf(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
