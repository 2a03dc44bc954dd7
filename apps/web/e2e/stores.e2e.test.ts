import { STORE_TEXTS } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifyFake, startShopifyFake } from '../../server/src/test/fakes/shopify';
import { startWooFake, type WooFake, type WooFakeStore } from '../../server/src/test/fakes/woocommerce';
import {
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const SHOP = 'lighthouse-goods.myshopify.com';

/** Waits until a progress bar of the page reads `value` (aria-valuenow). */
async function barReaches(page: Page, name: string, value: number, timeout = 30_000): Promise<void> {
  await expect
    .poll(() => page.getByRole('progressbar', { name, exact: true }).getAttribute('aria-valuenow'), {
      timeout,
      interval: 250,
    })
    .toBe(String(value));
}

/**
 * Online stores as a shop owner meets them: a WooCommerce store connected through its REST keys,
 * synced and trained with the progress bars of the store page, its products searched; then a
 * Shopify store connected through Shopify's approval (the fake's authorize page sends the browser
 * back to the callback page, signed), synced, and an order refunded and another cancelled.
 */
describe('Online stores', () => {
  let h: Harness;
  let woo: WooFake;
  let wooStore: WooFakeStore;
  let shopify: ShopifyFake;
  beforeAll(async () => {
    woo = await startWooFake();
    wooStore = woo.addStore({ products: 20, name: 'Acme Outfitters' });
    woo.setProduct(wooStore, { id: 500, name: 'Lighthouse Mug', price: '14.99', regular_price: '14.99' });
    shopify = await startShopifyFake();
    shopify.addShop(SHOP, { name: 'Lighthouse Goods', currency: 'USD', products: 12 });
    h = await startHarness({
      env: {
        // The fakes listen on loopback, which store addresses may not point at otherwise.
        CRAWLER_ALLOW_PRIVATE: 'true',
        SHOPIFY_API_KEY: shopify.apiKey,
        SHOPIFY_API_SECRET: shopify.apiSecret,
        SHOPIFY_SHOP_URL: shopify.shopUrlTemplate,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await woo?.close();
    await shopify?.close();
  });

  it('connects a WooCommerce store, syncs and trains it, and lists its products', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'stores-woocommerce');
    await signUp(page, person('wanda'));
    const bot = await createBotViaApi(h, page, { bot_name: 'Shop helper' });

    // Integrations: the stores section, nothing connected yet.
    await page.goto('/integrations');
    const section = page.getByRole('region', { name: 'Online stores' });
    await section.getByText('No store connected yet.').waitFor();

    // The connect dialog: address, REST keys and the bot that answers from the store.
    await section.getByRole('button', { name: 'Connect WooCommerce' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect WooCommerce' });
    await dialog.getByLabel('Store address').fill(wooStore.url);
    await dialog.getByLabel('Consumer key').fill(wooStore.consumerKey);
    await dialog.getByLabel('Consumer secret').fill(wooStore.consumerSecret);
    await dialog.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Shop helper' }).click();
    await dialog.getByRole('button', { name: 'Connect store' }).click();
    await page.getByText(STORE_TEXTS.wooConnected).first().waitFor();
    await page.waitForURL('**/integrations/stores/woocommerce/*');
    await page.getByRole('heading', { name: 'Acme Outfitters', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Bots' }).getByRole('listitem', { name: 'Shop helper' }).waitFor();

    // Test connection answers from the store itself.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(STORE_TEXTS.connectionOk).first().waitFor();

    // Sync all: the overall bar and every content type's bar reach 100, counts filled in.
    await page.getByRole('button', { name: 'Sync all' }).click();
    const sync = page.getByRole('region', { name: 'Sync status' });
    await barReaches(page, 'Overall sync progress', 100);
    await sync.getByLabel('Overall sync status: completed').waitFor();
    for (const type of ['Products', 'Categories', 'Pages', 'Coupons', 'Orders', 'Customers']) {
      await barReaches(page, `${type} sync progress`, 100);
    }
    await expect
      .poll(() => sync.getByRole('listitem', { name: 'Products' }).textContent())
      .toContain('21 of 21');
    await screenshot(page, 'stores-woocommerce-synced');

    // Train all: trained counts follow until every product is trained.
    await page.getByRole('button', { name: 'Train all' }).click();
    const training = page.getByRole('region', { name: 'Training status' });
    await expect
      .poll(() => training.getByRole('listitem', { name: 'Products' }).textContent(), { timeout: 60_000 })
      .toContain('21 of 21 trained');
    await barReaches(page, 'Products training progress', 100);
    await training.getByLabel('Training state: complete').waitFor({ timeout: 30_000 });

    // Products: a server-side search finds the added product, trained.
    await page.getByRole('tab', { name: 'Products' }).click();
    const products = page.getByRole('table', { name: 'Products' });
    await products.getByRole('row').nth(21).waitFor();
    await page.getByLabel('Search products').fill('Lighthouse');
    const row = products.getByRole('row', { name: 'Lighthouse Mug' });
    await row.waitFor();
    await row.getByText('$14.99').waitFor();
    await row.getByText('Trained').waitFor();
    await expect.poll(() => products.getByRole('row').count()).toBe(2);
    await screenshot(page, 'stores-woocommerce-products');

    // The bot connected to the store answers a price with the product's page, and an order only
    // once its number and the email on it match.
    const storePage = page.url();
    await page.goto(`/bot/${bot.bot_id}/playground`);
    const box = page.getByRole('textbox', { name: 'Message' });
    const answers = page.getByTestId('bot-message');
    await box.fill('How much is the Lighthouse Mug?');
    await box.press('Enter');
    const price = answers.filter({ hasText: '14.99' });
    await price.waitFor({ timeout: 30_000 });
    const link = price.getByRole('link', { name: 'Lighthouse Mug' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${wooStore.url}/product/`));
    await box.fill('Where is my order 1001?');
    await box.press('Enter');
    await answers.filter({ hasText: 'email address or phone number' }).waitFor({ timeout: 30_000 });
    await box.fill('john@example.com');
    await box.press('Enter');
    await answers.filter({ hasText: "couldn't find an order" }).waitFor({ timeout: 30_000 });
    await box.fill('Order 1001, my email is jane@example.com');
    await box.press('Enter');
    await answers.filter({ hasText: '1Z999' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'stores-order-in-chat');
    await page.goto(storePage);

    // Categories: their own sync follows its job to the end; one is deleted from Parley.
    // The page is read before the tab is clicked: a click while it still loads can be lost.
    await page.getByRole('listitem', { name: 'Products' }).first().waitFor();
    const categoriesTab = page.getByRole('tab', { name: 'Categories' });
    await expect
      .poll(async () => {
        await categoriesTab.click();
        return categoriesTab.getAttribute('aria-selected');
      })
      .toBe('true');
    const categories = page.getByRole('table', { name: 'Categories' });
    await categories.getByRole('row').nth(5).waitFor();
    await page.getByRole('button', { name: 'Sync categories' }).click();
    await page.getByText(STORE_TEXTS.syncStarted).first().waitFor();
    await page.getByRole('progressbar', { name: 'Sync categories progress' }).waitFor({ state: 'hidden' });
    await expect.poll(() => categories.getByRole('row').count()).toBe(6);
    await categories.getByRole('button', { name: 'Delete Footwear' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Footwear?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => categories.getByRole('row').count()).toBe(5);

    // Orders: one opens with its lines and tracking.
    await page.getByRole('tab', { name: 'Orders' }).click();
    const orders = page.getByRole('table', { name: 'Orders' });
    await orders
      .getByRole('button', { name: /^Open Order / })
      .first()
      .click();
    const order = page.getByRole('dialog', { name: /^Order / });
    await order.getByRole('table', { name: 'Order lines' }).getByRole('row').nth(1).waitFor();
    await order.getByRole('button', { name: 'Close' }).click();

    // Back on Integrations, the store's card.
    await page.goto('/integrations');
    const card = page.getByRole('region', { name: 'Acme Outfitters' });
    await card.getByText('Connected').waitFor();
    await card.getByText('21 products', { exact: false }).waitFor();
    await screenshot(page, 'stores-integrations');
    await card.getByRole('link', { name: 'Open' }).click();
    await page.waitForURL('**/integrations/stores/woocommerce/*');
  });

  it('connects a Shopify store through its approval, syncs and trains it, refunds and cancels orders', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'stores-shopify');
    await signUp(page, person('sam'));
    await createBotViaApi(h, page, { bot_name: 'Goods helper' });

    await page.goto('/integrations');
    await page.getByRole('button', { name: 'Connect Shopify' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Shopify' });
    // A wrong address is refused before leaving.
    await dialog.getByLabel('Store address').fill('lighthouse-goods.com');
    await dialog.getByRole('button', { name: 'Continue to Shopify' }).click();
    await dialog.getByText(STORE_TEXTS.shopDomainInvalid).waitFor();
    await dialog.getByLabel('Store address').fill(SHOP);
    await dialog.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Goods helper' }).click();
    // Shopify's authorize page approves and sends the browser back to the callback page.
    await dialog.getByRole('button', { name: 'Continue to Shopify' }).click();
    await page.waitForURL('**/integrations/stores/shopify/*', { timeout: 30_000 });
    await page.getByText(STORE_TEXTS.shopifyConnected).first().waitFor();
    await page.getByRole('heading', { name: 'Lighthouse Goods', level: 1 }).waitFor();
    await page
      .getByRole('region', { name: 'Bots' })
      .getByRole('listitem', { name: 'Goods helper' })
      .waitFor();

    await page.getByRole('button', { name: 'Sync all' }).click();
    await barReaches(page, 'Overall sync progress', 100, 60_000);
    await page
      .getByRole('region', { name: 'Sync status' })
      .getByLabel('Overall sync status: completed')
      .waitFor();
    await barReaches(page, 'Products sync progress', 100);
    await page.getByRole('table', { name: 'Products' }).getByRole('row').nth(1).waitFor();

    // Train all: the products' training bar fills, as on WooCommerce.
    await page.getByRole('button', { name: 'Train all' }).click();
    await barReaches(page, 'Products training progress', 100, 60_000);
    await page
      .getByRole('region', { name: 'Training status' })
      .getByLabel('Training state: complete')
      .waitFor({ timeout: 30_000 });

    // An order refunded in part, another cancelled.
    await page.getByRole('tab', { name: 'Orders' }).click();
    const orders = page.getByRole('table', { name: 'Orders' });
    await orders.getByRole('button', { name: 'Open Order #1001' }).click();
    let order = page.getByRole('dialog', { name: 'Order #1001', exact: true });
    await order.getByRole('table', { name: 'Order lines' }).getByRole('row').nth(1).waitFor();
    await order.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund order #1001' });
    await refund.getByLabel('Amount').fill('5.00');
    await refund.getByLabel('Note').fill('Late delivery');
    await refund.getByRole('button', { name: 'Create refund' }).click();
    await page.getByText(STORE_TEXTS.orderRefunded).first().waitFor();
    await order.getByTestId('order-refunded').filter({ hasText: '$5.00' }).waitFor();
    await order.getByRole('button', { name: 'Close' }).click();

    await orders.getByRole('button', { name: 'Open Order #1002' }).click();
    order = page.getByRole('dialog', { name: 'Order #1002', exact: true });
    await order.getByRole('button', { name: 'Cancel order' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel order #1002?' });
    await cancel.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Customer changed or cancelled the order' }).click();
    await cancel.getByRole('button', { name: 'Confirm cancellation' }).click();
    await page.getByText(STORE_TEXTS.orderCancelled).first().waitFor();
    await expect.poll(() => order.getByRole('button', { name: 'Cancel order' }).isDisabled()).toBe(true);
    await screenshot(page, 'stores-shopify-order');
    await order.getByRole('button', { name: 'Close' }).click();
    expect(
      shopify
        .shop(SHOP)
        .order(1001)
        ?.refunds.map((r) => r.amount),
    ).toEqual(['5.00']);
    expect(shopify.shop(SHOP).order(1002)?.cancelledAt).not.toBeNull();
  });
});
