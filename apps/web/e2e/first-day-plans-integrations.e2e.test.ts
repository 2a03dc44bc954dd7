import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { BILLING_TEXTS, INTEGRATION_TEXTS } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshDataDir,
  type Harness,
  logIn,
  logOut,
  person,
  REPO_ROOT,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/**
 * Issue 31, items 1 and 4, on a fresh install with default settings: plans are off (the
 * Subscriptions page says so and shows usage), Integrations is in the side menu and every card says
 * before any click whether the install is set up for it, with its operator's guide.
 */
describe('The first day: a fresh install', () => {
  let h: Harness;
  beforeAll(async () => {
    // No PLAN_LIMITS, no payment provider, no integration configured: the defaults.
    h = await startHarness({ env: { PLAN_LIMITS: '' } });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('integrations explain themselves: notices, disabled buttons, the operator guide', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1100 });
    screenshotOnFailure(page, 'first-day-integrations');
    await signUp(page, person('ivy'));

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Integrations' })
      .click();
    await page.waitForURL('**/integrations');
    const instagram = page.getByRole('region', { name: 'Instagram' });
    await instagram
      .getByText(
        'Instagram is not enabled on this Parley install. The person who runs Parley can turn it on: see',
      )
      .waitFor();
    expect(await instagram.getByRole('button', { name: 'Connect Instagram' }).isDisabled()).toBe(true);
    expect(await instagram.getByRole('button', { name: 'Connect with a page token' }).isDisabled()).toBe(
      true,
    );
    const messenger = page.getByRole('region', { name: 'Messenger' });
    expect(await messenger.getByRole('button', { name: 'Connect Messenger' }).isDisabled()).toBe(true);
    const whatsapp = page.getByRole('region', { name: 'WhatsApp' });
    await whatsapp
      .getByText(INTEGRATION_TEXTS.notEnabled('WhatsApp', 'Connecting WhatsApp').split(' see ')[0]!)
      .waitFor();
    // Shopify says so before asking for a store; WooCommerce needs nothing from the operator.
    const stores = page.getByRole('region', { name: 'Online stores' });
    await stores.getByText('Shopify is not enabled on this Parley install.', { exact: false }).waitFor();
    expect(await stores.getByRole('button', { name: 'Connect Shopify' }).isDisabled()).toBe(true);
    expect(await stores.getByRole('button', { name: 'Connect WooCommerce' }).isDisabled()).toBe(false);
    await page.getByRole('region', { name: 'Notion' }).getByText(INTEGRATION_TEXTS.notionTokenOnly).waitFor();
    await screenshot(page, 'first-day-integrations');

    // The notice's link opens the operator's guide in the console.
    await instagram.getByRole('link', { name: 'Connecting Instagram' }).click();
    await page.waitForURL('**/help/connecting-instagram');
    await page.getByRole('heading', { name: 'Connecting Instagram' }).waitFor();
    await page.getByText('META_APP_ID').first().waitFor();
    await screenshot(page, 'first-day-help-instagram');

    // The WhatsApp page: no field asks the owner for what only Meta hands over.
    await page.goto('/whatsapp');
    await page
      .getByText('WhatsApp is not enabled on this Parley install.', { exact: false })
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'Connect a WhatsApp number' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Authorization code').count()).toBe(0);
    expect(await page.getByLabel('Phone number id').count()).toBe(0);
    await screenshot(page, 'first-day-whatsapp');
  });

  it('is not a Free-plan trial: the Subscriptions page says plans are off and shows usage', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'first-day-subscriptions');
    await signUp(page, person('otto'));
    await page.goto('/subscriptions');
    await page.getByText(BILLING_TEXTS.plansOff).waitFor();
    await page.getByText('Usage').first().waitFor();
    await page.getByText('0 · no limit').first().waitFor();
    expect(await page.getByRole('button', { name: /Change plan|Cancel subscription/ }).count()).toBe(0);
    await screenshot(page, 'first-day-subscriptions');
    // Nothing to buy on Upgrade either.
    await page.goto('/upgrade');
    await page.getByText(BILLING_TEXTS.plansOff).waitFor();
    expect(await page.getByRole('button', { name: /Choose|Add/ }).count()).toBe(0);
  });
});

const ADMIN = { email: 'plans-admin@example.com', password: 'admin password 123' };

/**
 * Plans turned on by the operator, still no payment provider: a platform admin gives a workspace a
 * complimentary plan from the admin console, the workspace sees it on Subscriptions, and no button
 * offers a purchase; the admins' Integrations tab lists the addresses to register.
 */
describe('The first day: plans on, an admin gives a plan', () => {
  let h: Harness;
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
    // A Meta app is configured (Facebook Login is never opened here): plans alone decide Instagram.
    h = await startHarness({
      env: {
        DATA_DIR: dataDir,
        PLAN_LIMITS: 'on',
        META_APP_ID: '1234567890',
        META_APP_SECRET: 'meta-app-secret',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('an admin puts a workspace on Pro until a date; its Subscriptions page shows it', async () => {
    const owner = person('cleo');
    const company = `Cleo Bakes ${Date.now()}`;
    const signup = await fetch(`${h.baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: owner.firstName,
        last_name: owner.lastName,
        email: owner.email,
        password: owner.password,
        company_name: company,
      }),
    });
    expect(signup.status).toBe(201);

    const { page } = await h.newPage({ width: 1440, height: 1100 });
    screenshotOnFailure(page, 'first-day-grant');
    await page.goto('/login');
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await page
      .getByRole('row', { name: 'Shopify' })
      .getByText(`${h.baseUrl}/integrations/shopify/callback`)
      .waitFor();
    await page
      .getByRole('row', { name: 'Instagram' })
      .getByText(`${h.baseUrl}/integrations/meta/callback?channel=instagram`)
      .waitFor();
    await page.getByRole('row', { name: 'Notion' }).getByText(`${h.baseUrl}/api/notion/callback`).waitFor();
    await screenshot(page, 'first-day-admin-integrations');

    await page.getByRole('tab', { name: 'Workspaces' }).click();
    await page.getByText(company).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Plan', { exact: true }).click();
    await page.getByRole('option', { name: 'Pro', exact: true }).click();
    await dialog.getByLabel('Until (optional)').fill('2099-12-31');
    await dialog.getByRole('spinbutton', { name: 'Bots', exact: true }).fill('25');
    await dialog.getByRole('button', { name: 'Give plan' }).click();
    await dialog.getByText('Pro is given by a platform admin until', { exact: false }).waitFor();
    await screenshot(page, 'first-day-admin-grant');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await logOut(page);

    await logIn(page, owner.email, owner.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto('/subscriptions');
    await page.getByText('Given by the Parley team until', { exact: false }).waitFor();
    await page.getByText('Complimentary').waitFor();
    await page.getByText(BILLING_TEXTS.paymentsOff).waitFor();
    await page.getByText('0 of 25').waitFor();
    expect(await page.getByRole('button', { name: /Change plan|Cancel subscription/ }).count()).toBe(0);
    await screenshot(page, 'first-day-complimentary');
    // Upgrade compares plans but buys nothing without a payment provider.
    await page.getByRole('link', { name: 'Compare plans' }).click();
    await page.getByText(BILLING_TEXTS.paymentsOff).waitFor();
    for (const button of await page.getByRole('button', { name: /^Choose/ }).all())
      expect(await button.isDisabled()).toBe(true);
  });

  it('a card names the plan that includes what the workspace’s plan does not', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'first-day-not-in-plan');
    await signUp(page, person('finn'));
    await page.goto('/integrations');
    const instagram = page.getByRole('region', { name: 'Instagram' });
    await instagram.getByText(INTEGRATION_TEXTS.notInPlan('Instagram', 'Starter')).waitFor();
    expect(await instagram.getByRole('button', { name: 'Connect Instagram' }).isDisabled()).toBe(true);
    await page
      .getByRole('region', { name: 'WhatsApp' })
      .getByText('WhatsApp is not enabled on this Parley install.', { exact: false })
      .waitFor();
    await screenshot(page, 'first-day-not-in-plan');
  });
});
