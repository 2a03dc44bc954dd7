import type {
  ChatExchange,
  GlobalSyncStatus,
  ProductData,
  StoreItemList,
  StoreResponse,
  TrainingStatusResponse,
} from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi } from '../../../test/bots.js';
import { signupOwner } from '../../../test/factories.js';
import { startWooFake, type WooFake, type WooFakeStore } from '../../../test/fakes/woocommerce.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { settle } from '../../../test/stores.js';
import { storeRecords } from '../stores.schema.js';

/**
 * A WooCommerce variable product (sizes at their own prices and stock) as a shopper hears it with no
 * language model: each size's own price and stock, read from its variations at sync and again when
 * the store says a variation changed.
 */
const JACKET = 'Summit Fleece Jacket';
const JACKET_ID = 41;
const POSTER_ID = 42;
let server: TestServer;
let fake: WooFake;
let shop: WooFakeStore;
let owner: Account;
let botId: number;
let storeId: number;
const as = (account: Account) => ({ token: account.access_token });
const size = (option: string) => [{ name: 'Size', option }];

beforeAll(async () => {
  fake = await startWooFake();
  shop = fake.addStore({ products: 40, name: 'Summit Supply', currency: 'USD' });
  fake.setProduct(shop, { id: JACKET_ID, name: JACKET, sku: 'SFJ' });
  fake.setVariations(shop, JACKET_ID, [
    { id: 9001, attributes: size('S'), regular_price: '20.00', stock_quantity: 4 },
    { id: 9002, attributes: size('M'), regular_price: '25.00', stock_quantity: 0 },
    { id: 9003, attributes: size('L'), regular_price: '30.00', stock_quantity: 6 },
    { id: 9004, attributes: size('XL'), regular_price: '40.00', sale_price: '32.00', stock_quantity: 2 },
    // Disabled in the store: not for sale, so never mentioned.
    { id: 9005, attributes: size('XXL'), regular_price: '99.00', status: 'private' },
  ]);
  // More variations than one page holds.
  fake.setProduct(shop, { id: POSTER_ID, name: 'Trail Map Poster' });
  fake.setVariations(
    shop,
    POSTER_ID,
    Array.from({ length: 130 }, (_, i) => ({
      attributes: size(`${i + 1}`),
      regular_price: `${(10 + i).toFixed(2)}`,
    })),
  );
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'Summit helper' })).bot_id;
  const connected = await server.post<StoreResponse>(
    '/api/woocommerce/connect',
    {
      store_url: shop.url,
      consumer_key: shop.consumerKey,
      consumer_secret: shop.consumerSecret,
      bot_id: botId,
    },
    as(owner),
  );
  expect(connected.status).toBe(201);
  storeId = connected.body.store.id;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const base = () => `/api/woocommerce/stores/${storeId}`;
const answer = async (message: string) =>
  (await server.post<ChatExchange>('/api/chat/chats', { bot_id: botId, message }, as(owner))).body
    .bot_message!.message;
const variationRequests = () => fake.requests.filter((r) => r.endsWith('/variations'));

async function sync(): Promise<GlobalSyncStatus> {
  const started = await server.post(`${base()}/sync/global`, { limit: 1000 }, as(owner));
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return settle(
    async () => (await server.get<GlobalSyncStatus>(`${base()}/sync/status`, as(owner))).body,
    (status) => status.overallStatus !== 'syncing',
  );
}

async function productData(externalId: number): Promise<ProductData> {
  const [row] = await server.database.db
    .select({ data: storeRecords.data })
    .from(storeRecords)
    .where(and(eq(storeRecords.storeId, storeId), eq(storeRecords.externalId, String(externalId))));
  return row!.data as ProductData;
}

describe('a variable product', () => {
  it('reads variations for variable products only, every page of them, and trains', async () => {
    const before = variationRequests().length;
    expect((await sync()).overallStatus).toBe('completed');
    const asked = variationRequests().slice(before);
    // One request for the jacket, two (130 at 100 a page) for the poster, none for 40 simple products.
    expect(asked.filter((r) => r.includes(`/products/${JACKET_ID}/`))).toHaveLength(1);
    expect(asked.filter((r) => r.includes(`/products/${POSTER_ID}/`))).toHaveLength(2);
    expect(asked).toHaveLength(3);
    const poster = await productData(POSTER_ID);
    expect(poster.variants).toHaveLength(130);
    expect(poster.price).toBe('10.00');
    const jacket = await productData(JACKET_ID);
    expect(jacket.price).toBe('20.00');
    expect(
      jacket.variants.map((v) => [v.title, v.price, v.compare_at_price, v.inventory, v.available]),
    ).toEqual([
      ['S', '20.00', null, 4, true],
      ['M', '25.00', null, 0, false],
      ['L', '30.00', null, 6, true],
      ['XL', '32.00', '40.00', 2, true],
    ]);
    await server.post(`${base()}/train`, {}, as(owner));
    const trained = await settle(
      async () => (await server.get<TrainingStatusResponse>(`${base()}/training/status`, as(owner))).body,
      (status) => !status.active,
    );
    expect(trained.complete).toBe(true);
  });

  it("answers a size's own price, the sale price while on sale, and never a disabled size", async () => {
    const large = await answer(`How much is the ${JACKET} in size L?`);
    expect(large).toContain('30.00');
    expect(await answer(`How much is the ${JACKET} in size XL?`)).toContain('32.00');
    expect(large).not.toContain('99.00');
  });

  it("answers a size's stock", async () => {
    const medium = await answer(`Is the ${JACKET} in size M in stock?`);
    expect(medium).toMatch(/out of stock in Size M\b/);
    expect(medium).toMatch(/in stock in Size S \(4 left\)/);
    expect(medium).not.toContain('XXL');
  });

  it("follows a variation's new price from WooCommerce's delivery for that variation", async () => {
    const payload = fake.setVariation(shop, JACKET_ID, { id: 9003, regular_price: '35.00' });
    expect(payload).toMatchObject({ id: 9003, type: 'variation', parent_id: JACKET_ID });
    const secret = fake.webhooks.find((w) => w.deliveryUrl.endsWith(`/webhooks/${storeId}`))!.secret;
    const sent = await fake.sendWebhook(
      `${server.url}/api/woocommerce/webhooks/${storeId}`,
      'product.updated',
      payload,
      { secret, deliveryId: 'variation-l' },
    );
    expect(sent.status).toBe(200);
    await expect
      .poll(() => answer(`How much is the ${JACKET} in size L?`), { timeout: 15_000, interval: 200 })
      .toContain('35.00');
    expect(await answer(`How much is the ${JACKET} in size L?`)).not.toContain('30.00');
    // The variation is part of the jacket, never a product of its own.
    const listed = await server.get<StoreItemList>(`${base()}/products?search=Summit&per_page=10`, as(owner));
    expect(listed.body.items.map((i) => i.external_id)).toEqual([String(JACKET_ID)]);
  });

  it("follows a size's new price and stock at the next sync", async () => {
    fake.setVariation(shop, JACKET_ID, { id: 9002, regular_price: '27.50', stock_quantity: 3 });
    expect((await sync()).overallStatus).toBe('completed');
    await expect
      .poll(() => answer(`How much is the ${JACKET} in size M?`), { timeout: 15_000, interval: 200 })
      .toContain('27.50');
    expect(await answer(`Is the ${JACKET} in size M in stock?`)).not.toMatch(/out of stock in Size M\b/);
  });
});
