import { randomBytes } from 'node:crypto';
import {
  type AdminPartnerPage,
  AFFILIATE_TEXTS,
  type AuthResponse,
  type BecomePartnerResponse,
  type CheckoutResponse,
  type CommissionPage,
  type InvoiceHistory,
  type LinkResponse,
  type PartnerCheck,
  type PartnerProfile,
  type PartnerProfileResponse,
  type PayoutResponse,
  type ReferralAnalytics,
  type ReferralLinkPage,
  type ReferralPage,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { users } from '../../core/db/schema.js';
import { PASSWORD, signupOwner } from '../../test/factories.js';
import { type RazorpayFake, startRazorpayFake } from '../../test/fakes/razorpay.js';
import { type Account, refreshCookie, startTestServer, type TestServer } from '../../test/server.js';
import { plans } from '../billing/billing.schema.js';
import { commissions, partnerPayouts, partners, referralClicks } from './affiliates.schema.js';
import { reverseCommission } from './commissions.service.js';

const DAY = 86_400_000;
/** 03:00 UTC today, so an hour later is still the same day. */
const T0 = Math.floor(Date.now() / DAY) * DAY + 3 * 60 * 60 * 1000;
let clockAt = T0;
const clock: Clock = { now: () => new Date(clockAt) };

let server: TestServer;
let fake: RazorpayFake;
let partner: Account;
let rival: Account;
let admin: Account;
let bystander: Account;
let planId = 0;
const suffix = randomBytes(3).toString('hex');
const as = (account: Account) => ({ token: account.access_token });
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

beforeAll(async () => {
  fake = await startRazorpayFake();
  server = await startTestServer({
    clock,
    env: {
      RAZORPAY_KEY_ID: fake.keyId,
      RAZORPAY_KEY_SECRET: fake.keySecret,
      RAZORPAY_WEBHOOK_SECRET: fake.webhookSecret,
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_CHECKOUT_URL: `${fake.url}/checkout/{subscription_id}`,
      AFFILIATE_COOKIE_DAYS: '30',
      AFFILIATE_COMMISSION_PERCENT: '20',
      AFFILIATE_COMMISSION_MONTHS: '2',
      AFFILIATE_REFUND_WINDOW_DAYS: '30',
      // The sweep runs when the test ticks it, at the test's time.
      SCHEDULER_TICK_MS: '3600000',
    },
  });
  fake.webhookUrl = `${server.url}/api/payment/razorpay/webhook`;
  // 118.00 INR with 18% GST included: 100.00 net of tax, so 20% is 20.00.
  const [plan] = await server.database.db
    .insert(plans)
    .values({
      name: `Partner Pro ${suffix}`,
      currency: 'INR',
      priceMonthly: 11_800,
      priceYearly: 118_000,
      maxChatbots: 5,
      maxTeamMembers: 5,
      messagesCreditsPerMonth: 5000,
      trainedCharactersPerChatbot: 1_000_000,
      chatHistoryRetention: 0,
    })
    .returning();
  planId = plan!.id;
  partner = await signupOwner(server);
  rival = await signupOwner(server);
  bystander = await signupOwner(server);
  admin = await promoteToAdmin(await signupOwner(server));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function promoteToAdmin(account: Account): Promise<Account> {
  await server.database.db.update(users).set({ userType: 'admin' }).where(eq(users.id, account.user.id));
  return signIn(account);
}

async function signIn(account: Account): Promise<Account> {
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: account.user.email,
    password: account.password,
  });
  expect(login.status).toBe(200);
  return { ...account, ...login.body };
}

/** A visit to /r/{code}: where it goes and the attribution cookie it sets. */
async function visit(code: string, agent = BROWSER) {
  const response = await fetch(`${server.url}/r/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': agent },
  });
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_ref='))
    ?.split(';')[0];
  return { status: response.status, location: response.headers.get('location'), cookie };
}

/** A visitor signs up a new workspace, carrying whatever cookie the link gave them. */
async function signupWith(
  cookie: string | undefined,
  company = `Referred Co ${randomBytes(3).toString('hex')}`,
) {
  const id = randomBytes(4).toString('hex');
  const reply = await server.post<AuthResponse>(
    '/api/auth/signup',
    {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: `referred-${id}@example.com`,
      password: PASSWORD,
      company_name: company,
    },
    cookie ? { cookie } : {},
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { ...reply.body, cookie: refreshCookie(reply.headers)!, password: PASSWORD } as Account;
}

const me = (account: Account) => server.get<PartnerProfile>('/api/affiliation/partners/me', as(account));
const linksOf = (account: Account, query = '') =>
  server.get<ReferralLinkPage>(`/api/affiliation/partners/links${query}`, as(account));
const commissionsOf = (account: Account) =>
  server.get<CommissionPage>('/api/affiliation/partners/commissions', as(account));
const createLink = (account: Account, body: unknown) =>
  server.post<LinkResponse>('/api/affiliation/partners/links', body, as(account));

describe('becoming a partner', () => {
  it('publishes the programme’s terms to anyone', async () => {
    const terms = await server.get('/api/affiliation/partners/terms');
    expect(terms.status).toBe(200);
    expect(terms.body).toEqual({
      commission_percent: 20,
      commission_months: 2,
      cookie_days: 30,
      refund_window_days: 30,
    });
  });

  it('tells a user they are not a partner yet, and never about someone else', async () => {
    const check = await server.get<PartnerCheck>(
      `/api/affiliation/partners/check?user_id=${partner.user.id}`,
      as(partner),
    );
    expect(check.body).toEqual({ user_id: partner.user.id, is_partner: false });
    const other = await server.get(`/api/affiliation/partners/check?user_id=${rival.user.id}`, as(partner));
    expect(other.status).toBe(404);
    expect((await server.get('/api/affiliation/partners/check')).status).toBe(401);
  });

  it('keeps the partner area from users who are not partners (403)', async () => {
    expect((await me(partner)).status).toBe(403);
    expect((await createLink(partner, {})).status).toBe(403);
  });

  it('makes a workspace member a partner as well: they keep their workspace and gain the partner area', async () => {
    const reply = await server.post<BecomePartnerResponse>(
      '/api/affiliation/partners/become',
      {},
      as(partner),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Successfully converted to partner account');
    expect(reply.body.partner).toMatchObject({ display_name: 'Ada Lovelace', link_count: 0, clicks: 0 });
    const again = await server.post<BecomePartnerResponse>(
      '/api/affiliation/partners/become',
      {},
      as(partner),
    );
    expect(again.body.partner.id).toBe(reply.body.partner.id);
    partner = await signIn(partner);
    // Issue 31: the workspace stays; the account is a user who is also a partner.
    expect(partner.user.user_type).toBe('user');
    expect(partner.user.is_partner).toBe(true);
    expect(partner.user.roles.map((r) => r.name)).toEqual(['Owner']);
    const roles = await server.get(`/api/role/roles/${partner.user.tenant_id}`, as(partner));
    expect(roles.status).toBe(200);
    expect((await server.get('/api/affiliation/partners/me', as(partner))).status).toBe(200);
    const check = await server.get<PartnerCheck>('/api/affiliation/partners/check', as(partner));
    expect(check.body.is_partner).toBe(true);
    await server.post('/api/affiliation/partners/become', {}, as(rival));
    rival = await signIn(rival);
  });

  it('refuses a platform admin', async () => {
    const reply = await server.post('/api/affiliation/partners/become', {}, as(admin));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ detail: AFFILIATE_TEXTS.adminCannotBecome });
  });

  it('updates the profile and keeps payout details encrypted, never sent back', async () => {
    const details = 'HDFC0001234 account 9876543210';
    const reply = await server.put<PartnerProfileResponse>(
      '/api/affiliation/partners/me',
      { display_name: 'Ada Referrals', payout_details: details },
      as(partner),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe(AFFILIATE_TEXTS.profileUpdated);
    expect(reply.body.partner).toMatchObject({
      display_name: 'Ada Referrals',
      payout_details_set: true,
      payout_details_hint: '…3210',
    });
    expect(JSON.stringify(reply.body)).not.toContain('9876543210');
    const [row] = await server.database.db
      .select()
      .from(partners)
      .where(eq(partners.userId, partner.user.id));
    expect(row!.payoutDetailsSealed).toMatch(/^v1:/);
    expect(row!.payoutDetailsSealed).not.toContain('9876543210');
    const bad = await server.put('/api/affiliation/partners/me', { display_name: '' }, as(partner));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'Display name is required' });
    expect((await me(partner)).body.display_name).toBe('Ada Referrals');
  });
});

describe('referral links', () => {
  let linkId = 0;

  it('creates links with a chosen or generated code, refusing a taken code and foreign destinations', async () => {
    const made = await createLink(partner, { code: `ada-${suffix}`, campaign: 'Newsletter' });
    expect(made.status).toBe(201);
    expect(made.body.message).toBe(AFFILIATE_TEXTS.linkCreated);
    expect(made.body.link).toMatchObject({
      code: `ada-${suffix}`,
      destination: '/register',
      campaign: 'Newsletter',
      url: `http://parley.test/r/ada-${suffix}`,
      clicks: 0,
      conversions: 0,
    });
    linkId = made.body.link.id;
    const generated = await createLink(partner, { destination: '/partner' });
    expect(generated.body.link.code).toMatch(/^[0-9a-f]{10}$/);
    const taken = await createLink(rival, { code: `ada-${suffix}` });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: AFFILIATE_TEXTS.codeTaken });
    for (const destination of ['https://evil.example/x', '//evil.example', '/api/auth/login', 'register']) {
      const bad = await createLink(partner, { destination });
      expect(bad.status, destination).toBe(400);
      expect(bad.body).toEqual({ detail: AFFILIATE_TEXTS.badDestination });
    }
    expect((await linksOf(partner)).body.total).toBe(2);
  });

  it('lists links a page at a time (page 1, size 10 by default)', async () => {
    const all = await linksOf(partner);
    expect(all.body).toMatchObject({ page: 1, size: 10, total: 2 });
    const second = await linksOf(partner, '?page=2&size=1');
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0]!.id).toBe(linkId);
    expect((await linksOf(partner, '?size=0')).status).toBe(400);
    expect((await linksOf(partner, '?page=abc')).status).toBe(400);
  });

  it('answers 400 with a detail to malformed link and partner ids, changing nothing', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '%20', '99999999999']) {
      const put = await server.put(`/api/affiliation/partners/links/${bad}`, { campaign: 'x' }, as(partner));
      expect(put.status, bad).toBe(400);
      expect(put.body).toEqual({ detail: expect.stringMatching(/\S/) });
      expect((await server.delete(`/api/affiliation/partners/links/${bad}`, as(partner))).status).toBe(400);
      const payout = await server.post(
        `/api/admin/affiliation/partners/${bad}/payouts`,
        { currency: 'INR', amount: 2000 },
        as(admin),
      );
      expect(payout.status).toBe(400);
    }
    expect((await linksOf(partner)).body.items.every((l) => l.campaign !== 'x')).toBe(true);
  });

  it('updates and deletes a link; another partner’s link answers 404 and stays', async () => {
    const updated = await server.put<LinkResponse>(
      `/api/affiliation/partners/links/${linkId}`,
      { campaign: 'Spring' },
      as(partner),
    );
    expect(updated.body).toMatchObject({
      message: AFFILIATE_TEXTS.linkUpdated,
      link: { campaign: 'Spring' },
    });
    const foreign = await server.put(
      `/api/affiliation/partners/links/${linkId}`,
      { campaign: 'Mine now' },
      as(rival),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: AFFILIATE_TEXTS.linkNotFound });
    expect((await server.delete(`/api/affiliation/partners/links/${linkId}`, as(rival))).status).toBe(404);
    expect((await linksOf(rival)).body.items).toEqual([]);
    expect((await linksOf(partner)).body.items.find((l) => l.id === linkId)!.campaign).toBe('Spring');
    const spare = await createLink(partner, { campaign: 'Spare' });
    const deleted = await server.delete(`/api/affiliation/partners/links/${spare.body.link.id}`, as(partner));
    expect(deleted.body).toEqual({ message: AFFILIATE_TEXTS.linkDeleted });
    expect(
      (await server.delete(`/api/affiliation/partners/links/${spare.body.link.id}`, as(partner))).status,
    ).toBe(404);
  });
});

describe('clicks and attribution', () => {
  const code = `ada-${suffix}`;
  let referred: Account;

  it('counts one click per visitor a day, none from bots, and redirects to the destination', async () => {
    const first = await visit(code);
    expect(first.status).toBe(302);
    expect(first.location).toBe('/register');
    expect(first.cookie).toMatch(/^parley_ref=/);
    await visit(code);
    await visit(code.toUpperCase());
    const bot = await visit(code, GOOGLEBOT);
    expect(bot.location).toBe('/register');
    expect(bot.cookie).toBeUndefined();
    await visit(code, `${BROWSER} Edg/131.0`);
    let link = (await linksOf(partner)).body.items.find((l) => l.code === code)!;
    expect(link.clicks).toBe(2);
    clockAt = T0 + DAY;
    await visit(code);
    link = (await linksOf(partner)).body.items.find((l) => l.code === code)!;
    expect(link.clicks).toBe(3);
    expect(
      await server.database.db.select().from(referralClicks).where(eq(referralClicks.linkId, link.id)),
    ).toSatisfy((rows: { visitorHash: string }[]) => rows.every((r) => /^[0-9a-f]{64}$/.test(r.visitorHash)));
    for (const odd of ['no-such-code', '%00', 'a%2Fb', 'x'.repeat(80)]) {
      const unknown = await visit(odd);
      expect(unknown, odd).toMatchObject({ status: 302, location: '/', cookie: undefined });
    }
  });

  it('makes a signup within the window a referral shown only by an anonymised name', async () => {
    const { cookie } = await visit(code);
    clockAt += 60 * 60 * 1000;
    referred = await signupWith(cookie, 'Secret Company Ltd');
    const list = await server.get<ReferralPage>('/api/affiliation/partners/referrals', as(partner));
    expect(list.body).toMatchObject({ total: 1, page: 1, size: 10 });
    expect(list.body.items[0]).toMatchObject({ link_code: code, campaign: 'Spring' });
    expect(list.body.items[0]!.workspace).toMatch(/^Workspace [0-9a-f]{4}$/);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain('Secret Company');
    expect(text).not.toContain(referred.user.email);
    expect(text).not.toContain(`"${referred.user.tenant_id}"`);
    const profile = (await me(partner)).body;
    expect(profile).toMatchObject({ clicks: 3, conversions: 1, conversion_rate: 33.3, link_count: 2 });
    // The rival partner sees none of it.
    expect(
      (await server.get<ReferralPage>('/api/affiliation/partners/referrals', as(rival))).body.total,
    ).toBe(0);
  });

  it('ignores a signup after the window, a forged cookie and a signup without one', async () => {
    const { cookie } = await visit(code, `${BROWSER} late`);
    clockAt += 31 * DAY;
    await signupWith(cookie);
    clockAt -= 31 * DAY;
    await signupWith('parley_ref=eyJsIjoxLCJ0IjoxfQ.forged');
    await signupWith(undefined);
    expect(
      (await server.get<ReferralPage>('/api/affiliation/partners/referrals', as(partner))).body.total,
    ).toBe(1);
  });

  it('charts clicks and conversions per day', async () => {
    const reply = await server.get<ReferralAnalytics>(
      '/api/affiliation/partners/analytics?days=7',
      as(partner),
    );
    expect(reply.body.days).toHaveLength(7);
    const today = reply.body.days.at(-1)!;
    const yesterday = reply.body.days.at(-2)!;
    expect(yesterday).toMatchObject({ clicks: 2, conversions: 0 });
    expect(today).toMatchObject({ clicks: 2, conversions: 1 });
    expect((await server.get('/api/affiliation/partners/analytics?days=9999', as(partner))).status).toBe(400);
  });

  describe('commissions from Razorpay payments', () => {
    let firstPayment = '';
    let secondPayment = '';
    let rzId = '';

    it('earns a pending commission on the net of tax, once however often the webhook comes', async () => {
      const checkout = await server.post<CheckoutResponse>(
        '/api/payment/create-subscription',
        { plan_id: planId, billing_cycle: 'monthly' },
        as(referred),
      );
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
      rzId = checkout.body.checkout.subscription_id;
      const events = await fake.pay(rzId);
      await fake.resend(...events);
      const page = (await commissionsOf(partner)).body;
      expect(page.total).toBe(1);
      expect(page.items[0]).toMatchObject({
        amount: 10_000,
        commission_amount: 2000,
        currency: 'INR',
        payout_status: 'pending',
        paid_at: null,
      });
      expect(page.items[0]!.workspace).toMatch(/^Workspace [0-9a-f]{4}$/);
      firstPayment = fake.invoices.at(-1)!.payment_id;
      const profile = (await me(partner)).body;
      expect(profile.pending_commissions).toEqual([{ currency: 'INR', amount: 2000 }]);
      expect(profile.pending_count).toBe(1);
      expect(profile.total_earned).toEqual([]);
      expect((await commissionsOf(rival)).body.total).toBe(0);
    });

    it('earns on renewals for the configured months only', async () => {
      await fake.charge(rzId);
      secondPayment = fake.invoices.at(-1)!.payment_id;
      expect((await commissionsOf(partner)).body.total).toBe(2);
      // Three months after the signup: past AFFILIATE_COMMISSION_MONTHS (2).
      fake.now = Math.floor((T0 + 95 * DAY) / 1000);
      await fake.charge(rzId);
      expect((await commissionsOf(partner)).body.total).toBe(2);
      // A workspace nobody referred earns nobody anything.
      const plain = await server.post<CheckoutResponse>(
        '/api/payment/create-subscription',
        { plan_id: planId, billing_cycle: 'monthly' },
        as(bystander),
      );
      await fake.pay(plain.body.checkout.subscription_id);
      expect(await server.database.db.select().from(commissions)).toHaveLength(2);
    });

    it('reverses a pending commission when its payment is refunded', async () => {
      const events = await fake.refund(secondPayment);
      await fake.resend(...events);
      const statuses = (await commissionsOf(partner)).body.items.map((c) => c.payout_status);
      // Newest first: the refunded renewal.
      expect(statuses).toEqual(['reversed', 'pending']);
      const invoices = await server.get<InvoiceHistory>(
        `/api/payment/invoice-history/${referred.user.tenant_id}`,
        as(referred),
      );
      expect(JSON.stringify(invoices.body)).toContain('refunded');
      expect((await me(partner)).body.pending_commissions).toEqual([{ currency: 'INR', amount: 2000 }]);
    });

    it('approves a commission once the refund window has passed', async () => {
      await server.parley.scheduler.tick();
      expect((await commissionsOf(partner)).body.items.map((c) => c.payout_status).sort()).toEqual([
        'pending',
        'reversed',
      ]);
      clockAt = T0 + 32 * DAY;
      await server.parley.scheduler.tick();
      const statuses = (await commissionsOf(partner)).body.items.map((c) => c.payout_status).sort();
      expect(statuses).toEqual(['approved', 'reversed']);
      expect((await me(partner)).body).toMatchObject({
        total_earned: [{ currency: 'INR', amount: 2000 }],
        pending_commissions: [],
        pending_count: 0,
      });
    });

    it('lets a platform admin see balances, export them and mark a payout paid', async () => {
      const list = await server.get<AdminPartnerPage>('/api/admin/affiliation/partners', as(admin));
      expect(list.status).toBe(200);
      const row = list.body.items.find((p) => p.user_id === partner.user.id)!;
      expect(row).toMatchObject({
        display_name: 'Ada Referrals',
        email: partner.user.email,
        payout_details: 'HDFC0001234 account 9876543210',
        links: 2,
        referrals: 1,
        balances: [{ currency: 'INR', pending: 0, approved: 2000, paid: 0 }],
      });
      const csv = await fetch(`${server.url}/api/admin/affiliation/partners.csv`, {
        headers: { authorization: `Bearer ${admin.access_token}` },
      });
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const text = await csv.text();
      expect(text.split('\n')[0]).toBe(
        'partner_id,display_name,email,links,referrals,currency,pending_minor,approved_minor,paid_minor,payout_details',
      );
      expect(text).toContain(`${row.id},Ada Referrals,${partner.user.email},2,1,INR,0,2000,0,`);

      expect((await server.get('/api/admin/affiliation/partners', as(partner))).status).toBe(403);
      expect((await server.get('/api/admin/affiliation/partners.csv', as(bystander))).status).toBe(403);
      const ghost = await server.post(
        '/api/admin/affiliation/partners/99999999/payouts',
        { currency: 'INR', amount: 2000 },
        as(admin),
      );
      expect(ghost.status).toBe(404);
      const sneaky = await server.post(
        `/api/admin/affiliation/partners/${row.id}/payouts`,
        { currency: 'INR', amount: 2000 },
        as(partner),
      );
      expect(sneaky.status).toBe(403);
      const payout = (body: unknown) =>
        server.post<PayoutResponse>(`/api/admin/affiliation/partners/${row.id}/payouts`, body, as(admin));
      // The admin says what they paid: without it, or when it is no longer the balance, nothing is marked.
      for (const [body, detail] of [
        [{ currency: 'INR' }, 'Amount must be the approved balance in minor units'],
        [{ currency: 'INR', amount: 0 }, 'Amount must be the approved balance in minor units'],
        [{ currency: 'INR', amount: 1999 }, AFFILIATE_TEXTS.payoutChanged],
        [{ currency: 'INR', amount: 4000 }, AFFILIATE_TEXTS.payoutChanged],
      ] as const) {
        const refused = await payout(body);
        expect(refused.status, JSON.stringify(body)).toBe('amount' in body && body.amount > 0 ? 409 : 400);
        expect(refused.body).toEqual({ detail });
      }
      expect((await commissionsOf(partner)).body.items.map((c) => c.payout_status).sort()).toEqual([
        'approved',
        'reversed',
      ]);

      const paid = await payout({ currency: 'INR', amount: 2000 });
      expect(paid.status).toBe(201);
      expect(paid.body).toMatchObject({
        message: AFFILIATE_TEXTS.payoutMarked,
        payout: { partner_id: row.id, amount: 2000, currency: 'INR', commissions: 1 },
      });
      const twice = await payout({ currency: 'INR', amount: 2000 });
      expect(twice.status).toBe(409);
      expect(twice.body).toEqual({ detail: AFFILIATE_TEXTS.nothingToPay });
      const statuses = (await commissionsOf(partner)).body.items.map((c) => c.payout_status).sort();
      expect(statuses).toEqual(['paid', 'reversed']);
      expect((await me(partner)).body.total_earned).toEqual([{ currency: 'INR', amount: 2000 }]);
    });

    it('takes back a paid commission from the next payout when its payment is refunded', async () => {
      await fake.refund(firstPayment);
      const page = (await commissionsOf(partner)).body;
      expect(page.items.map((c) => `${c.payout_status} ${c.commission_amount}`).sort()).toEqual([
        'approved -2000',
        'paid 2000',
        'reversed 2000',
      ]);
      expect((await me(partner)).body.total_earned).toEqual([{ currency: 'INR', amount: 0 }]);
    });

    it('takes back the refunded share of a commission for each partial refund, and the rest for the whole', async () => {
      // A renewal inside the commission months again: the fake's clock and cycle set back to day 40.
      fake.now = Math.floor((T0 + 39 * DAY) / 1000);
      fake.subscriptions.get(rzId)!.current_end = Math.floor((T0 + 40 * DAY) / 1000);
      await fake.charge(rzId);
      const charged = fake.invoices.at(-1)!;
      const pending = async () => (await me(partner)).body;
      expect(await pending()).toMatchObject({
        pending_commissions: [{ currency: 'INR', amount: 2000 }],
        pending_count: 1,
      });
      const quarter = charged.amount / 4;
      const first = await fake.refund(charged.payment_id, { amount: quarter });
      await fake.resend(...first);
      expect(await pending()).toMatchObject({
        pending_commissions: [{ currency: 'INR', amount: 1500 }],
        pending_count: 1,
      });
      const second = await fake.refund(charged.payment_id, { amount: quarter });
      // The first refund's events arriving again after the second change nothing.
      await fake.resend(...first);
      expect((await pending()).pending_commissions).toEqual([{ currency: 'INR', amount: 1000 }]);
      await fake.resend(...second);
      const lines = (await commissionsOf(partner)).body.items
        .filter((c) => c.payout_status === 'pending')
        .map((c) => c.commission_amount);
      expect(lines.sort((a, b) => a - b)).toEqual([-500, -500, 2000]);

      await fake.refund(charged.payment_id); // what is left: the whole payment is back
      expect(await pending()).toMatchObject({ pending_commissions: [], pending_count: 0 });
      const rows = await server.database.db
        .select({ status: commissions.status, amount: commissions.amount })
        .from(commissions)
        .where(eq(commissions.paymentId, charged.payment_id));
      expect(rows.map((r) => `${r.status} ${r.amount}`).sort()).toEqual([
        'reversed -500',
        'reversed -500',
        'reversed 2000',
      ]);
      expect((await me(partner)).body.total_earned).toEqual([{ currency: 'INR', amount: 0 }]);
    });
  });
});

describe('a payout marked while a refund comes in', () => {
  let payee: Account;
  let partnerId = 0;
  let paymentId = '';
  let paid = 0;

  it('gives a partner whose name is a formula a CSV line that a spreadsheet shows as text', async () => {
    payee = await signupOwner(server);
    await server.post('/api/affiliation/partners/become', {}, as(payee));
    payee = await signIn(payee);
    await server.put(
      '/api/affiliation/partners/me',
      { display_name: '=HYPERLINK("https://evil.example","Claim")', payout_details: '@SUM(1+1)' },
      as(payee),
    );
    const code = `payee-${suffix}`;
    expect((await createLink(payee, { code })).status).toBe(201);
    const referred = await signupWith((await visit(code, `${BROWSER} payee`)).cookie);
    const checkout = await server.post<CheckoutResponse>(
      '/api/payment/create-subscription',
      { plan_id: planId, billing_cycle: 'monthly' },
      as(referred),
    );
    await fake.pay(checkout.body.checkout.subscription_id);
    ({ payment_id: paymentId, amount: paid } = fake.invoices.at(-1)!);
    // Past the refund window of that charge: the commission is approved, due to be paid.
    clockAt = fake.now * 1000 + 31 * DAY;
    await server.parley.scheduler.tick();
    const list = await server.get<AdminPartnerPage>('/api/admin/affiliation/partners?size=100', as(admin));
    const row = list.body.items.find((p) => p.user_id === payee.user.id)!;
    expect(row.balances).toEqual([{ currency: 'INR', pending: 0, approved: 2000, paid: 0 }]);
    partnerId = row.id;

    const csv = await fetch(`${server.url}/api/admin/affiliation/partners.csv`, {
      headers: { authorization: `Bearer ${admin.access_token}` },
    });
    const line = (await csv.text()).split('\n').find((l) => l.startsWith(`${partnerId},`))!;
    expect(line).toBe(
      `${partnerId},"'=HYPERLINK(""https://evil.example"",""Claim"")",${payee.user.email},1,1,INR,0,2000,0,'@SUM(1+1)`,
    );
  });

  it('never marks paid a commission that the refund reversed meanwhile', async () => {
    let payout: Promise<{ status: number; body: unknown }> | undefined;
    // The refund's transaction holds the commission while the admin presses Mark paid.
    await server.database.db.transaction(async (tx) => {
      await reverseCommission(tx, { paymentId, refunded: paid, paid, at: new Date(clockAt) });
      payout = server.post(
        `/api/admin/affiliation/partners/${partnerId}/payouts`,
        { currency: 'INR', amount: 2000 },
        as(admin),
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    const reply = await payout!;
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ detail: AFFILIATE_TEXTS.nothingToPay });
    const rows = await server.database.db
      .select({ status: commissions.status, payoutId: commissions.payoutId })
      .from(commissions)
      .where(eq(commissions.paymentId, paymentId));
    expect(rows).toEqual([{ status: 'reversed', payoutId: null }]);
    expect(
      await server.database.db.select().from(partnerPayouts).where(eq(partnerPayouts.partnerId, partnerId)),
    ).toEqual([]);
  });

  it('still credits the partner with a signup through a link they deleted after it was followed', async () => {
    const made = await createLink(payee, { code: `payee-gone-${suffix}`, campaign: 'Old' });
    const { cookie } = await visit(made.body.link.code, `${BROWSER} gone`);
    await server.delete(`/api/affiliation/partners/links/${made.body.link.id}`, as(payee));
    await signupWith(cookie);
    const list = await server.get<ReferralPage>('/api/affiliation/partners/referrals', as(payee));
    expect(list.body.total).toBe(2);
    expect(list.body.items[0]).toMatchObject({ link_code: null, campaign: null });
    // Nobody else's referral: the other partner's list is as it was.
    expect(
      (await server.get<ReferralPage>('/api/affiliation/partners/referrals', as(partner))).body.total,
    ).toBe(1);
  });
});
