import {
  type ChatExchange,
  type GlobalSyncStatus,
  STORE_TEXTS,
  type StoreItemList,
  type StoreResponse,
  type TrackingResponse,
  type TrainingStatusResponse,
  type WooTestResponse,
} from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../../core/db/schema.js';
import { createBotViaApi } from '../../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../../test/factories.js';
import { startWooFake, type WooFake, type WooFakeStore } from '../../../test/fakes/woocommerce.js';
import { outboxText } from '../../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../../test/server.js';
import { documentTimes, settle } from '../../../test/stores.js';
import { documents } from '../../knowledge/knowledge.schema.js';
import { ORDER_TEXTS } from '../core/order-help.js';
import { storeRecords, stores, storeWebhookEvents } from '../stores.schema.js';

let server: TestServer;
let fake: WooFake;
let shop: WooFakeStore;
let owner: Account;
let other: Account;
let botId: number;
let storeId: number;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  fake = await startWooFake();
  shop = fake.addStore({ products: 150, name: 'Acme Outfitters', currency: 'USD' });
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'Shop helper' })).bot_id;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const connect = (account: Account, body: Record<string, unknown>) =>
  server.post<StoreResponse>('/api/woocommerce/connect', body, as(account));
const keys = () => ({
  store_url: shop.url,
  consumer_key: shop.consumerKey,
  consumer_secret: shop.consumerSecret,
});
const base = () => `/api/woocommerce/stores/${storeId}`;

async function settledSync(id = storeId): Promise<GlobalSyncStatus> {
  return settle(
    async () =>
      (await server.get<GlobalSyncStatus>(`/api/woocommerce/stores/${id}/sync/status`, as(owner))).body,
    (status) => status.overallStatus !== 'syncing',
  );
}

async function settledTraining(): Promise<TrainingStatusResponse> {
  return settle(
    async () => (await server.get<TrainingStatusResponse>(`${base()}/training/status`, as(owner))).body,
    (status) => !status.active,
  );
}

const ask = (message: string, conversationId?: number) =>
  server.post<ChatExchange>(
    '/api/chat/chats',
    { bot_id: botId, message, ...(conversationId ? { conversation_id: conversationId } : {}) },
    as(owner),
  );

describe('connecting a WooCommerce store', () => {
  it('refuses keys the store refuses, and stores nothing', async () => {
    const reply = await connect(owner, { ...keys(), consumer_secret: 'cs_wrong' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: STORE_TEXTS.wooKeysRefused });
    const rows = await server.database.db
      .select()
      .from(stores)
      .where(eq(stores.tenantId, owner.user.tenant_id));
    expect(rows).toEqual([]);
  });

  it('refuses an address where no WooCommerce answers', async () => {
    const reply = await connect(owner, { ...keys(), store_url: `${fake.url}/nowhere` });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: STORE_TEXTS.wooNotWooCommerce });
  });

  it('connects with keys that work, seals them, registers webhooks and links the bot', async () => {
    const reply = await connect(owner, { ...keys(), bot_id: botId });
    expect(reply.status).toBe(201);
    expect(reply.body.message).toBe('WooCommerce store connected successfully');
    expect(reply.body.store).toMatchObject({
      platform: 'woocommerce',
      name: 'Acme Outfitters',
      currency: 'USD',
      status: 'connected',
      bot_ids: [botId],
    });
    storeId = reply.body.store.id;
    const [row] = await server.database.db.select().from(stores).where(eq(stores.id, storeId));
    expect(row!.credentialsSealed).not.toContain(shop.consumerSecret);
    expect(JSON.stringify(reply.body)).not.toContain(shop.consumerSecret);
    expect(
      fake.webhooks
        .filter((w) => w.deliveryUrl.endsWith(`/api/woocommerce/webhooks/${storeId}`))
        .map((w) => w.topic),
    ).toContain('product.updated');
    const test = await server.post<WooTestResponse>(`${base()}/test`, undefined, as(owner));
    expect(test.body).toEqual({
      ok: true,
      message: STORE_TEXTS.connectionOk,
      store_name: 'Acme Outfitters',
      currency: 'USD',
    });
    const listed = await server.get<{ stores: unknown[] }>('/api/woocommerce/stores', as(owner));
    expect(listed.body.stores).toHaveLength(1);
  });
});

describe('syncing', () => {
  it('runs every type in the spec order to completed, with the global status shape', async () => {
    const started = await server.post<{ task_id: string }>(
      `${base()}/sync/global`,
      { limit: 1000 },
      as(owner),
    );
    expect(started.status).toBe(202);
    const status = await settledSync();
    expect(status.overallStatus).toBe('completed');
    expect(status.overallProgress).toBe(100);
    expect(status.contentTypes.map((t) => [t.contentType, t.status])).toEqual([
      ['products', 'completed'],
      ['categories', 'completed'],
      ['pages', 'completed'],
      ['coupons', 'completed'],
      ['orders', 'completed'],
      ['customers', 'completed'],
    ]);
    expect(status.contentTypes[0]).toMatchObject({ syncedCount: 150, totalCount: 150, progress: 100 });
    expect(status.totalSynced).toBeGreaterThan(150);
    expect(status.endTime).not.toBeNull();
  });

  it('keeps going past a failing type and ends in error with its message', async () => {
    fake.failKind('coupon', true);
    try {
      await server.post(`${base()}/sync/global`, { content_types: ['coupons', 'customers'] }, as(owner));
      const status = await settledSync();
      expect(status.overallStatus).toBe('error');
      expect(status.contentTypes.map((t) => [t.contentType, t.status])).toEqual([
        ['coupons', 'error'],
        ['customers', 'completed'],
      ]);
      expect(status.errors[0]).toMatch(/^coupons: /);
      expect(status.overallProgress).toBe(50);
    } finally {
      fake.failKind('coupon', false);
    }
  });

  it('refuses a content type it does not know', async () => {
    const reply = await server.post(`${base()}/sync/global`, { content_types: ['widgets'] }, as(owner));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: 'Unsupported content type: widgets' });
  });

  it('stops at the limit and warns that more remain', async () => {
    await server.post(`${base()}/products/sync`, { limit: 20 }, as(owner));
    const status = await settledSync();
    expect(status.overallStatus).toBe('completed');
    expect(status.warnings[0]).toMatch(/products: 20 of 150/);
    const list = await server.get<StoreItemList>(`${base()}/products?per_page=10`, as(owner));
    expect(list.body.total).toBe(150);
  });
});

describe('lists', () => {
  it('pages, searches and filters as the spec says', async () => {
    const page = await server.get<StoreItemList>(`${base()}/products?per_page=20&page=2`, as(owner));
    expect(page.body.items).toHaveLength(20);
    expect(page.body.page).toBe(2);
    const categories = await server.get<StoreItemList>(`${base()}/categories`, as(owner));
    expect(categories.body.limit).toBe(50);
    const found = await server.get<StoreItemList>(
      `${base()}/products?search=${encodeURIComponent('Hoodie')}`,
      as(owner),
    );
    expect(found.body.items.length).toBeGreaterThan(0);
    expect(found.body.items.every((i) => /hoodie/i.test(i.title))).toBe(true);
    const orders = await server.get<StoreItemList>(`${base()}/orders?customer=jane@example.com`, as(owner));
    expect(orders.body.items.map((o) => (o.data as { number: string }).number)).toEqual(['1001']);
  });

  it("reads an order's tracking from its meta and its notes", async () => {
    const orders = await server.get<StoreItemList>(`${base()}/orders?search=1001`, as(owner));
    const order = orders.body.items[0]!;
    const tracking = await server.get<TrackingResponse>(`${base()}/orders/${order.id}/tracking`, as(owner));
    expect(tracking.status).toBe(200);
    expect(tracking.body.tracking.map((t) => t.number)).toContain('1Z999');
  });

  it('deletes a product and its knowledge, and refuses to delete an order', async () => {
    const list = await server.get<StoreItemList>(`${base()}/products?per_page=1`, as(owner));
    const victim = list.body.items[0]!;
    expect((await server.delete(`${base()}/products/${victim.id}`, as(owner))).status).toBe(200);
    expect((await server.get(`${base()}/products/${victim.id}`, as(owner))).status).toBe(404);
    const orders = await server.get<StoreItemList>(`${base()}/orders`, as(owner));
    const refused = await server.delete(`${base()}/orders/${orders.body.items[0]!.id}`, as(owner));
    expect(refused.status).toBe(400);
  });
});

describe('training and answers', () => {
  it('trains products, categories, pages and coupons with per-type status', async () => {
    await server.post(`${base()}/sync/global`, { limit: 1000 }, as(owner));
    await settledSync();
    const started = await server.post(`${base()}/train`, {}, as(owner));
    expect(started.status).toBe(202);
    const status = await settledTraining();
    expect(status.complete).toBe(true);
    const products = status.content_types.find((t) => t.content_type === 'products')!;
    expect(products).toMatchObject({ total: 150, trained: 150, failed: 0, progress: 100 });
    const list = await server.get<StoreItemList>(`${base()}/products?per_page=5`, as(owner));
    expect(list.body.items.every((i) => i.trained && i.training_status === 'completed')).toBe(true);
  });

  it("answers a product's price with a link to its page", async () => {
    const product = (
      await server.get<StoreItemList>(`${base()}/products?search=Backpack&per_page=1`, as(owner))
    ).body.items[0]!;
    const price = (product.data as { price: string }).price;
    const reply = await ask(`How much is the ${product.title}?`);
    const answer = reply.body.bot_message!;
    expect(answer.message).toContain(price);
    expect(answer.sources.map((s) => s.page_url)).toContain(product.url);
  });

  it('a webhook with a new price retrains that product only, and the bot answers the new price', async () => {
    const product = (
      await server.get<StoreItemList>(`${base()}/products?search=Backpack&per_page=1`, as(owner))
    ).body.items[0]!;
    const before = await documentTimes(server, storeId);
    const external = Number(product.external_id);
    const updated = fake.setProduct(shop, {
      id: external,
      price: '123.45',
      regular_price: '123.45',
      sale_price: '',
    });
    const secret = webhookSecretOf(storeId);
    const url = `${server.url}/api/woocommerce/webhooks/${storeId}`;
    const sent = await fake.sendWebhook(url, 'product.updated', updated, {
      secret,
      deliveryId: 'delivery-1',
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => (await ask(`How much is the ${product.title}?`)).body.bot_message!.message, {
        timeout: 15_000,
        interval: 200,
      })
      .toContain('123.45');
    const after = await documentTimes(server, storeId);
    const changed = [...after].filter(([id, at]) => before.get(id) !== at).map(([id]) => id);
    expect(changed).toEqual([product.id]);
    // The same delivery again changes nothing: no second job.
    await fake.sendWebhook(url, 'product.updated', updated, { secret, deliveryId: 'delivery-1' });
    const events = await server.database.db
      .select()
      .from(storeWebhookEvents)
      .where(eq(storeWebhookEvents.eventId, `${storeId}:delivery-1`));
    expect(events).toHaveLength(1);
    const webhookJobs = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.name, 'stores.webhook'), eq(jobs.tenantId, owner.user.tenant_id)));
    expect(webhookJobs[0]!.n).toBe(1);
  });

  it('never offers a coupon past its expiry though WooCommerce keeps it published', async () => {
    expect((await ask('Do you have a welcome coupon code?')).body.bot_message!.message).toMatch(/welcome10/i);
    const coupon = shop.records.coupon.get(301)!;
    const expired = fake.setRecord(shop, 'coupon', { ...coupon, date_expires_gmt: '2020-01-31T00:00:00' });
    const url = `${server.url}/api/woocommerce/webhooks/${storeId}`;
    const secret = webhookSecretOf(storeId);
    await fake.sendWebhook(url, 'coupon.updated', expired, { secret, deliveryId: 'coupon-expired' });
    await expect
      .poll(async () => (await ask('Do you have a welcome coupon code?')).body.bot_message!.message, {
        timeout: 15_000,
        interval: 200,
      })
      .not.toMatch(/welcome10/i);
  });

  it('stops offering a product set to draft, as soon as its webhook comes', async () => {
    const product = (
      await server.get<StoreItemList>(`${base()}/products?search=Backpack&per_page=1`, as(owner))
    ).body.items[0]!;
    const drafted = fake.setProduct(shop, { id: Number(product.external_id), status: 'draft' });
    const url = `${server.url}/api/woocommerce/webhooks/${storeId}`;
    const secret = webhookSecretOf(storeId);
    await fake.sendWebhook(url, 'product.updated', drafted, { secret, deliveryId: 'product-draft' });
    await expect
      .poll(async () => (await ask(`How much is the ${product.title}?`)).body.bot_message!.message, {
        timeout: 15_000,
        interval: 200,
      })
      .not.toContain('123.45');
  });

  it('refuses a delivery whose signature does not match, and stores nothing', async () => {
    const secret = webhookSecretOf(storeId);
    const url = `${server.url}/api/woocommerce/webhooks/${storeId}`;
    const tampered = await fake.sendWebhook(
      url,
      'product.updated',
      { id: 1, name: 'Hacked', price: '0.01' },
      { secret, tamper: true, deliveryId: 'delivery-x' },
    );
    expect(tampered.status).toBe(401);
    const wrongSecret = await fake.sendWebhook(
      url,
      'product.updated',
      { id: 1, name: 'Hacked' },
      { secret: 'guess', deliveryId: 'delivery-y' },
    );
    expect(wrongSecret.status).toBe(401);
    const events = await server.database.db
      .select()
      .from(storeWebhookEvents)
      .where(sql`${storeWebhookEvents.eventId} IN (${`${storeId}:delivery-x`}, ${`${storeId}:delivery-y`})`);
    expect(events).toEqual([]);
  });

  it("forgets a type's training on request", async () => {
    const reply = await server.delete(`${base()}/content/train/coupons`, as(owner));
    expect(reply.body).toEqual({ message: STORE_TEXTS.trainingCleared });
    const status = (await server.get<TrainingStatusResponse>(`${base()}/training/status`, as(owner))).body;
    expect(status.content_types.find((t) => t.content_type === 'coupons')!.trained).toBe(0);
  });
});

describe('order help in chat', () => {
  it('asks for the contact, then answers only when number and email match', async () => {
    const first = await ask('Where is my order #1001?');
    expect(first.body.bot_message!.message).toBe(ORDER_TEXTS.askContact('#1001'));
    const conversation = first.body.conversation_id;
    const second = await ask('jane@example.com', conversation);
    const answer = second.body.bot_message!;
    expect(answer.answer_mode).toBe('order');
    expect(answer.message).toMatch(/^Order #1001/);
    expect(answer.message).toContain('1Z999');
    expect(answer.sources).toEqual([]);
  });

  it('answers a wrong pair exactly as a missing order, and limits the tries', async () => {
    const wrong = await ask('Status of order 1001 please, my email is john@example.com');
    expect(wrong.body.bot_message!.message).toBe(ORDER_TEXTS.notFound);
    const conversation = wrong.body.conversation_id;
    const missing = await ask('order 999999, email jane@example.com', conversation);
    expect(missing.body.bot_message!.message).toBe(ORDER_TEXTS.notFound);
    for (let i = 0; i < 3; i++) await ask(`order ${5000 + i}, email jane@example.com`, conversation);
    const limited = await ask('order 1001, email jane@example.com', conversation);
    expect(limited.body.bot_message!.message).toBe(ORDER_TEXTS.tooMany);
    expect(limited.body.bot_message!.message).not.toContain('1Z999');
  });
});

describe('order help against guessing', () => {
  it('refuses guesses at one order number from 30 conversations after the limit, answered as a wrong pair', async () => {
    const replies: string[] = [];
    for (let i = 0; i < 30; i++)
      replies.push((await ask(`order 1001, my email is guess${i}@example.com`)).body.bot_message!.message);
    expect(new Set(replies)).toEqual(new Set([ORDER_TEXTS.notFound]));
    // Locked: even the right pair, from a fresh conversation, gets the same answer and no order.
    const right = await ask('order 1001, email jane@example.com');
    expect(right.body.bot_message!.message).toBe(ORDER_TEXTS.notFound);
    expect(right.body.bot_message!.message).not.toContain('1Z999');
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 to another workspace for every store route, and nothing of the store's", async () => {
    const order = (await server.get<StoreItemList>(`${base()}/orders`, as(owner))).body.items[0]!;
    const product = (await server.get<StoreItemList>(`${base()}/products?per_page=1`, as(owner))).body
      .items[0]!;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `${base()}`],
      ['POST', `${base()}/test`],
      ['DELETE', `${base()}`],
      ['POST', `${base()}/link-bot`, { bot_id: botId }],
      ['POST', `${base()}/unlink-bot`, { bot_id: botId }],
      ['POST', `${base()}/products/sync`, { limit: 5 }],
      ['POST', `${base()}/sync/global`, {}],
      ['GET', `${base()}/sync/status`],
      ['GET', `${base()}/products`],
      ['GET', `${base()}/products/${product.id}`],
      ['GET', `${base()}/orders/${order.id}/tracking`],
      ['DELETE', `${base()}/products/${product.id}`],
      ['POST', `${base()}/content/train`, { content_type: 'products' }],
      ['DELETE', `${base()}/content/train/products`],
      ['POST', `${base()}/train`, {}],
      ['GET', `${base()}/training/status`],
      ['GET', `/api/woocommerce/stores/training/detailed-status/${storeId}`],
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
    expect(
      (await server.get<{ stores: unknown[] }>('/api/woocommerce/stores', as(other))).body.stores,
    ).toEqual([]);
    const [row] = await server.database.db.select().from(stores).where(eq(stores.id, storeId));
    expect(row).toBeDefined();
  });

  it('refuses a teammate without the bots permission (403)', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await server.get(`${base()}/products`, as(member))).status).toBe(403);
    expect((await server.post('/api/woocommerce/connect', keys(), as(member))).status).toBe(403);
  });

  it('deleting the store removes its records and knowledge and unlinks the bot', async () => {
    const reply = await server.delete(base(), as(owner));
    expect(reply.body).toEqual({ message: STORE_TEXTS.wooDisconnected });
    const left = await server.database.db
      .select()
      .from(storeRecords)
      .where(eq(storeRecords.storeId, storeId));
    expect(left).toEqual([]);
    const docs = await server.database.db
      .select()
      .from(documents)
      .where(and(eq(documents.sourceType, 'store'), eq(documents.collectionId, storeId)));
    expect(docs).toEqual([]);
    const bot = await server.get<{ woocommerce_store_id: number | null }>(
      `/api/chat/bots/${botId}`,
      as(owner),
    );
    expect(bot.body.woocommerce_store_id).toBeNull();
  });
});

/** The secret Parley gave the store's webhooks when it registered them. */
function webhookSecretOf(id: number): string {
  const hooks = fake.webhooks.filter((w) => w.deliveryUrl.endsWith(`/api/woocommerce/webhooks/${id}`));
  return hooks[0]!.secret;
}
