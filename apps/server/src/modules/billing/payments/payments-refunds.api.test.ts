import { randomBytes } from 'node:crypto';
import type { AuthResponse, CheckoutResponse, Invoice, InvoiceHistory } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signupOwner } from '../../../test/factories.js';
import {
  type FakeEvent,
  type RazorpayFake,
  razorpayEnv,
  startRazorpayFake,
} from '../../../test/fakes/razorpay.js';
import { type Account, refreshCookie, startTestServer, type TestServer } from '../../../test/server.js';
import { commissions } from '../../affiliates/affiliates.schema.js';
import { plans } from '../billing.schema.js';

/**
 * Refunds as a paying customer meets them: in part or in whole, shown on the invoice and its PDF,
 * and the same outcome whatever order Razorpay's webhooks arrive in (a refund can come before the
 * charge it refunds when the charge's delivery failed and was retried later).
 */
let server: TestServer;
let fake: RazorpayFake;
let planId = 0;
let partner: Account;
const suffix = randomBytes(3).toString('hex');
const as = (account: Account) => ({ token: account.access_token });
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0';
/** 118.00 INR, 18 % GST included: the partner's 20 % of 100.00 net is 20.00. */
const PRICE = 11_800;
const COMMISSION = 2000;

beforeAll(async () => {
  fake = await startRazorpayFake();
  server = await startTestServer({
    env: {
      PLAN_LIMITS: 'on',
      ...razorpayEnv(fake),
      AFFILIATE_COMMISSION_PERCENT: '20',
      AFFILIATE_COMMISSION_MONTHS: '12',
    },
  });
  fake.webhookUrl = `${server.url}/api/payment/razorpay/webhook`;
  const [plan] = await server.database.db
    .insert(plans)
    .values({
      name: `Refundable ${suffix}`,
      currency: 'INR',
      priceMonthly: PRICE,
      priceYearly: PRICE * 10,
      maxChatbots: 3,
      maxTeamMembers: 3,
      messagesCreditsPerMonth: 100,
      trainedCharactersPerChatbot: 1_000_000,
      chatHistoryRetention: 0,
    })
    .returning();
  planId = plan!.id;
  partner = await signupOwner(server);
  expect((await server.post('/api/affiliation/partners/become', {}, as(partner))).status).toBe(200);
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: partner.user.email,
    password: partner.password,
  });
  partner = { ...partner, ...login.body };
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const allOk = (deliveries: { status: number; body: string }[]) =>
  expect(deliveries.map((d) => `${d.status} ${d.body}`)).toEqual(deliveries.map(() => '200 {"ok":true}'));
/** Events the fake sent by itself, each answered 200. */
async function sent(events: Promise<FakeEvent[]>): Promise<void> {
  const count = (await events).length;
  allOk(fake.deliveries.slice(-count));
}
const history = async (account: Account) =>
  (await server.get<InvoiceHistory>(`/api/payment/invoice-history/${account.user.tenant_id}`, as(account)))
    .body.invoices;
const invoiceOf = async (account: Account, paymentId: string) => {
  const found = (await history(account)).filter((i) => i.number !== paymentId);
  // The renewal is the newest invoice.
  return found[0]!;
};
/** What the partner keeps of one payment's commission: its lines not reversed, added up. */
const commissionKept = async (paymentId: string) => {
  const rows = await server.database.db
    .select({ status: commissions.status, amount: commissions.amount })
    .from(commissions)
    .where(eq(commissions.paymentId, paymentId));
  expect(rows.length, 'the charge earned a commission').toBeGreaterThan(0);
  return rows.filter((r) => r.status !== 'reversed').reduce((sum, r) => sum + r.amount, 0);
};

/** A workspace referred by the partner's link, paying monthly; its renewal built but not yet sent. */
async function referredRenewal() {
  const code = `refund-${randomBytes(4).toString('hex')}`;
  expect((await server.post('/api/affiliation/partners/links', { code }, as(partner))).status).toBe(201);
  const visit = await fetch(`${server.url}/r/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': `${BROWSER} ${code}` },
  });
  const cookie = visit.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_ref='))
    ?.split(';')[0];
  expect(cookie).toBeDefined();
  const signup = await server.post<AuthResponse>(
    '/api/auth/signup',
    {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: `${code}@example.com`,
      password: PASSWORD,
      company_name: `Refund Co ${code}`,
    },
    { cookie: cookie! },
  );
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  const account = {
    ...signup.body,
    cookie: refreshCookie(signup.headers)!,
    password: PASSWORD,
  } as Account;
  const made = await server.post<CheckoutResponse>(
    '/api/payment/create-subscription',
    { plan_id: planId, billing_cycle: 'monthly' },
    as(account),
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const razorpayId = made.body.checkout.subscription_id;
  await sent(fake.pay(razorpayId));
  const [charged] = await fake.charge(razorpayId, { deliver: false });
  const paymentId = fake.invoices.at(-1)!.payment_id;
  return { account, charged: charged!, paymentId };
}

/** What the customer and the partner end up with for the renewal: the same whatever the order. */
async function outcome(account: Account, paymentId: string) {
  const invoice = await invoiceOf(account, paymentId);
  return {
    status: invoice.status,
    amount: invoice.amount,
    amount_refunded: invoice.amount_refunded,
    kept: await commissionKept(paymentId),
  };
}

describe('a refund that arrives before the charge it refunds', () => {
  it('a whole refund: the late charge is invoiced as refunded and earns the partner nothing', async () => {
    const inOrder = await referredRenewal();
    allOk(await fake.deliver(inOrder.charged));
    await sent(fake.refund(inOrder.paymentId));
    const expected = await outcome(inOrder.account, inOrder.paymentId);
    expect(expected).toEqual({ status: 'refunded', amount: PRICE, amount_refunded: PRICE, kept: 0 });

    const late = await referredRenewal();
    // The charge's first delivery fails (Razorpay answers our tax look-up with a 500), so Razorpay
    // retries it later; meanwhile the merchant refunds it and the refund's webhooks arrive.
    fake.failNext(1);
    const [failed] = await fake.deliver(late.charged);
    expect(failed!.status).toBeGreaterThanOrEqual(500);
    await sent(fake.refund(late.paymentId));
    expect((await history(late.account)).map((i) => i.status)).toEqual(['paid']);
    allOk(await fake.resend(late.charged));
    expect(await outcome(late.account, late.paymentId)).toEqual(expected);
    // Redeliveries of either change nothing.
    allOk(await fake.resend(late.charged));
    expect(await outcome(late.account, late.paymentId)).toEqual(expected);
  });

  it('a partial refund: the late charge shows what was given back and the partner keeps the rest', async () => {
    const quarter = PRICE / 4;
    const inOrder = await referredRenewal();
    allOk(await fake.deliver(inOrder.charged));
    await sent(fake.refund(inOrder.paymentId, { amount: quarter }));
    const expected = await outcome(inOrder.account, inOrder.paymentId);
    expect(expected).toEqual({
      status: 'partially_refunded',
      amount: PRICE,
      amount_refunded: quarter,
      kept: COMMISSION - COMMISSION / 4,
    });

    const late = await referredRenewal();
    const refund = await fake.refund(late.paymentId, { amount: quarter, deliver: false });
    // Both of Razorpay's events for the one refund, before the charge, one of them twice.
    allOk(await fake.deliver(...refund, refund[0]!));
    allOk(await fake.deliver(late.charged));
    expect(await outcome(late.account, late.paymentId)).toEqual(expected);
  });

  it('two partial refunds, the second first and both before the charge: the total is what counts', async () => {
    const { account, charged, paymentId } = await referredRenewal();
    const first = await fake.refund(paymentId, { amount: 1000, deliver: false });
    const second = await fake.refund(paymentId, { amount: 2000, deliver: false });
    allOk(await fake.deliver(...second));
    allOk(await fake.deliver(...first));
    allOk(await fake.deliver(charged));
    expect(await outcome(account, paymentId)).toEqual({
      status: 'partially_refunded',
      amount: PRICE,
      amount_refunded: 3000,
      kept: COMMISSION - Math.ceil((COMMISSION * 3000) / PRICE),
    });
  });

  it('a charge and its refund handled at the same moment: the refund is never lost', async () => {
    // A race: each round may or may not interleave, so a few of them (on PostgreSQL; PGlite serialises).
    for (let round = 0; round < 6; round++) {
      const { account, charged, paymentId } = await referredRenewal();
      const refund = await fake.refund(paymentId, { deliver: false });
      allOk((await Promise.all([fake.deliver(charged), fake.deliver(refund[0]!)])).flat());
      expect(await outcome(account, paymentId)).toMatchObject({ status: 'refunded', kept: 0 });
    }
  });
});

describe('partial refunds on the invoice', () => {
  it('reads partially refunded with the amount given back, then refunded, and the PDF says so', async () => {
    const account = await signupOwner(server);
    const made = await server.post<CheckoutResponse>(
      '/api/payment/create-subscription',
      { plan_id: planId, billing_cycle: 'monthly' },
      as(account),
    );
    await sent(fake.pay(made.body.checkout.subscription_id));
    const paymentId = fake.invoices.at(-1)!.payment_id;
    await sent(fake.refund(paymentId, { amount: 3000 }));
    const [part] = await history(account);
    expect(part).toMatchObject({
      status: 'partially_refunded',
      amount: PRICE,
      amount_refunded: 3000,
      pdf_url: `/api/payment/invoices/${part!.id}/pdf`,
    });
    const partPdf = await pdfOf(account, part!);
    expect(partPdf).toContain('Total paid');
    expect(partPdf).toContain('INR 118.00');
    expect(partPdf).toContain('Partly refunded');
    expect(partPdf).toContain('-INR 30.00');
    expect(partPdf).toContain('Net paid');
    expect(partPdf).toContain('INR 88.00');

    await sent(fake.refund(paymentId));
    const [whole] = await history(account);
    expect(whole).toMatchObject({ id: part!.id, status: 'refunded', amount_refunded: PRICE });
    // The invoice stays the customer's record: its number and PDF do not go away with the money.
    expect(whole!.number).toBe(part!.number);
    const wholePdf = await pdfOf(account, whole!);
    expect(wholePdf).toContain('Refunded');
    expect(wholePdf).toContain('-INR 118.00');
    expect(wholePdf).toContain('INR 0.00');
  });
});

async function pdfOf(account: Account, invoice: Invoice): Promise<string> {
  const response = await fetch(`${server.url}${invoice.pdf_url}`, {
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(response.status).toBe(200);
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({
    data: new Uint8Array(await response.arrayBuffer()),
    useSystemFonts: false,
  }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
}
