import { readFile } from 'node:fs/promises';
import { BILLING_TEXTS } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RazorpayFake, razorpayEnv, startRazorpayFake } from '../../server/src/test/fakes/razorpay';
import {
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/** Creates a bot through the wizard's four steps and presses "Create bot". */
async function createBotInWizard(page: Page, name: string): Promise<void> {
  await page.goto('/bot/new');
  await page.getByLabel('Bot name', { exact: true }).fill(name);
  await page.getByLabel('Description', { exact: true }).fill('Answers questions about the shop');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Instructions', { exact: true }).fill('Answer briefly and politely.');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('table', { name: 'Bot summary' }).getByText(name).waitFor();
  await page.getByRole('button', { name: 'Create bot' }).click();
}

/**
 * Plans as a paying customer meets them, with plan limits on: the free plan's one bot, the 402 of
 * a second with its Upgrade link, Starter chosen monthly and paid on Razorpay's checkout page (the
 * fake's, whose webhooks reach the server), the second bot, usage and the invoice PDF on
 * Subscriptions, a partial refund shown on the invoice, two extra chatbots bought, a cancellation
 * that keeps the plan until the end of the period and says the add-ons go on, and Pro chosen to
 * follow Starter, told before checkout that the add-ons carry over.
 */
describe('Plans and subscriptions', () => {
  let h: Harness;
  let razorpay: RazorpayFake;
  beforeAll(async () => {
    razorpay = await startRazorpayFake();
    h = await startHarness({
      env: {
        PLAN_LIMITS: 'on',
        ...razorpayEnv(razorpay),
      },
    });
    razorpay.webhookUrl = `${h.baseUrl}/api/payment/razorpay/webhook`;
  });
  afterAll(async () => {
    await h?.close();
    await razorpay?.close();
  });

  it('upgrades from Free to Starter through checkout, then downloads an invoice and cancels', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'billing');
    await signUp(page, person('billie'));

    // The free plan allows one bot: the second is refused with the plan's words and a way out.
    await createBotViaApi(h, page, { bot_name: 'First_bot' });
    await createBotInWizard(page, 'Second_bot');
    const refusal = BILLING_TEXTS.limitReached('chatbot', 1, 'Free');
    await page.getByText(refusal).first().waitFor();
    await screenshot(page, 'billing-limit');
    await page.getByRole('link', { name: 'Upgrade your plan' }).first().click();
    await page.waitForURL('**/upgrade');

    // The plans side by side, Free marked as the current one.
    const starter = page.getByRole('article', { name: 'Starter' });
    await starter.waitFor();
    await page.getByRole('article', { name: 'Free' }).getByText('Current plan', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Yearly' }).click();
    await starter.getByText(/Save \$38 a year/).waitFor();
    await page.getByRole('button', { name: 'Monthly' }).click();
    await starter.getByText('$19').waitFor();
    await page.getByRole('table', { name: 'Compare plans' }).waitFor();

    // Choose Starter monthly: Razorpay's checkout page (the fake's), then back to /upgrade.
    await starter.getByRole('button', { name: 'Choose Starter' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${razorpay.url}/checkout/`));
    await page.getByRole('heading', { name: 'Razorpay Checkout (test)' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(`${h.baseUrl}/upgrade`));
    await page
      .getByRole('alert')
      .filter({ hasText: 'Your Starter plan is active.' })
      .first()
      .waitFor({ timeout: 30_000 });
    await starter.getByText('Current plan', { exact: true }).waitFor();
    await screenshot(page, 'billing-upgraded');

    // Starter allows three bots: the second one goes through now.
    await createBotInWizard(page, 'Second_bot');
    await page.getByText('Second_bot is ready').waitFor();

    // Subscriptions: Starter, its usage, and the invoice of the first charge.
    await page.goto('/subscriptions');
    const plan = page.getByRole('region', { name: 'Current plan' });
    await plan.getByText('Starter', { exact: true }).waitFor();
    await plan.getByText('$19.00 / month').waitFor();
    await plan.getByText(/^Renews on /).waitFor();
    const usage = page.getByRole('region', { name: 'Usage' });
    await expect
      .poll(() => usage.getByRole('progressbar', { name: 'Chatbots used' }).getAttribute('aria-valuenow'))
      .toBe('66');
    await usage.getByRole('progressbar', { name: 'Messages this month used' }).waitFor();
    await usage.getByRole('progressbar', { name: 'Team members used' }).waitFor();
    await usage.getByText('90 days').waitFor();

    const invoices = page.getByRole('table', { name: 'Invoice history' });
    await invoices.waitFor({ timeout: 30_000 });
    const row = invoices
      .getByRole('row')
      .filter({ hasText: /PAR-\d{4}-\d+/ })
      .first();
    await row.getByText('$19.00').waitFor();
    await row.getByText('Paid').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /^Download invoice PAR-/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^PAR-\d{4}-\d+\.pdf$/);
    const file = await download.path();
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    await screenshot(page, 'billing-subscriptions');

    // Razorpay refunds part of that charge: the invoice says how much came back, and stays downloadable.
    const starterRz = [...razorpay.subscriptions.values()].find((s) => s.status === 'active')!.id;
    const firstCharge = razorpay.invoices.find((i) => i.subscription_id === starterRz)!;
    await razorpay.refund(firstCharge.payment_id, { amount: 500 });
    await page.reload();
    await row.getByText('Partially refunded').waitFor({ timeout: 30_000 });
    await row.getByText('Refunded $5.00 of $19.00').waitFor();
    await row.getByRole('button', { name: /^Download invoice PAR-/ }).waitFor();
    await screenshot(page, 'billing-partial-refund');

    // Two extra chatbots, bought on top of Starter through checkout.
    await page.goto('/upgrade');
    const extra = page.getByRole('article', { name: 'Extra chatbot' });
    await extra.getByLabel('Quantity of Extra chatbot').fill('2');
    await extra.getByRole('button', { name: 'Add Extra chatbot' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${razorpay.url}/checkout/`));
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(`${h.baseUrl}/upgrade`));
    await page
      .getByRole('alert')
      .filter({ hasText: 'Extra chatbot is active: +2 chatbots.' })
      .first()
      .waitFor({ timeout: 30_000 });
    const addonFigures = 'Extra chatbot × 2 (+2 chatbots, $18.00 a month)';

    // Cancel: the dialog says the plan stays until the end of the period, and that the add-ons,
    // billed apart, keep renewing; then "Cancels on ...".
    await page.goto('/subscriptions');
    await plan.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your Starter subscription?' });
    await dialog.getByText(/stays yours until the end of the period/).waitFor();
    await dialog.getByText(`keeps renewing: ${addonFigures}`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await plan.getByText(/^Cancels on /).waitFor();
    await plan.getByText('Starter', { exact: true }).waitFor();
    expect(await plan.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    await screenshot(page, 'billing-cancelled');

    // Pro chosen to follow Starter: before checkout, when it starts, what it costs, and that the
    // add-ons carry over with their figures.
    await page.goto('/upgrade');
    const pro = page.getByRole('article', { name: 'Pro' });
    await pro.getByRole('button', { name: 'Choose Pro' }).click();
    const schedule = page.getByRole('dialog', { name: /^Switch to Pro on \d{1,2} \w+ \d{4}\?$/ });
    await schedule.getByText(/Starter stays yours until .* Pro \(\$49\.00 a month\) starts then/).waitFor();
    await schedule.getByText(`Your add-ons carry over to Pro as they are`, { exact: false }).waitFor();
    await schedule.getByText(addonFigures, { exact: false }).waitFor();
    await screenshot(page, 'billing-schedule-confirm');
    await schedule.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${razorpay.url}/checkout/`));
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(`${h.baseUrl}/upgrade`));
    await page
      .getByRole('alert')
      .filter({ hasText: /^Pro starts on .*, when your Starter plan ends\.$/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.goto('/subscriptions');
    await plan
      .getByRole('status')
      .filter({
        hasText: `Your add-ons carry over to Pro as they are, renewing on their own dates: ${addonFigures}.`,
      })
      .waitFor();
    await screenshot(page, 'billing-scheduled');
  });
});
