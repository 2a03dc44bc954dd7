import { randomBytes } from 'node:crypto';
import {
  type AddonCheckoutResponse,
  type CheckoutResponse,
  type InvoiceHistory,
  type NotificationList,
  PAYMENT_TEXTS,
  type Subscription,
  type SubscriptionAddon,
} from '@parley/contracts';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { mailOutbox } from '../../../core/db/schema.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../../test/factories.js';
import {
  type FakeEvent,
  type RazorpayFake,
  razorpayEnv,
  startRazorpayFake,
} from '../../../test/fakes/razorpay.js';
import { outboxText } from '../../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import {
  addons,
  billingEvents,
  invoices,
  plans,
  subscriptionAddons,
  subscriptions,
} from '../billing.schema.js';
import { razorpayKeys } from './razorpay.client.js';

let server: TestServer;
let fake: RazorpayFake;
let owner: Account;
let other: Account;
const ids = { pro: 0, business: 0, addon: 0, free: 0 };
const as = (account: Account) => ({ token: account.access_token });
const suffix = randomBytes(3).toString('hex');

beforeAll(async () => {
  fake = await startRazorpayFake();
  server = await startTestServer({
    env: {
      ...razorpayEnv(fake),
    },
  });
  fake.webhookUrl = `${server.url}/api/payment/razorpay/webhook`;
  const db = server.database.db;
  const plan = (name: string, priceMonthly: number, priceYearly: number) => ({
    name: `${name} ${suffix}`,
    currency: 'INR',
    priceMonthly,
    priceYearly,
    maxChatbots: 5,
    maxTeamMembers: 5,
    messagesCreditsPerMonth: 5000,
    trainedCharactersPerChatbot: 1_000_000,
    chatHistoryRetention: 0,
  });
  const [pro, business] = await db
    .insert(plans)
    .values([plan('Test Pro', 1999, 19_990), plan('Test Business', 4999, 49_990)])
    .returning();
  const [addon] = await db
    .insert(addons)
    .values({
      name: `Test Messages ${suffix}`,
      kind: 'messages',
      units: 1000,
      currency: 'INR',
      priceMonthly: 1000,
    })
    .returning();
  const [free] = await db.select().from(plans).where(eq(plans.isDefault, true)).limit(1);
  const freeId =
    free?.id ??
    (
      await db
        .insert(plans)
        .values({ ...plan('Test Free', 0, 0), isDefault: true })
        .returning()
    )[0]!.id;
  Object.assign(ids, { pro: pro!.id, business: business!.id, addon: addon!.id, free: freeId });
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const create = (account: Account, body: unknown) =>
  server.post<CheckoutResponse>('/api/payment/create-subscription', body, as(account));
const history = (account: Account, tenantId = account.user.tenant_id) =>
  server.get<InvoiceHistory>(`/api/payment/invoice-history/${tenantId}`, as(account));
const row = async (id: number) =>
  (await server.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const allOk = (deliveries: { status: number; body: string }[]) =>
  expect(deliveries.map((d) => `${d.status} ${d.body}`)).toEqual(deliveries.map(() => '200 {"ok":true}'));
const newestMail = async (to: string) =>
  (
    await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, to))
      .orderBy(desc(mailOutbox.id))
      .limit(1)
  )[0];

describe('payments with Razorpay', () => {
  let sub: Subscription;
  let razorpayId: string;

  it('refuses the free plan, an unknown plan and a bad cycle', async () => {
    const free = await create(owner, { plan_id: ids.free, billing_cycle: 'monthly' });
    expect(free.status).toBe(400);
    expect(free.body).toEqual({ detail: PAYMENT_TEXTS.freePlan });
    expect((await create(owner, { plan_id: 99_999_999, billing_cycle: 'monthly' })).status).toBe(404);
    expect((await create(owner, { plan_id: ids.pro, billing_cycle: 'weekly' })).status).toBe(400);
  });

  it('answers 503 when Razorpay is down and keeps nothing', async () => {
    fake.failNext();
    const reply = await create(other, { plan_id: ids.pro, billing_cycle: 'monthly' });
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ detail: PAYMENT_TEXTS.providerFailed });
    const rows = await server.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, other.user.tenant_id));
    expect(rows).toEqual([]);
  });

  it('creates a Razorpay customer, plan and subscription and answers what Checkout needs', async () => {
    const reply = await create(owner, { plan_id: ids.pro, billing_cycle: 'monthly' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    sub = reply.body.subscription;
    razorpayId = reply.body.checkout.subscription_id;
    expect(sub).toMatchObject({
      status: 'created',
      plan_id: ids.pro,
      billing_cycle: 'monthly',
      auto_renew: true,
    });
    expect(sub.razorpay_subscription_id).toBe(razorpayId);
    expect(reply.body.checkout).toEqual({
      key_id: fake.keyId,
      subscription_id: razorpayId,
      name: 'Parley',
      description: `Test Pro ${suffix} (monthly)`,
      prefill: { email: owner.user.email, name: 'Ada Lovelace' },
      checkout_url: fake.checkoutUrl(razorpayId),
    });
    const atRazorpay = fake.subscriptions.get(razorpayId)!;
    const rzPlan = fake.plans.get(atRazorpay.plan_id)!;
    expect(rzPlan).toMatchObject({ period: 'monthly', interval: 1, item: { amount: 1999, currency: 'INR' } });
    expect(atRazorpay.customer_id).toBe((await row(sub.id)).razorpayCustomerId);
    expect(atRazorpay.notes).toEqual({
      tenant_id: String(owner.user.tenant_id),
      parley_ref: `subscription:${sub.id}`,
    });
    const [stored] = await server.database.db.select().from(plans).where(eq(plans.id, ids.pro));
    expect(stored!.providerPlanIds).toEqual({ monthly: rzPlan.id });
  });

  it('makes the Razorpay plan of a plan and cycle once', async () => {
    const before = fake.plans.size;
    const reply = await create(other, { plan_id: ids.pro, billing_cycle: 'monthly' });
    expect(reply.status).toBe(201);
    expect(fake.plans.size).toBe(before);
    expect(fake.subscriptions.get(reply.body.checkout.subscription_id)!.plan_id).toBe(
      fake.subscriptions.get(razorpayId)!.plan_id,
    );
  });

  it('a failed payment at checkout mails the owner and is listed without a PDF', async () => {
    const [pending] = await server.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, other.user.tenant_id));
    const page = await fetch(fake.checkoutUrl(pending!.razorpaySubscriptionId!));
    expect(await page.text()).toContain('Fail payment');
    const failed = await fetch(`${fake.checkoutUrl(pending!.razorpaySubscriptionId!)}/fail`, {
      method: 'POST',
    });
    expect(failed.status).toBe(200);
    expect(fake.deliveries.at(-1)!.status).toBe(200);
    expect(await outboxText(server.database, other.user.email)).toContain('did not go through');
    expect((await row(pending!.id)).status).toBe('created');
    const list = await history(other);
    expect(list.body.invoices).toHaveLength(1);
    expect(list.body.invoices[0]).toMatchObject({
      status: 'failed',
      amount: 1999,
      currency: 'INR',
      pdf_url: null,
    });
  });

  it('checkout completes: the webhooks activate the subscription and invoice the first charge', async () => {
    const page = await fetch(fake.checkoutUrl(razorpayId));
    expect(await page.text()).toContain('>Pay<');
    const paid = await fetch(`${fake.checkoutUrl(razorpayId)}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    allOk(fake.deliveries.slice(-3));
    const stored = await row(sub.id);
    expect(stored.status).toBe('active');
    expect(stored.startDate).not.toBeNull();
    expect(stored.endDate!.getTime()).toBe(fake.subscriptions.get(razorpayId)!.current_end! * 1000);
    const list = await history(owner);
    expect(list.status).toBe(200);
    expect(list.body.invoices).toHaveLength(1);
    const [invoice] = list.body.invoices;
    // The fake's GST is 18% included: floor(1999 * 18 / 118) = 304.
    expect(invoice).toMatchObject({
      status: 'paid',
      amount: 1999,
      tax: 304,
      currency: 'INR',
      lines: [{ description: `Test Pro ${suffix} plan (monthly)`, quantity: 1, amount: 1695 }],
      pdf_url: `/api/payment/invoices/${invoice!.id}/pdf`,
    });
    expect(invoice!.number).toMatch(/^PAR-\d{4}-\d{6}$/);
    expect(invoice!.period_end).toBe(stored.endDate!.toISOString());
    // The first charge is no renewal: no mail about one.
    expect((await newestMail(owner.user.email))?.subject ?? '').not.toContain('renewed');
  });

  it("serves the paid charge's PDF invoice, to its workspace only", async () => {
    const [invoice] = (await history(owner)).body.invoices;
    const response = await fetch(`${server.url}/api/payment/invoices/${invoice!.id}/pdf`, {
      headers: { authorization: `Bearer ${owner.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${invoice!.number}.pdf"`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    const text = await pdfText(pdf);
    expect(text).toContain(invoice!.number);
    expect(text).toContain(owner.user.tenant_name);
    expect(text).toContain('INR 19.99');
    expect(text).toContain('INR 3.04');
    expect((await server.get(`/api/payment/invoices/${invoice!.id}/pdf`, as(other))).status).toBe(404);
    const failed = (await history(other)).body.invoices[0]!;
    expect((await server.get(`/api/payment/invoices/${failed.id}/pdf`, as(other))).status).toBe(404);
  });

  it('refuses a forged or tampered delivery before storing anything', async () => {
    const before = await server.database.db.select().from(billingEvents);
    const body = JSON.stringify({
      entity: 'event',
      event: 'subscription.cancelled',
      created_at: fake.now + 1000,
      payload: { subscription: { entity: { id: razorpayId, status: 'cancelled' } } },
    });
    const forged = await fake.sendRaw(body, {
      'X-Razorpay-Signature': 'a'.repeat(64),
      'X-Razorpay-Event-Id': 'evt_forged',
    });
    expect(forged.status).toBe(401);
    const other = JSON.stringify({ entity: 'event', event: 'noop', created_at: 1, payload: {} });
    const tampered = await fake.sendRaw(body, {
      'X-Razorpay-Signature': fake.sign(other),
      'X-Razorpay-Event-Id': 'evt_t',
    });
    expect(tampered.status).toBe(401);
    const unsigned = await fake.sendRaw(body, { 'X-Razorpay-Event-Id': 'evt_u' });
    expect(unsigned.status).toBe(401);
    expect(await server.database.db.select().from(billingEvents)).toHaveLength(before.length);
    expect((await row(sub.id)).status).toBe('active');
    const notEvent = await fake.sendRaw('{"hello":1}', {
      'X-Razorpay-Signature': fake.sign('{"hello":1}'),
      'X-Razorpay-Event-Id': 'evt_x',
    });
    expect(notEvent.status).toBe(400);
  });

  it('a redelivered event changes nothing', async () => {
    const [charged] = await fake.charge(razorpayId);
    const count = async () => (await server.database.db.select().from(invoices)).length;
    const invoicesBefore = await count();
    const events = (await server.database.db.select().from(billingEvents)).length;
    allOk(await fake.resend(charged!));
    allOk(await fake.resend(charged!));
    expect(await count()).toBe(invoicesBefore);
    expect((await server.database.db.select().from(billingEvents)).length).toBe(events);
  });

  it('a renewal is invoiced with the next number and mailed to the owner', async () => {
    const list = (await history(owner)).body.invoices;
    expect(list).toHaveLength(2);
    const [renewal, first] = list;
    // Numbers run per year of the charge: a renewal charged in the next year (the run's month is
    // December) starts that year's series.
    const yearOf = (invoice: typeof first) => new Date(invoice!.charged_at).getUTCFullYear();
    expect(first!.number.startsWith(`PAR-${yearOf(first)}-`)).toBe(true);
    const next = yearOf(renewal) === yearOf(first) ? Number(first!.number.slice(-6)) + 1 : 1;
    expect(renewal!.number).toBe(`PAR-${yearOf(renewal)}-${String(next).padStart(6, '0')}`);
    const mail = await outboxText(server.database, owner.user.email);
    expect(mail).toContain('renewed');
    expect(mail).toContain(renewal!.number);
    expect(mail).toContain('INR 19.99');
  });

  it('a failed renewal sets pending, mails the owner once, and a later charge recovers', async () => {
    const mailsBefore = await mailsTo(owner.user.email);
    await fake.failRenewal(razorpayId);
    allOk(fake.deliveries.slice(-2));
    expect((await row(sub.id)).status).toBe('pending');
    expect(await mailsTo(owner.user.email)).toBe(mailsBefore + 1);
    expect(await outboxText(server.database, owner.user.email)).toContain('your payment failed');
    // The bell beside the mail, once: the owner reads Subscriptions.
    const bell = await server.get<NotificationList>('/api/notification/list', { token: owner.access_token });
    expect(bell.body.notifications.filter((n) => n.kind === 'payment_failed')).toHaveLength(1);
    const failed = (await history(owner)).body.invoices[0]!;
    expect(failed).toMatchObject({ status: 'failed', pdf_url: null });
    expect(failed.number).toMatch(/^pay_/);
    await fake.charge(razorpayId);
    allOk(fake.deliveries.slice(-1));
    expect((await row(sub.id)).status).toBe('active');
  });

  it('upgrades now: Razorpay prorates, the plan changes at once and the prorated charge is invoiced', async () => {
    const mailsBefore = await mailsTo(owner.user.email);
    const reply = await server.post<Subscription>(
      '/api/payment/subscription/upgrade',
      { subscription_id: sub.id, plan_id: ids.business },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ id: sub.id, plan_id: ids.business, status: 'active' });
    expect(fake.lastBody.get('PATCH /v1/subscriptions/:id')).toMatchObject({ schedule_change_at: 'now' });
    await fake.idle();
    allOk(fake.deliveries.slice(-2));
    expect(fake.deliveries.at(-2)!.event.event).toBe('subscription.updated');
    expect((await row(sub.id)).planId).toBe(ids.business);
    const [prorated] = (await history(owner)).body.invoices;
    expect(prorated!.lines[0]!.description).toBe(`Test Business ${suffix} plan (monthly)`);
    expect(prorated!.amount).toBeGreaterThan(0);
    expect(prorated!.amount).toBeLessThanOrEqual(4999 - 1999);
    // A prorated charge pays the same period: no renewal mail.
    expect(await mailsTo(owner.user.email)).toBe(mailsBefore);
    const same = await server.post(
      '/api/payment/subscription/upgrade',
      { subscription_id: sub.id, plan_id: ids.business },
      as(owner),
    );
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ detail: PAYMENT_TEXTS.samePlan });
  });

  it('refuses a second subscription while one renews', async () => {
    const reply = await create(owner, { plan_id: ids.pro, billing_cycle: 'yearly' });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ detail: PAYMENT_TEXTS.alreadySubscribed });
  });

  it('an add-on: its own Razorpay subscription in a quantity, paid, invoiced and cancelled', async () => {
    const reply = await server.post<AddonCheckoutResponse>(
      '/api/payment/add-addon',
      { addon_id: ids.addon, quantity: 3 },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const link = reply.body.subscription_addon;
    expect(link).toMatchObject({ addon_id: ids.addon, quantity: 3, status: 'created' });
    const rzId = reply.body.checkout.subscription_id;
    expect(fake.subscriptions.get(rzId)).toMatchObject({ quantity: 3 });
    expect(reply.body.checkout.description).toBe(`Test Messages ${suffix} × 3`);
    await fake.pay(rzId);
    allOk(fake.deliveries.slice(-3));
    const [stored] = await server.database.db
      .select()
      .from(subscriptionAddons)
      .where(eq(subscriptionAddons.id, link.id));
    expect(stored).toMatchObject({ status: 'active', subscriptionId: sub.id });
    const [invoice] = (await history(owner)).body.invoices;
    expect(invoice).toMatchObject({
      amount: 3000,
      lines: [{ description: `Test Messages ${suffix} add-on`, quantity: 3, amount: 3000 - invoice!.tax }],
    });
    const cancelled = await server.post<SubscriptionAddon>(
      `/api/payment/cancel-addon-subscription/${link.id}`,
      {},
      as(owner),
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: link.id,
      status: 'active',
      auto_renew: false,
      is_active: true,
    });
    expect(
      (await server.post(`/api/payment/cancel-addon-subscription/${link.id}`, {}, as(other))).status,
    ).toBe(404);
  });

  it('cancel at the end of the period keeps the plan until the cancelled webhook', async () => {
    const reply = await server.post<Subscription>(
      `/api/payment/cancel-subscription/${sub.id}`,
      {},
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      status: 'active',
      auto_renew: false,
      is_active: true,
      plan_id: ids.business,
    });
    expect(fake.lastBody.get('POST /v1/subscriptions/:id/cancel')).toEqual({ cancel_at_cycle_end: 1 });
    const endDate = (await row(sub.id)).endDate!;
    expect(reply.body.end_date).toBe(endDate.toISOString());
    // The period ends: Razorpay cancels instead of renewing.
    const [event] = await fake.charge(razorpayId);
    expect(event!.event).toBe('subscription.cancelled');
    const stored = await row(sub.id);
    expect(stored).toMatchObject({ status: 'cancelled', autoRenew: false });
    const again = await server.post(`/api/payment/cancel-subscription/${sub.id}`, {}, as(owner));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: PAYMENT_TEXTS.alreadyCancelled });
  });

  it('cancel now ends the subscription at once, from the answer', async () => {
    const [pending] = await server.database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.tenantId, other.user.tenant_id), eq(subscriptions.status, 'created')));
    const reply = await server.post<Subscription>(
      `/api/payment/cancel-subscription/${pending!.id}`,
      { at_period_end: false },
      as(other),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'cancelled', auto_renew: false, is_active: false });
    await fake.idle();
    allOk(fake.deliveries.slice(-1));
  });

  it("cancel now answers cancelled when Razorpay's webhook lands before its answer", async () => {
    const made = await create(other, { plan_id: ids.pro, billing_cycle: 'monthly' });
    fake.webhooksBeforeAnswer = true;
    try {
      const reply = await server.post<Subscription>(
        `/api/payment/cancel-subscription/${made.body.subscription.id}`,
        { at_period_end: false },
        as(other),
      );
      allOk(fake.deliveries.slice(-1));
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ status: 'cancelled', auto_renew: false, is_active: false });
    } finally {
      fake.webhooksBeforeAnswer = false;
    }
  });

  it('applies events by their time: an older one arriving late changes nothing', async () => {
    const reply = await create(other, { plan_id: ids.pro, billing_cycle: 'monthly' });
    const id = reply.body.subscription.id;
    const rz = reply.body.checkout.subscription_id;
    const [authenticated, activated, charged] = (await fake.pay(rz, { deliver: false })) as FakeEvent[];
    // Same second, reverse order: the life order still ends on active.
    allOk(await fake.deliverReversed(authenticated!, activated!));
    expect((await row(id)).status).toBe('active');
    const [pending] = await fake.failRenewal(rz, { deliver: false }).then((events) => events.slice(1));
    allOk(await fake.deliverReversed(charged!, pending!));
    // The older charge is still invoiced, but the status stays pending.
    expect((await row(id)).status).toBe('pending');
    expect((await history(other)).body.invoices.some((i) => i.status === 'paid')).toBe(true);
    const [completed] = await fake.complete(rz, { deliver: false });
    const [renewed] = await fake.charge(rz, { deliver: false });
    // A completed subscription is never revived, whatever arrives after.
    allOk(await fake.deliver(completed!, activated!, renewed!));
    expect(await row(id)).toMatchObject({ status: 'completed', autoRenew: false });
  });

  it('an event about a subscription Parley does not know is acknowledged', async () => {
    const body = JSON.stringify({
      entity: 'event',
      event: 'subscription.activated',
      created_at: fake.now,
      payload: { subscription: { entity: { id: 'sub_unknown', status: 'active' } } },
    });
    const reply = await fake.sendRaw(body, {
      'X-Razorpay-Signature': fake.sign(body),
      'X-Razorpay-Event-Id': 'evt_unknown',
    });
    expect(reply.status).toBe(200);
  });

  it("another workspace's ids answer 404", async () => {
    expect((await history(other, owner.user.tenant_id)).status).toBe(404);
    expect((await server.post(`/api/payment/cancel-subscription/${sub.id}`, {}, as(other))).status).toBe(404);
    const upgrade = await server.post(
      '/api/payment/subscription/upgrade',
      { subscription_id: sub.id, plan_id: ids.pro },
      as(other),
    );
    expect(upgrade.status).toBe(404);
    expect((await server.post('/api/payment/cancel-subscription/99999999', {}, as(other))).status).toBe(404);
  });

  it('a teammate without the Upgrade or Subscriptions permission is refused (403)', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const calls = [
      server.post(
        '/api/payment/create-subscription',
        { plan_id: ids.pro, billing_cycle: 'monthly' },
        as(member),
      ),
      server.post('/api/payment/add-addon', { addon_id: ids.addon, quantity: 1 }, as(member)),
      server.post(
        '/api/payment/subscription/upgrade',
        { subscription_id: sub.id, plan_id: ids.pro },
        as(member),
      ),
      server.post(`/api/payment/cancel-subscription/${sub.id}`, {}, as(member)),
      server.post('/api/payment/cancel-addon-subscription/1', {}, as(member)),
      server.get(`/api/payment/invoice-history/${owner.user.tenant_id}`, as(member)),
      server.get('/api/payment/invoices/1/pdf', as(member)),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    const reader = await createRole(server, owner, { Subscriptions: { read: true } });
    const viewer = await addTeammate(server, owner, reader, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await history(viewer, owner.user.tenant_id)).status).toBe(200);
    expect((await server.post(`/api/payment/cancel-subscription/${sub.id}`, {}, as(viewer))).status).toBe(
      403,
    );
  });

  it('a server without Razorpay keys says payments are not configured', () => {
    const config = loadConfig({ APP_SECRET: 'x'.repeat(40), RAZORPAY_KEY_ID: 'rzp_test' });
    expect(() => razorpayKeys(config)).toThrow(PAYMENT_TEXTS.notConfigured);
  });
});

async function mailsTo(to: string): Promise<number> {
  const rows = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  return rows.length;
}

async function pdfText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
}
