import type {
  ChatExchange,
  GlobalSyncStatus,
  StoreItemList,
  StoreResponse,
  TrainingStatusResponse,
} from '@parley/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../core/clock.js';
import { createBotViaApi } from '../../../test/bots.js';
import { signupOwner } from '../../../test/factories.js';
import {
  type FakeProduct,
  type FakeShop,
  restProduct,
  type ShopifyFake,
  startShopifyFake,
} from '../../../test/fakes/shopify.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { settle } from '../../../test/stores.js';
import { documents } from '../../knowledge/knowledge.schema.js';
import { storeRecords } from '../stores.schema.js';

/**
 * What a shopper hears about a Shopify store's catalogue with no language model: only what the
 * storefront sells, at its current price, and nothing once the store is gone.
 */
const DOMAIN = 'north-wind.myshopify.com';
const HOUR = 3_600_000;
let offset = 0;
const clock: Clock = { now: () => new Date(Date.now() + offset) };
let server: TestServer;
let fake: ShopifyFake;
let shop: FakeShop;
let owner: Account;
let botId: number;
let storeId: number;
const as = (account: Account) => ({ token: account.access_token });

const variant = (id: number, title: string, price: string, stock: number) => ({
  id,
  title,
  price,
  compareAtPrice: null,
  sku: `GT-${title}`,
  inventoryQuantity: stock,
  options: [title],
});
let draft: FakeProduct;
let jacket: FakeProduct;

beforeAll(async () => {
  fake = await startShopifyFake();
  shop = fake.addShop(DOMAIN, { name: 'North Wind', currency: 'USD', products: 30 });
  server = await startTestServer({
    clock,
    env: {
      SHOPIFY_SHOP_URL: fake.shopUrlTemplate,
      SHOPIFY_API_KEY: fake.apiKey,
      SHOPIFY_API_SECRET: fake.apiSecret,
    },
  });
  owner = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'North Wind helper' })).bot_id;
  draft = shop.setProduct({
    title: 'Zephyr Prototype Parka',
    status: 'DRAFT',
    options: [{ name: 'Title', values: ['Default Title'] }],
    variants: [{ ...variant(1, 'Default Title', '777.00', 5), options: ['Default Title'] }],
  });
  shop.setProduct({ title: 'Obsolete Walrus Boots', status: 'ARCHIVED' });
  jacket = shop.setProduct({
    title: 'Granite Trail Jacket',
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: [variant(11, 'S', '100.00', 3), variant(12, 'M', '110.00', 0), variant(13, 'L', '120.00', 7)],
  });
  const discount = shop.discounts[0]!;
  shop.discounts.push(
    { ...discount, id: 99_001, title: 'OLDSALE20', code: 'OLDSALE20', status: 'EXPIRED', endsAt: null },
    {
      ...discount,
      id: 99_002,
      title: 'FLASHSALE30',
      code: 'FLASHSALE30',
      summary: '30% off for one hour',
      status: 'ACTIVE',
      endsAt: new Date(Date.now() + HOUR).toISOString(),
    },
  );
  const started = await server.post<{ authorization_url: string }>(
    '/api/shopify/connect',
    { shop_url: DOMAIN, bot_id: botId },
    as(owner),
  );
  const url = new URL(started.body.authorization_url);
  const params = fake.approve(DOMAIN, {
    redirectUri: url.searchParams.get('redirect_uri')!,
    state: url.searchParams.get('state')!,
  });
  const connected = await server.post<StoreResponse>(
    '/api/shopify/callback',
    { ...params, platform: 'shopify' },
    as(owner),
  );
  storeId = connected.body.store.id;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const answer = async (message: string) =>
  (await server.post<ChatExchange>('/api/chat/chats', { bot_id: botId, message }, as(owner))).body
    .bot_message!.message;
const hooks = () => `${server.url}/api/shopify/webhooks`;

async function sync(body: Record<string, unknown> = { limit: 5000 }, timeout = 30_000) {
  const started = await server.post(
    `/api/integrations/shopify/stores/${storeId}/sync/global`,
    body,
    as(owner),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return settle(
    async () =>
      (
        await server.get<GlobalSyncStatus>(
          `/api/integrations/shopify/stores/${storeId}/sync/status`,
          as(owner),
        )
      ).body,
    (status) => status.overallStatus !== 'syncing',
    timeout,
  );
}

async function train() {
  await server.post(`/api/integrations/shopify/stores/${storeId}/training/global`, {}, as(owner));
  return settle(
    async () =>
      (
        await server.get<TrainingStatusResponse>(
          `/api/shopify/stores/training/detailed-status/${storeId}`,
          as(owner),
        )
      ).body,
    (status) => !status.active,
  );
}

/** Whether the record of this Shopify product has knowledge the bot answers from. */
async function known(product: FakeProduct): Promise<boolean> {
  const [record] = await server.database.db
    .select({ id: storeRecords.id })
    .from(storeRecords)
    .where(
      and(
        eq(storeRecords.storeId, storeId),
        eq(storeRecords.externalId, `gid://shopify/Product/${product.id}`),
      ),
    );
  if (!record) return false;
  const docs = await server.database.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.sourceType, 'store'), eq(documents.sourceId, record.id)));
  return docs.length > 0;
}

/** Waits until the webhook and retraining jobs it queued have run. */
const eventually = (check: () => Promise<boolean>) =>
  expect.poll(check, { timeout: 15_000, interval: 150 }).toBe(true);

describe('what a shopper hears of the catalogue', () => {
  it('syncs and trains the catalogue', async () => {
    expect((await sync()).overallStatus).toBe('completed');
    expect((await train()).complete).toBe(true);
  });

  it('never hears of a draft or archived product, though the console lists them', async () => {
    expect(await answer('How much is the Zephyr Prototype Parka?')).not.toContain('777.00');
    expect(await answer('Do you sell Obsolete Walrus Boots?')).not.toContain('Walrus');
    expect(await known(draft)).toBe(false);
    const listed = await server.get<StoreItemList>(
      `/api/shopify/products?store_id=${storeId}&query=Zephyr`,
      as(owner),
    );
    expect(listed.body.items.map((p) => [p.title, p.status])).toEqual([['Zephyr Prototype Parka', 'draft']]);
  });

  it('never hears of an expired discount code, and hears of an active one', async () => {
    const reply = await answer('Do you have a discount code?');
    expect(reply).not.toContain('OLDSALE20');
    expect(await answer('Is there a flash sale code?')).toContain('FLASHSALE30');
  });

  it("hears a size's own price", async () => {
    expect(await answer('How much is the Granite Trail Jacket in size L?')).toContain('120.00');
  });

  it('hears the new price after the next sync, not the old one', async () => {
    shop.setProduct({
      ...jacket,
      variants: jacket.variants.map((v) => (v.title === 'L' ? { ...v, price: '150.00' } : v)),
    });
    await sync();
    await expect
      .poll(() => answer('How much is the Granite Trail Jacket in size L?'), { timeout: 15_000 })
      .toContain('150.00');
    expect(await answer('How much is the Granite Trail Jacket in size L?')).not.toContain('120.00');
  });

  it('stops hearing of a product unpublished by webhook, and hears of it again once it is active', async () => {
    const hidden = shop.setProduct({ ...shop.products.get(jacket.id)!, status: 'DRAFT' });
    await fake.sendWebhook(hooks(), 'products/update', restProduct(hidden), {
      shop: DOMAIN,
      eventId: 'e-draft',
    });
    await eventually(async () => !(await known(jacket)));
    expect(await answer('How much is the Granite Trail Jacket?')).not.toContain('Granite Trail Jacket');
    const back = shop.setProduct({ ...hidden, status: 'ACTIVE' });
    await fake.sendWebhook(hooks(), 'products/update', restProduct(back), {
      shop: DOMAIN,
      eventId: 'e-active',
    });
    await eventually(() => known(jacket));
    expect(await answer('How much is the Granite Trail Jacket in size L?')).toContain('150.00');
  });

  it('stops hearing of a product deleted in the store: by webhook, or at the next sync', async () => {
    const [byHook, bySync] = [...shop.products.values()].filter((p) => p.status === 'ACTIVE').slice(3, 5);
    expect(await known(byHook!)).toBe(true);
    shop.removeProduct(byHook!.id);
    await fake.sendWebhook(
      hooks(),
      'products/delete',
      { id: byHook!.id },
      { shop: DOMAIN, eventId: 'e-del' },
    );
    await eventually(async () => !(await known(byHook!)));
    shop.removeProduct(bySync!.id);
    await sync();
    expect(await known(bySync!)).toBe(false);
    expect(await answer(`How much is the ${bySync!.title}?`)).not.toMatch(new RegExp(`${bySync!.title}\\b`));
  });

  it('stops hearing of a discount once its end passes, with no word from the store', async () => {
    offset = 2 * HOUR;
    await server.parley.scheduler.tick();
    expect(await answer('Is there a flash sale code?')).not.toContain('FLASHSALE30');
    // Training again does not bring it back.
    await train();
    expect(await answer('Is there a flash sale code?')).not.toContain('FLASHSALE30');
  });
});

describe('a large catalogue', () => {
  it('syncs 2,000 products by cursor pages with rising progress; a smaller limit removes nothing', async () => {
    shop.addProducts(2000);
    const total = shop.products.size;
    const before = fake.requests.length;
    const seen: number[] = [];
    const started = await server.post(
      `/api/integrations/shopify/stores/${storeId}/sync/global`,
      { content_types: ['products'], limit: 5000 },
      as(owner),
    );
    expect(started.status).toBe(202);
    const done = await settle(
      async () => {
        const status = (
          await server.get<GlobalSyncStatus>(
            `/api/integrations/shopify/stores/${storeId}/sync/status`,
            as(owner),
          )
        ).body;
        seen.push(status.contentTypes[0]!.syncedCount);
        return status;
      },
      (status) => status.overallStatus !== 'syncing',
      90_000,
    );
    expect(done.contentTypes[0]).toMatchObject({
      status: 'completed',
      syncedCount: total,
      totalCount: total,
    });
    expect(done.warnings).toEqual([]);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen.filter((n) => n > 0 && n < total)).size).toBeGreaterThan(1);
    const pages = fake.requests.slice(before).filter((r) => r.fields.includes('products'));
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(total / 250));
    const limited = await sync({ content_types: ['products'], limit: 100 });
    expect(limited.warnings).toEqual([`products: 100 of ${total} synced (limit 100)`]);
    const listed = await server.get<StoreItemList>(`/api/shopify/products?store_id=${storeId}`, as(owner));
    expect(listed.body.total).toBe(total);
  }, 120_000);
});

describe('the store uninstalls the app', () => {
  it('its bots stop answering from it; the records stay for a reconnect', async () => {
    const product = [...shop.products.values()].find(
      (p) => p.status === 'ACTIVE' && p.variants.length === 1,
    )!;
    expect(await answer(`How much is the ${product.title}?`)).toContain(product.variants[0]!.price);
    await fake.sendWebhook(
      hooks(),
      'app/uninstalled',
      { id: 1, domain: DOMAIN },
      { shop: DOMAIN, eventId: 'e-un' },
    );
    await eventually(async () => {
      const docs = await server.database.db
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.sourceType, 'store'), inArray(documents.collectionId, [storeId])));
      return docs.length === 0;
    });
    expect(await answer(`How much is the ${product.title}?`)).not.toContain(product.variants[0]!.price);
    const status = await server.get<TrainingStatusResponse>(
      `/api/shopify/stores/training/detailed-status/${storeId}`,
      as(owner),
    );
    expect(status.body.content_types.every((t) => t.trained === 0 && t.total > 0)).toBe(true);
  });
});
