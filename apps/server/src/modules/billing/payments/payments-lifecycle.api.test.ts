import { randomBytes } from 'node:crypto';
import type {
  AddonCheckoutResponse,
  ChatExchange,
  CheckoutResponse,
  InvoiceHistory,
  NotificationList,
  Subscription,
  SubscriptionAddon,
  SubscriptionsResponse,
} from '@parley/contracts';
import { PAYMENT_TEXTS } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../core/db/schema.js';
import { createBotViaApi } from '../../../test/bots.js';
import { signupOwner } from '../../../test/factories.js';
import {
  type FakeEvent,
  type RazorpayFake,
  razorpayEnv,
  startRazorpayFake,
} from '../../../test/fakes/razorpay.js';
import { outboxText } from '../../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { TEXTS } from '../../chat/reply-texts.js';
import { addons, plans, subscriptions } from '../billing.schema.js';

/**
 * A paying customer's life with plans on (PLAN_LIMITS=on) and Razorpay (the fake): webhooks out of
 * order or twice, renewals that fail, plan changes, add-ons and the month's messages, and what the
 * workspace may do at each step.
 */
let server: TestServer;
let fake: RazorpayFake;
const ids = { small: 0, big: 0, messages: 0 };
const as = (account: Account) => ({ token: account.access_token });
const suffix = randomBytes(3).toString('hex');

beforeAll(async () => {
  fake = await startRazorpayFake();
  server = await startTestServer({
    env: {
      PLAN_LIMITS: 'on',
      ...razorpayEnv(fake),
    },
  });
  fake.webhookUrl = `${server.url}/api/payment/razorpay/webhook`;
  const plan = (name: string, price: number, bots: number, messages: number) => ({
    name: `${name} ${suffix}`,
    currency: 'INR',
    priceMonthly: price,
    priceYearly: price * 10,
    maxChatbots: bots,
    maxTeamMembers: 3,
    messagesCreditsPerMonth: messages,
    trainedCharactersPerChatbot: 1_000_000,
    chatHistoryRetention: 0,
  });
  const db = server.database.db;
  const [small, big] = await db
    .insert(plans)
    .values([plan('Small', 2000, 1, 3), plan('Big', 5000, 3, 100)])
    .returning();
  const [messages] = await db
    .insert(addons)
    .values({ name: `Messages ${suffix}`, kind: 'messages', units: 5, currency: 'INR', priceMonthly: 1000 })
    .returning();
  Object.assign(ids, { small: small!.id, big: big!.id, messages: messages!.id });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const subscribe = (account: Account, planId: number) =>
  server.post<CheckoutResponse>(
    '/api/payment/create-subscription',
    { plan_id: planId, billing_cycle: 'monthly' },
    as(account),
  );
const workspace = async (account: Account) =>
  (
    await server.get<SubscriptionsResponse>(
      `/api/pricing/subscriptions/${account.user.tenant_id}`,
      as(account),
    )
  ).body;
const history = async (account: Account) =>
  (await server.get<InvoiceHistory>(`/api/payment/invoice-history/${account.user.tenant_id}`, as(account)))
    .body.invoices;
const row = async (id: number) =>
  (await server.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const allOk = (deliveries: { status: number; body: string }[]) =>
  expect(deliveries.map((d) => `${d.status} ${d.body}`)).toEqual(deliveries.map(() => '200 {"ok":true}'));
/** Events the fake sent by itself, each answered 200. */
async function sent(events: Promise<FakeEvent[]>): Promise<void> {
  const count = (await events).length;
  allOk(fake.deliveries.slice(-count));
}
const botForm = (account: Account, name: string) => {
  const form = new FormData();
  form.append('bot_name', name);
  return fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
};

/** A workspace on a plan, paid at checkout. */
async function paying(planId: number) {
  const account = await signupOwner(server);
  const made = await subscribe(account, planId);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const razorpayId = made.body.checkout.subscription_id;
  allOk(await fake.deliver(...(await fake.pay(razorpayId, { deliver: false }))));
  return { account, id: made.body.subscription.id, razorpayId };
}

describe('a checkout left unpaid', () => {
  it('is cancelled at Razorpay when another plan is bought, so it can never charge beside it', async () => {
    const account = await signupOwner(server);
    const left = await subscribe(account, ids.small);
    const leftId = left.body.checkout.subscription_id;
    const chosen = await subscribe(account, ids.big);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
    expect(fake.subscriptions.get(leftId)!.status).toBe('cancelled');
    expect(await row(left.body.subscription.id)).toMatchObject({ status: 'cancelled', autoRenew: false });
    await fake.idle();
    await sent(fake.pay(chosen.body.checkout.subscription_id));
    // The link Razorpay mailed for the first one is dead: nothing more is charged.
    const late = await fetch(`${fake.checkoutUrl(leftId)}/pay`, { method: 'POST' });
    expect(late.status).toBe(409);
    const state = await workspace(account);
    expect(state.current.plan.id).toBe(ids.big);
    expect(state.subscriptions.filter((s) => s.is_active).map((s) => s.plan_id)).toEqual([ids.big]);
    expect((await history(account)).map((i) => [i.status, i.amount])).toEqual([['paid', 5000]]);
  });

  it('paid at Razorpay but not yet confirmed by its webhook: a second plan is refused, the paid one kept', async () => {
    const account = await signupOwner(server);
    const first = await subscribe(account, ids.small);
    const rz = first.body.checkout.subscription_id;
    const events = await fake.pay(rz, { deliver: false });
    const before = fake.subscriptions.size;
    const second = await subscribe(account, ids.big);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: PAYMENT_TEXTS.alreadySubscribed });
    expect(fake.subscriptions.size).toBe(before);
    expect(fake.subscriptions.get(rz)!.status).toBe('active');
    allOk(await fake.deliver(...events));
    expect((await workspace(account)).current.plan.id).toBe(ids.small);
  });
});

describe('webhooks out of order or twice', () => {
  it('charged before activated before authenticated: active, one invoice, redeliveries change nothing', async () => {
    const account = await signupOwner(server);
    const made = await subscribe(account, ids.big);
    const rz = made.body.checkout.subscription_id;
    const [authenticated, activated, charged] = await fake.pay(rz, { deliver: false });
    allOk(await fake.deliver(charged!, activated!, authenticated!));
    const stored = await row(made.body.subscription.id);
    expect(stored.status).toBe('active');
    expect(stored.endDate!.getTime()).toBe(fake.subscriptions.get(rz)!.current_end! * 1000);
    allOk(await fake.resend(charged!, activated!, authenticated!, charged!));
    expect((await history(account)).map((i) => [i.status, i.amount, i.currency])).toEqual([
      ['paid', 5000, 'INR'],
    ]);
    expect((await workspace(account)).current.limits.max_chatbots).toBe(3);
  });

  it('a failed attempt reported after the successful one neither stops the plan nor tells the customer it failed', async () => {
    const account = await signupOwner(server);
    const made = await subscribe(account, ids.small);
    const rz = made.body.checkout.subscription_id;
    const [failed] = await fake.failPayment(rz, { deliver: false });
    await sent(fake.pay(rz));
    allOk(await fake.deliver(failed!));
    expect((await row(made.body.subscription.id)).status).toBe('active');
    expect((await workspace(account)).current.plan.id).toBe(ids.small);
    expect((await history(account)).map((i) => [i.status, i.amount])).toEqual(
      expect.arrayContaining([
        ['paid', 2000],
        ['failed', 2000],
      ]),
    );
    const bell = await server.get<NotificationList>('/api/notification/list', as(account));
    expect(bell.body.notifications.filter((n) => n.kind === 'payment_failed')).toEqual([]);
    const mails = await server.database.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, account.user.email));
    expect(mails.map((m) => m.subject)).not.toContain('Parley: your payment failed');
  });

  it('a charge with a bad signature is refused and invoices nothing', async () => {
    const { account, razorpayId } = await paying(ids.small);
    const [renewal] = await fake.charge(razorpayId, { deliver: false });
    const forged = await fake.sendRaw(renewal!.body, {
      'X-Razorpay-Signature': fake.sign(`${renewal!.body} `),
      'X-Razorpay-Event-Id': renewal!.id,
    });
    expect(forged.status).toBe(401);
    expect(await history(account)).toHaveLength(1);
    // The genuine delivery of the same event id is then applied.
    allOk(await fake.deliver(renewal!));
    expect(await history(account)).toHaveLength(2);
  });
});

describe('a renewal that fails', () => {
  it('keeps the plan while Razorpay retries, falls back to the free plan when halted, and says so', async () => {
    const { account, id, razorpayId } = await paying(ids.big);
    await createBotViaApi(server, account, { bot_name: 'One' });
    await createBotViaApi(server, account, { bot_name: 'Two' });
    await sent(fake.failRenewal(razorpayId));
    expect((await workspace(account)).current).toMatchObject({ subscription_id: id });
    expect((await botForm(account, 'Three')).status).toBe(201);
    await sent(fake.halt(razorpayId));
    const halted = await workspace(account);
    expect(halted.current.subscription_id).toBeNull();
    expect(halted.current.plan.is_default).toBe(true);
    // Over the free plan's bots: the ones made are kept, a new one is refused naming the plan.
    const refused = await botForm(account, 'Four');
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { detail: string }).detail).toContain(halted.current.plan.name);
    expect(await outboxText(server.database, account.user.email)).toContain('falls back to the free plan');
    // Subscribing again replaces the halted one: Razorpay can no longer revive it beside the new one.
    const again = await subscribe(account, ids.small);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(fake.subscriptions.get(razorpayId)!.status).toBe('cancelled');
    expect(await row(id)).toMatchObject({ status: 'cancelled', autoRenew: false });
    await fake.idle();
    await sent(fake.pay(again.body.checkout.subscription_id));
    expect((await workspace(account)).current.plan.id).toBe(ids.small);
  });
});

describe('limits when the plan changes', () => {
  it('a downgrade applies the smaller limits at once; bots over them are kept, new ones refused', async () => {
    const { account, id } = await paying(ids.big);
    for (const name of ['A', 'B', 'C']) await createBotViaApi(server, account, { bot_name: name });
    const down = await server.post<Subscription>(
      '/api/payment/subscription/upgrade',
      { subscription_id: id, plan_id: ids.small },
      as(account),
    );
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    await fake.idle();
    expect((await workspace(account)).current.limits.max_chatbots).toBe(1);
    expect((await botForm(account, 'D')).status).toBe(402);
    // Nothing is charged for a downgrade: the invoices are the first charge alone.
    expect((await history(account)).map((i) => i.amount)).toEqual([5000]);
  });

  it("the month's messages: the notice once used up, answers again as soon as an add-on is paid, and not after it ends", async () => {
    const { account } = await paying(ids.small);
    const bot = await createBotViaApi(server, account, { bot_name: 'Counter' });
    const ask = async () =>
      (
        await server.post<ChatExchange>(
          '/api/chat/chats',
          { bot_id: bot.bot_id, message: 'Hello there?' },
          as(account),
        )
      ).body.bot_message!;
    for (let i = 0; i < 3; i++) expect((await ask()).answer_mode).not.toBe('limit');
    const notice = await ask();
    expect(notice).toMatchObject({ answer_mode: 'limit', message: TEXTS.limit });
    const bought = await server.post<AddonCheckoutResponse>(
      '/api/payment/add-addon',
      { addon_id: ids.messages, quantity: 2 },
      as(account),
    );
    // Not before it is paid.
    expect((await ask()).answer_mode).toBe('limit');
    await sent(fake.pay(bought.body.checkout.subscription_id));
    expect((await workspace(account)).current.limits.messages_credits_per_month).toBe(13);
    expect((await ask()).answer_mode).not.toBe('limit');
    const ended = await server.post<SubscriptionAddon>(
      `/api/payment/cancel-addon-subscription/${bought.body.subscription_addon.id}`,
      { at_period_end: false },
      as(account),
    );
    expect(ended.body).toMatchObject({ status: 'cancelled', is_active: false });
    await fake.idle();
    expect((await workspace(account)).current.limits.messages_credits_per_month).toBe(3);
    expect((await ask()).answer_mode).toBe('limit');
  });
});
