import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { AFFILIATE_TEXTS, type CheckoutResponse, type Plan } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RazorpayFake, razorpayEnv, startRazorpayFake } from '../../server/src/test/fakes/razorpay';
import {
  apiCall,
  fillSignup,
  freshDataDir,
  type Harness,
  logIn,
  person,
  REPO_ROOT,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
  tokenOf,
} from './harness';

const ADMIN = { email: 'partners-admin@example.com', password: 'admin password 123' };
/** A desktop browser: headless Chromium names itself HeadlessChrome, which counts as a bot. */
const VISITOR_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Razorpay's fake includes 18% GST in its charges; partners earn 20% of the rest here. */
const commissionOn = (price: number) => Math.floor(((price - Math.floor((price * 18) / 118)) * 20) / 100);

/**
 * Reloads until the commissions table shows the text (the refund window passing, a sweep of the
 * scheduler) and, when given, the total earnings tile shows `earned`. The tile and the table load
 * by separate requests that a sweep can fall between, so both are read after the same reload.
 */
async function reloadUntil(page: Page, text: string, timeoutMs: number, earned?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const tile = page.getByLabel('Total earnings', { exact: true });
  for (;;) {
    await page.reload();
    const table = page.getByRole('table', { name: 'Commissions' });
    await table.waitFor();
    const shown = (await table.getByText(text, { exact: true }).count()) > 0;
    if (shown && (earned === undefined || (await tileShows(tile, earned)))) return;
    if (Date.now() > deadline) throw new Error(`"${text}" did not appear in ${timeoutMs} ms`);
    await page.waitForTimeout(2000);
  }
}

/** Whether the tile settles on the value within a few seconds of a reload. */
async function tileShows(tile: ReturnType<Page['getByLabel']>, value: string): Promise<boolean> {
  for (const until = Date.now() + 3000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    if ((await tile.textContent()) === value) return true;
  }
  return false;
}

/**
 * The affiliate programme end to end: a user becomes a partner and creates a link, a visitor
 * follows it and signs up, the new workspace pays on Razorpay (the fake), the partner sees the
 * click, the conversion and a pending commission, approved once the refund window has passed and
 * paid when a platform admin marks the payout.
 */
describe('Affiliate programme', () => {
  let h: Harness;
  let razorpay: RazorpayFake;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = freshDataDir();
    execFileSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'apps/server/dist/cli/admin-create.js'),
        '--email',
        ADMIN.email,
        '--password',
        ADMIN.password,
      ],
      { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' },
    );
    razorpay = await startRazorpayFake();
    h = await startHarness({
      env: {
        DATA_DIR: dataDir,
        ...razorpayEnv(razorpay),
        AFFILIATE_COMMISSION_PERCENT: '20',
        AFFILIATE_REFUND_WINDOW_DAYS: '1',
        SCHEDULER_TICK_MS: '2000',
      },
    });
    razorpay.webhookUrl = `${h.baseUrl}/api/payment/razorpay/webhook`;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await razorpay?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('pays a partner for a workspace their link brought', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'affiliates');
    const partner = person('paula');
    await signUp(page, partner);

    // The public page explains the programme and its terms; the signed-in user joins.
    await page.goto('/partner');
    await page.getByRole('heading', { name: 'Parley Partner Programme' }).waitFor();
    await page.getByText(/You earn 20% of every payment/).waitFor();
    await page.getByText(/Becoming a partner keeps your workspace/).waitFor();
    await page.getByRole('button', { name: 'Become a partner' }).click();
    const joining = page.getByRole('dialog', { name: 'Become a partner?' });
    await joining.getByText(/You keep your workspace/).waitFor();
    await screenshot(page, 'affiliates-become-partner');
    await joining.getByRole('button', { name: 'Become a partner' }).click();
    await page.getByText(AFFILIATE_TEXTS.becamePartner).first().waitFor();
    await page.getByRole('heading', { name: 'Partner dashboard' }).waitFor();
    // A partner keeps their workspace (issue 31): Home stays, and the account menu switches between
    // the workspace console and the partner area, both ways.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await screenshot(page, 'affiliates-partner-menu');
    await page.getByRole('menuitem', { name: 'Workspace console' }).click();
    await page.waitForURL('**/home');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Manage Bots' })
      .waitFor();
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Manage Bots' })
      .waitFor();
    expect(page.url()).toMatch(/\/home$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Partner area' }).click();
    await page.waitForURL('**/partner');
    await page.getByRole('heading', { name: 'Partner dashboard' }).waitFor();

    // A link with its own code.
    const code = `paula-${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New referral link' });
    await dialog.getByLabel('Code').fill(code);
    await dialog.getByLabel('Campaign').fill('Launch');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await page.getByText(AFFILIATE_TEXTS.linkCreated).first().waitFor();
    const links = page.getByRole('table', { name: 'Referral links' });
    await links.getByText(`${h.baseUrl}/r/${code}`).waitFor();
    await screenshot(page, 'affiliates-partner-link');

    // A visitor follows the link, lands on signup and signs up.
    const visitorContext = await h.browser.newContext({ baseURL: h.baseUrl, userAgent: VISITOR_AGENT });
    const visitor = await visitorContext.newPage();
    visitor.setDefaultTimeout(15_000);
    await visitor.goto(`/r/${code}`);
    await visitor.waitForURL('**/register');
    await fillSignup(visitor, person('victor'));
    await visitor.waitForURL('**/home');

    // The referred workspace pays for a plan on Razorpay. Its charge is dated a day less 20 s ago,
    // so the one-day refund window ends 20 s from now.
    const token = await tokenOf(visitor);
    const plans = await apiCall<Plan[]>(h, token, 'GET', '/pricing/plans');
    const paid = plans.find((p) => p.price_monthly > 0)!;
    const checkout = await apiCall<CheckoutResponse>(h, token, 'POST', '/payment/create-subscription', {
      plan_id: paid.id,
      billing_cycle: 'monthly',
    });
    razorpay.now = Math.floor(Date.now() / 1000) - 86_400 + 20;
    const deliveries = await razorpay.pay(checkout.checkout.subscription_id);
    expect(deliveries.map((e) => e.event)).toContain('subscription.charged');
    await visitorContext.close();

    // The partner sees the click, the conversion and a pending commission.
    await page.reload();
    await expect.poll(() => page.getByLabel('Clicks', { exact: true }).textContent()).toBe('1');
    await expect.poll(() => page.getByLabel('Conversions', { exact: true }).textContent()).toBe('1');
    await expect.poll(() => page.getByLabel('Conversion rate', { exact: true }).textContent()).toBe('100.0%');
    const row = links.getByRole('row').filter({ hasText: code });
    await row.getByRole('cell', { name: '1', exact: true }).first().waitFor();
    const referrals = page.getByRole('table', { name: 'Referrals' });
    await referrals.getByText(/^Workspace [0-9a-f]{4}$/).waitFor();
    expect(await referrals.getByText(/victor/i).count()).toBe(0);
    const commissions = page.getByRole('table', { name: 'Commissions' });
    await commissions.getByText('pending', { exact: true }).waitFor();
    const earned = commissionOn(paid.price_monthly);
    const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: paid.currency }).format(
      earned / 100,
    );
    await commissions.getByText(amount).waitFor();
    expect(await page.getByLabel('Pending commissions', { exact: true }).textContent()).toBe(`${amount} (1)`);
    await screenshot(page, 'affiliates-partner-pending');

    // Once the refund window has passed, the sweep approves it.
    await reloadUntil(page, 'approved', 60_000, amount);

    // A platform admin marks the payout.
    const { page: adminPage } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(adminPage, 'affiliates-admin');
    await adminPage.goto('/login');
    await logIn(adminPage, ADMIN.email, ADMIN.password);
    await adminPage.waitForURL('**/home');
    await adminPage.goto('/admin');
    await adminPage.getByRole('link', { name: 'Partners' }).click();
    await adminPage.waitForURL('**/admin/partners');
    const partnerRow = adminPage
      .getByRole('table', { name: 'Partners' })
      .getByRole('row')
      .filter({ hasText: partner.email });
    await partnerRow.getByRole('button', { name: `Mark ${amount} paid` }).click();
    await adminPage
      .getByRole('dialog', { name: 'Mark payout as paid?' })
      .getByRole('button', { name: 'Mark paid' })
      .click();
    await adminPage.getByText(AFFILIATE_TEXTS.payoutMarked).first().waitFor();
    await screenshot(adminPage, 'affiliates-admin-paid');

    await reloadUntil(page, 'paid', 10_000);
    await screenshot(page, 'affiliates-partner-paid');
  });
});
