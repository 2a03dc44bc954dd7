import {
  type ChatExchange,
  type GlobalSyncStatus,
  STORE_TEXTS,
  type StoreItem,
  type StoreItemList,
  type StoreResponse,
  type TrainingStatusResponse,
} from '@parley/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, mailOutbox } from '../../../core/db/schema.js';
import { createBotViaApi } from '../../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../../test/factories.js';
import {
  type FakeShop,
  restOrder,
  restProduct,
  type ShopifyFake,
  startShopifyFake,
} from '../../../test/fakes/shopify.js';
import { outboxText } from '../../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { documentTimes, settle } from '../../../test/stores.js';
import { documents } from '../../knowledge/knowledge.schema.js';
import { toItem } from '../stores.queries.js';
import { storeRecords, stores } from '../stores.schema.js';

const DOMAIN = 'acme-outfitters.myshopify.com';
const CALLBACK = 'http://parley.test/integrations/shopify/callback';
let server: TestServer;
let fake: ShopifyFake;
let shop: FakeShop;
let owner: Account;
let other: Account;
let botId: number;
let storeId: number;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  // A small bucket: a client that did not pace itself would be refused (THROTTLED) while syncing.
  fake = await startShopifyFake({ bucket: { max: 300, restoreRate: 400 } });
  shop = fake.addShop(DOMAIN, { name: 'Acme Outfitters', currency: 'USD', products: 120 });
  server = await startTestServer({
    env: {
      SHOPIFY_SHOP_URL: fake.shopUrlTemplate,
      SHOPIFY_API_KEY: fake.apiKey,
      SHOPIFY_API_SECRET: fake.apiSecret,
    },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'Store helper' })).bot_id;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** Starts OAuth as `account` and answers what Shopify sends the browser back with. */
async function consent(account: Account, body: Record<string, unknown> = { shop_url: DOMAIN }) {
  const started = await server.post<{ authorization_url: string }>('/api/shopify/connect', body, as(account));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const url = new URL(started.body.authorization_url);
  return fake.approve(DOMAIN, {
    redirectUri: url.searchParams.get('redirect_uri')!,
    state: url.searchParams.get('state')!,
  });
}

const storeRows = (tenantId: number) =>
  server.database.db.select().from(stores).where(eq(stores.tenantId, tenantId));

async function settledSync(): Promise<GlobalSyncStatus> {
  return settle(
    async () =>
      (
        await server.get<GlobalSyncStatus>(
          `/api/integrations/shopify/stores/${storeId}/sync/status`,
          as(owner),
        )
      ).body,
    (status) => status.overallStatus !== 'syncing',
  );
}

async function settledTraining(): Promise<TrainingStatusResponse> {
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

const list = (type: string, query = '') =>
  server.get<StoreItemList>(`/api/shopify/${type}?store_id=${storeId}${query}`, as(owner));
const ask = (message: string) =>
  server.post<ChatExchange>('/api/chat/chats', { bot_id: botId, message }, as(owner));
const hooks = () => `${server.url}/api/shopify/webhooks`;

describe('connecting a Shopify store', () => {
  it('refuses an address that is not a myshopify.com shop', async () => {
    const reply = await server.post('/api/shopify/connect', { shop_url: 'evil.example.com' }, as(owner));
    expect(reply.status).toBe(400);
    expect((reply.body as { detail: string }).detail).toContain(STORE_TEXTS.shopDomainInvalid);
  });

  it('sends the merchant to Shopify with the app key, the scopes and a signed state', async () => {
    const reply = await server.post<{ authorization_url: string }>(
      '/api/shopify/connect',
      { shop_url: `https://${DOMAIN}/admin` },
      as(owner),
    );
    const url = new URL(reply.body.authorization_url);
    expect(url.pathname).toBe(`/shops/${DOMAIN}/admin/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fake.apiKey);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('scope')).toContain('read_products');
    expect(url.searchParams.get('state')!.length).toBeGreaterThan(20);
  });

  it('refuses a callback whose HMAC does not match, and stores nothing', async () => {
    const params = await consent(owner);
    const reply = await server.post('/api/shopify/callback', { ...params, code: 'forged-code' }, as(owner));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: STORE_TEXTS.hmacInvalid });
    expect(await storeRows(owner.user.tenant_id)).toEqual([]);
  });

  it("refuses another workspace's state", async () => {
    const params = await consent(owner);
    const reply = await server.post('/api/shopify/callback', params, as(other));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: STORE_TEXTS.stateInvalid });
  });

  it('connects: code exchanged, token sealed, webhooks registered, the bot linked; the state works once', async () => {
    const params = await consent(owner, { shop_url: DOMAIN, bot_id: botId });
    const reply = await server.post<StoreResponse>(
      '/api/shopify/callback',
      { ...params, platform: 'shopify' },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.message).toBe('Shopify store connected successfully');
    expect(reply.body.store).toMatchObject({
      platform: 'shopify',
      domain: DOMAIN,
      name: 'Acme Outfitters',
      currency: 'USD',
      bot_ids: [botId],
    });
    storeId = reply.body.store.id;
    const [row] = await storeRows(owner.user.tenant_id);
    expect(row!.credentialsSealed).not.toContain(shop.token);
    expect(JSON.stringify(reply.body)).not.toMatch(/shpat|access_token/i);
    expect(shop.webhookSubscriptions.map((w) => w.topic)).toEqual(
      expect.arrayContaining(['PRODUCTS_UPDATE', 'APP_UNINSTALLED']),
    );
    const again = await server.post('/api/shopify/callback', params, as(owner));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: STORE_TEXTS.stateUsed });
    expect(
      (await server.get<{ stores: unknown[] }>('/api/shopify/stores', as(owner))).body.stores,
    ).toHaveLength(1);
  });
});

describe('syncing through the GraphQL Admin API', () => {
  it('syncs every type within the cost limit, never throttled', async () => {
    const started = await server.post(
      `/api/integrations/shopify/stores/${storeId}/sync/global`,
      { limit: 1000 },
      as(owner),
    );
    expect(started.status).toBe(202);
    const status = await settledSync();
    expect(status.overallStatus).toBe('completed');
    expect(status.contentTypes.map((t) => t.contentType)).toEqual([
      'products',
      'collections',
      'blog-articles',
      'policies',
      'discounts',
      'orders',
      'customers',
    ]);
    expect(status.contentTypes[0]).toMatchObject({ status: 'completed', syncedCount: 120 });
    expect(fake.throttled).toBe(0);
  });

  it('lists with the spec page sizes, query and paging', async () => {
    const products = await list('products');
    expect(products.body).toMatchObject({ total: 120, limit: 50, page: 1 });
    expect(products.body.items).toHaveLength(50);
    const found = await list('products', '&query=Tote');
    expect(found.body.items.every((p) => /tote/i.test(p.title))).toBe(true);
    expect(found.body.total_filtered).toBeLessThan(120);
    for (const type of ['collections', 'blog-articles', 'policies', 'discounts']) {
      expect((await list(type)).body.total, type).toBeGreaterThan(0);
    }
    const customers = await server.get<StoreItemList>(
      `/api/shopify/customers?store_id=${storeId}`,
      as(owner),
    );
    expect(customers.body.limit).toBe(1000);
    const orders = await server.get<StoreItemList>(`/api/shopify/orders?store_id=${storeId}`, as(owner));
    expect(orders.body.items.map((o) => (o.data as { number: string }).number).sort()).toEqual([
      '#1001',
      '#1002',
    ]);
  });

  it('lists a page of records as they are stored, with both totals, past the end too', async () => {
    const stored = await server.database.db
      .select()
      .from(storeRecords)
      .where(and(eq(storeRecords.storeId, storeId), eq(storeRecords.kind, 'product')))
      .orderBy(desc(storeRecords.id));
    const second = await list('products', '&limit=7&page=2');
    expect(second.body).toEqual({
      items: stored.slice(7, 14).map(toItem),
      total: 120,
      total_filtered: 120,
      page: 2,
      limit: 7,
    });
    const tote = stored.filter((row) => /tote/i.test(row.title));
    const past = await list('products', '&query=tote&page=99');
    expect(past.body).toEqual({ items: [], total: 120, total_filtered: tote.length, page: 99, limit: 50 });
  });

  it('reads the store again with force_refresh', async () => {
    shop.setProduct({ title: 'Brand New Parka' });
    const refreshed = await list('products', '&query=Parka&force_refresh=true');
    expect(refreshed.body.items.map((p) => p.title)).toContain('Brand New Parka');
  });

  it("refuses a type it does not know, in the spec's words", async () => {
    const reply = await server.post(
      `/api/integrations/shopify/stores/${storeId}/sync/global`,
      { content_types: ['widgets'] },
      as(owner),
    );
    expect(reply.body).toEqual({ detail: 'Unsupported content type: widgets' });
    expect((await server.get('/api/shopify/widgets?store_id=1', as(owner))).status).toBe(400);
  });

  it("deletes by Shopify's id", async () => {
    const product = (await list('products', '&limit=1')).body.items[0]!;
    const numeric = product.external_id.split('/').pop();
    const reply = await server.delete(
      `/api/shopify/products/${numeric}?store_id=${storeId}&by_shopify_id=true`,
      as(owner),
    );
    expect(reply.body).toEqual({ message: STORE_TEXTS.deleted });
    expect((await list('products')).body.total).toBe(120);
  });
});

describe('training, answers and webhooks', () => {
  it('trains globally and answers a price with the product page', async () => {
    const started = await server.post(
      `/api/integrations/shopify/stores/${storeId}/training/global`,
      {},
      as(owner),
    );
    expect(started.status).toBe(202);
    const status = await settledTraining();
    expect(status.complete).toBe(true);
    expect(status.content_types.find((t) => t.content_type === 'products')!.failed).toBe(0);
    const product = [...shop.products.values()].find((p) => p.variants.length === 1)!;
    const reply = await ask(`How much is the ${product.title}?`);
    expect(reply.body.bot_message!.message).toContain(product.variants[0]!.price);
    expect(reply.body.bot_message!.sources.map((s) => s.page_url)).toContain(
      `${shop.primaryDomain}/products/${product.handle}`,
    );
  });

  it('a products/update webhook retrains that product alone and the bot answers the new price', async () => {
    const product = [...shop.products.values()].find(
      (p) => p.variants.length === 1 && p.status === 'ACTIVE',
    )!;
    const before = await documentTimes(server, storeId);
    const changed = shop.setProduct({ ...product, variants: [{ ...product.variants[0]!, price: '321.00' }] });
    const sent = await fake.sendWebhook(hooks(), 'products/update', restProduct(changed), {
      shop: DOMAIN,
      eventId: 'evt-1',
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => (await ask(`How much is the ${product.title}?`)).body.bot_message!.message, {
        timeout: 15_000,
        interval: 200,
      })
      .toContain('321.00');
    const after = await documentTimes(server, storeId);
    const record = (await list('products', `&query=${encodeURIComponent(product.title)}`)).body.items[0]!;
    expect([...after].filter(([id, at]) => before.get(id) !== at).map(([id]) => id)).toEqual([record.id]);
    await fake.sendWebhook(hooks(), 'products/update', restProduct(changed), {
      shop: DOMAIN,
      eventId: 'evt-1',
    });
    const webhookJobs = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.name, 'stores.webhook'), eq(jobs.tenantId, owner.user.tenant_id)));
    expect(webhookJobs[0]!.n).toBe(1);
  });

  it('refuses a delivery with a bad HMAC and stores nothing', async () => {
    const product = [...shop.products.values()][0]!;
    const tampered = await fake.sendWebhook(
      hooks(),
      'products/update',
      restProduct({ ...product, title: 'Hacked' }),
      { shop: DOMAIN, tamper: true },
    );
    expect(tampered.status).toBe(401);
    const wrong = await fake.sendWebhook(hooks(), 'products/update', restProduct(product), {
      shop: DOMAIN,
      secret: 'not-the-secret',
    });
    expect(wrong.status).toBe(401);
    const hacked = await server.database.db
      .select()
      .from(storeRecords)
      .where(eq(storeRecords.title, 'Hacked'));
    expect(hacked).toEqual([]);
  });
});

describe('orders', () => {
  const order = async (number: string) =>
    (await server.get<StoreItemList>(`/api/shopify/orders?store_id=${storeId}&query=${number}`, as(owner)))
      .body.items[0]!;

  it('answers an order in chat only when number and email match', async () => {
    const right = await ask('Where is my order #1001? My email is jane@example.com');
    expect(right.body.bot_message!.message).toContain('1Z999AA10123456784');
    const wrong = await ask('Where is my order #1001? My email is john@example.com');
    expect(wrong.body.bot_message!.message).not.toContain('1Z999');
  });

  it('cancels an order with a reason, and refunds part of another', async () => {
    const target = await order('1002');
    const cancelled = await server.post<{ message: string; order: StoreItem }>(
      `/api/shopify/orders/${target.id}/cancel`,
      { reason: 'customer' },
      as(owner),
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.message).toBe(STORE_TEXTS.orderCancelled);
    expect((cancelled.body.order.data as { cancelled_at: string | null }).cancelled_at).not.toBeNull();
    const paid = await order('1001');
    const refunded = await server.post<{ message: string; order: StoreItem }>(
      `/api/shopify/orders/${paid.id}/refund`,
      { amount: '10.00', note: 'Scuffed' },
      as(owner),
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((refunded.body.order.data as { refunded: string }).refunded).toBe('10.00');
    const tooMuch = await server.post(
      `/api/shopify/orders/${paid.id}/refund`,
      { amount: '9999.00' },
      as(owner),
    );
    expect(tooMuch.status).toBe(400);
    const bad = await server.post(`/api/shopify/orders/${paid.id}/refund`, { amount: '-5' }, as(owner));
    expect(bad.status).toBe(400);
  });

  it('keeps an order fresh from its webhook', async () => {
    const fakeOrder = shop.order(1001)!;
    fakeOrder.fulfillments = [{ company: 'DHL', number: 'DHL123', url: null, status: 'DELIVERED' }];
    await fake.sendWebhook(hooks(), 'orders/updated', restOrder(shop, fakeOrder), {
      shop: DOMAIN,
      eventId: 'evt-order',
    });
    await expect
      .poll(async () => JSON.stringify((await order('1001')).data), { timeout: 10_000, interval: 100 })
      .toContain('DHL123');
  });
});

describe('privacy and uninstall webhooks', () => {
  it("customers/data_request mails the store's owner what Parley holds", async () => {
    await fake.sendWebhook(
      hooks(),
      'customers/data_request',
      { shop_domain: DOMAIN, customer: { id: 9002, email: 'john@example.com' } },
      { shop: DOMAIN, eventId: 'evt-dr' },
    );
    const text = await outboxText(server.database, owner.user.email, 10_000);
    expect(text).toContain('john@example.com');
  });

  it('customers/redact erases the customer and their orders', async () => {
    await fake.sendWebhook(
      hooks(),
      'customers/redact',
      { shop_domain: DOMAIN, customer: { id: 9002, email: 'john@example.com' }, orders_to_redact: [3002] },
      { shop: DOMAIN, eventId: 'evt-cr' },
    );
    await expect
      .poll(
        async () =>
          JSON.stringify((await server.get(`/api/shopify/customers?store_id=${storeId}`, as(owner))).body),
        { timeout: 10_000 },
      )
      .not.toContain('john@example.com');
    const orders = await server.get<StoreItemList>(`/api/shopify/orders?store_id=${storeId}`, as(owner));
    expect(orders.body.items.map((o) => (o.data as { number: string }).number)).toEqual(['#1001']);
  });

  it('app/uninstalled marks the store disconnected; a sync is then refused', async () => {
    await fake.sendWebhook(
      hooks(),
      'app/uninstalled',
      { id: 1, domain: DOMAIN },
      { shop: DOMAIN, eventId: 'evt-un' },
    );
    await expect
      .poll(
        async () =>
          (await server.get<{ stores: { status: string }[] }>('/api/shopify/stores', as(owner))).body
            .stores[0]?.status,
        { timeout: 10_000 },
      )
      .toBe('disconnected');
    const sync = await server.post(`/api/integrations/shopify/stores/${storeId}/sync/global`, {}, as(owner));
    expect(sync.status).toBe(404);
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 to another workspace's ids on every store route", async () => {
    const item = (await list('products', '&limit=1')).body.items[0]!;
    const orderId = (await server.get<StoreItemList>(`/api/shopify/orders?store_id=${storeId}`, as(owner)))
      .body.items[0]!.id;
    const calls: Array<[string, string, unknown?]> = [
      ['DELETE', `/api/shopify/stores/${storeId}`],
      ['POST', `/api/shopify/stores/${storeId}/link-bot`, { bot_id: botId }],
      ['POST', `/api/shopify/stores/${storeId}/unlink-bot`, { bot_id: botId }],
      ['GET', `/api/shopify/orders?store_id=${storeId}`],
      ['GET', `/api/shopify/orders/${orderId}`],
      ['POST', `/api/shopify/orders/${orderId}/cancel`, {}],
      ['POST', `/api/shopify/orders/${orderId}/refund`, {}],
      ['POST', '/api/shopify/orders/sync', { store_id: storeId }],
      ['POST', '/api/shopify/customers/sync', { store_id: storeId }],
      ['GET', `/api/shopify/customers?store_id=${storeId}`],
      ['GET', `/api/shopify/products?store_id=${storeId}`],
      ['POST', '/api/shopify/products/sync', { store_id: storeId }],
      ['POST', `/api/shopify/products/train/${storeId}`, {}],
      ['DELETE', `/api/shopify/products/${item.id}?store_id=${storeId}`],
      ['POST', `/api/shopify/train/${storeId}`, { content_types: ['products'] }],
      ['POST', `/api/integrations/shopify/stores/${storeId}/sync/global`, {}],
      ['GET', `/api/integrations/shopify/stores/${storeId}/sync/status`],
      ['POST', `/api/integrations/shopify/stores/${storeId}/training/global`, {}],
      ['GET', `/api/shopify/stores/training/detailed-status/${storeId}`],
    ];
    for (const [method, path, body] of calls) {
      const reply =
        method === 'GET'
          ? await server.get(path, as(other))
          : method === 'DELETE'
            ? await server.delete(path, as(other))
            : await server.post(path, body ?? {}, as(other));
      expect([path, reply.status]).toEqual([path, 404]);
    }
    expect(await storeRows(owner.user.tenant_id)).toHaveLength(1);
  });

  it('refuses a teammate without the bots permission (403)', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await server.get('/api/shopify/stores', as(member))).status).toBe(403);
    expect((await server.post('/api/shopify/connect', { shop_url: DOMAIN }, as(member))).status).toBe(403);
  });

  it('shop/redact erases the store with everything in it', async () => {
    await fake.sendWebhook(
      hooks(),
      'shop/redact',
      { shop_domain: DOMAIN },
      { shop: DOMAIN, eventId: 'evt-sr' },
    );
    await expect
      .poll(async () => (await storeRows(owner.user.tenant_id)).length, { timeout: 10_000 })
      .toBe(0);
    const docs = await server.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.sourceType, 'store'), eq(documents.collectionId, storeId)));
    expect(docs).toEqual([]);
    const mails = await server.database.db.select().from(mailOutbox);
    expect(mails.length).toBeGreaterThan(0);
  });
});
