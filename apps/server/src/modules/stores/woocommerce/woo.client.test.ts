import { createServer, type Server } from 'node:http';
import type { StoreKind } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooFake, type WooFake, type WooFakeStore } from '../../../test/fakes/woocommerce.js';
import type { RemoteRecord, StoreConnection } from '../core/adapter.js';
import { recordFromWebhook, verifyWooSignature, wooAdapter } from './woo.adapter.js';
import { createWooClient, normaliseStoreUrl, WooError } from './woo.client.js';

let fake: WooFake;
let store: WooFakeStore;
const adapter = wooAdapter({ CRAWLER_ALLOW_PRIVATE: true });

const connectionOf = (s: WooFakeStore, credentials?: Record<string, string>): StoreConnection => ({
  storeId: 1,
  tenantId: 1,
  domain: s.url,
  credentials: credentials ?? { consumerKey: s.consumerKey, consumerSecret: s.consumerSecret },
});

async function collect(kind: StoreKind, limit: number, s = store, onTotal?: (n: number) => void) {
  const records: RemoteRecord[] = [];
  const signal = new AbortController().signal;
  for await (const page of adapter.fetch(connectionOf(s), kind, { limit, signal, onTotal }))
    records.push(...page);
  return records;
}

const productRequests = (s: WooFakeStore) =>
  fake.requests.filter((r) => r === `GET ${new URL(s.url).pathname}/wp-json/wc/v3/products`).length;

beforeAll(async () => {
  fake = await startWooFake();
  store = fake.addStore({ products: 250, name: 'Acme Outfitters', currency: 'EUR' });
});
afterAll(() => fake.close());

describe('WooCommerce adapter over the fake', () => {
  it('pages 250 products 100 at a time and stops at the limit', async () => {
    let total = 0;
    const all = await collect('product', 1000, store, (n) => {
      total = n;
    });
    expect(all).toHaveLength(250);
    expect(total).toBe(250);
    expect(productRequests(store)).toBe(3);
    expect(all.map((r) => r.externalId).slice(0, 3)).toEqual(['1', '2', '3']);

    const before = productRequests(store);
    expect(await collect('product', 150)).toHaveLength(150);
    expect(productRequests(store) - before).toBe(2);
  });

  it('maps a product: sale price, stock, address, categories, text description', async () => {
    const [sale, soldOut] = (await collect('product', 11)).filter((r) =>
      ['7', '11'].includes(r.externalId),
    ) as [RemoteRecord<'product'>, RemoteRecord<'product'>];
    expect(sale.title).toBe('Olive T-Shirt 7');
    expect(sale.url).toBe(`${store.url}/product/olive-t-shirt-7/`);
    expect(sale.status).toBe('publish');
    expect(sale.data.price).toBe('14.39');
    expect(sale.data.currency).toBe('EUR');
    expect(sale.data.categories).toEqual(['Clothing']);
    expect(sale.data.variants[0]).toMatchObject({
      price: '14.39',
      compare_at_price: '17.99',
      inventory: 12,
      available: true,
      sku: 'SKU-7',
    });
    expect(sale.data.description).toContain('## About the t-shirt');
    expect(sale.data.description).not.toContain('<');
    expect(soldOut.data.variants[0]).toMatchObject({
      inventory: 0,
      available: false,
      compare_at_price: null,
    });
  });

  it('maps categories (with product titles), pages, coupons and customers', async () => {
    const [clothing] = (await collect('category', 1)) as RemoteRecord<'category'>[];
    expect(clothing!.title).toBe('Clothing');
    expect(clothing!.data.product_titles.length).toBeGreaterThan(0);
    const pages = (await collect('page', 10)) as RemoteRecord<'page'>[];
    expect(pages.find((p) => p.title === 'Shipping and returns')?.data.body).toContain('## Returns');
    const coupons = (await collect('coupon', 10)) as RemoteRecord<'coupon'>[];
    expect(coupons.map((c) => c.data.summary)).toEqual([
      '10% off the order; 10% off your first order',
      'free shipping; minimum spend 50.00; expires 2030-12-31',
    ]);
    const customers = await collect('customer', 10);
    expect(customers.map((c) => c.lookupKey)).toEqual(['jane@example.com', 'john@example.com']);
  });

  it('refuses wrong keys as an auth refusal, and tells a site without WooCommerce', async () => {
    const signal = new AbortController().signal;
    for (const credentials of [
      { consumerKey: 'ck_wrong', consumerSecret: store.consumerSecret },
      { consumerKey: store.consumerKey, consumerSecret: 'cs_wrong' },
    ]) {
      const pages = adapter.fetch(connectionOf(store, credentials), 'order', { limit: 10, signal });
      const error = await pages[Symbol.asyncIterator]()
        .next()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WooError);
      expect((error as WooError).isAuthRefusal).toBe(true);
      expect((error as WooError).status).toBe(401);
    }
    const client = createWooClient({
      url: `${fake.url}/no-shop`,
      consumerKey: 'a',
      consumerSecret: 'b',
      allowPrivate: true,
    });
    await expect(client.testConnection()).rejects.toMatchObject({ reason: 'not_woocommerce' });
  });

  it('tests the connection: the site name and the currency', async () => {
    const client = createWooClient({ ...store, url: `${store.url}/wp-json/wc/v3/`, allowPrivate: true });
    expect(await client.testConnection()).toEqual({ storeName: 'Acme Outfitters', currency: 'EUR' });
  });

  it('refuses a loopback or private store address unless private addresses are allowed', async () => {
    const closed = wooAdapter({ CRAWLER_ALLOW_PRIVATE: false });
    const before = fake.requests.length;
    const pages = closed.fetch(connectionOf(store), 'product', {
      limit: 10,
      signal: new AbortController().signal,
    });
    await expect(pages[Symbol.asyncIterator]().next()).rejects.toMatchObject({ reason: 'blocked' });
    const resolve = async () => [{ address: '10.0.0.7', family: 4 as const }];
    const named = createWooClient({
      ...store,
      url: 'https://shop.example.com',
      allowPrivate: false,
      resolve,
    });
    await expect(named.testConnection()).rejects.toThrow(/10\.0\.0\.7/);
    expect(fake.requests.length).toBe(before);
    expect(await createWooClient({ ...store, allowPrivate: true }).currency()).toBe('EUR');
  });

  it('reads tracking from the shipment-tracking meta and from order notes', async () => {
    const tracking = await adapter.tracking!(connectionOf(store), '1001');
    expect(tracking).toEqual([
      {
        company: 'UPS',
        number: '1Z999AA10123456784',
        url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        status: null,
      },
      { company: 'UPS', number: '1Z999', url: 'https://www.ups.com/track?tracknum=1Z999', status: null },
    ]);
  });

  it('finds an order by its number, fresh, or answers null', async () => {
    const order = await adapter.findOrder!(connectionOf(store), '#1001');
    expect(order).toMatchObject({
      externalId: '1001',
      lookupKey: '1001',
      data: { number: '1001', email: 'jane@example.com', phone: '+15550001111', financial_status: 'paid' },
    });
    expect(order!.data.tracking).toHaveLength(1);
    expect(await adapter.findOrder!(connectionOf(store), '9999')).toBeNull();
  });

  it("reads a variable product's variations: combined options, shared stock, none unpriced", async () => {
    const shop = fake.addStore({ products: 3 });
    fake.setVariations(shop, 2, [
      {
        attributes: [
          { name: 'Size', option: 'S' },
          { name: 'Colour', option: 'Red' },
        ],
        manage_stock: 'parent',
      },
      { attributes: [{ name: 'Size', option: 'M' }], manage_stock: false, stock_status: 'onbackorder' },
      { attributes: [{ name: 'Size', option: 'L' }], regular_price: '' },
    ]);
    const [first] = shop.records.product.get(2)!.variations as number[];
    const payload = fake.setVariation(shop, 2, { id: first!, regular_price: '9.00' });
    const records = (await collect('product', 10, shop)) as RemoteRecord<'product'>[];
    const variable = records.find((r) => r.externalId === '2')!;
    expect(variable.data.price).toBe('9.00');
    expect(variable.data.variants).toEqual([
      expect.objectContaining({ title: 'S / Red', options: { Size: 'S', Colour: 'Red' }, inventory: null }),
      expect.objectContaining({ title: 'M', options: { Size: 'M' }, inventory: null, available: true }),
    ]);
    // L has no price (not for sale); Colour is any value for M, so all its values stay.
    expect(variable.data.options).toContainEqual({ name: 'Size', values: ['S', 'M'] });
    expect(variable.data.options).toContainEqual({ name: 'Colour', values: ['Red'] });
    expect(records.filter((r) => r.externalId !== '2').every((r) => r.data.variants.length === 1)).toBe(true);
    // A variation's own delivery is no product: the service reads its product instead.
    expect(payload).toMatchObject({ type: 'variation', parent_id: 2 });
    expect(recordFromWebhook('product.updated', payload)).toBeNull();
    fake.failKind('variation');
    await expect(collect('product', 10, shop)).rejects.toMatchObject({ status: 500, reason: 'http' });
    fake.failKind('variation', false);
  });

  it('reports a failing endpoint and webhook topics that could not be registered', async () => {
    fake.failKind('coupon');
    await expect(collect('coupon', 10)).rejects.toMatchObject({ status: 500, reason: 'http' });
    fake.failKind('coupon', false);
    const client = createWooClient({ ...store, allowPrivate: true });
    const result = await client.registerWebhooks(
      'https://parley.example/api/woocommerce/webhooks/1',
      's3cret',
      ['product.updated', 'product.exploded'],
    );
    expect(result.created).toEqual([{ topic: 'product.updated', id: expect.any(Number) }]);
    expect(result.failed.map((f) => f.topic)).toEqual(['product.exploded']);
    expect(fake.webhooks.at(-1)).toMatchObject({ topic: 'product.updated', secret: 's3cret' });
  });
});

describe('WooCommerce webhooks', () => {
  it('turns product.updated into an upsert and product.deleted into a removal', () => {
    const product = store.records.product.get(3)!;
    const change = recordFromWebhook('product.updated', product);
    expect(change).toMatchObject({ upsert: { kind: 'product', externalId: '3', title: 'Black T-Shirt 3' } });
    expect(recordFromWebhook('product.deleted', { id: 3 })).toEqual({
      remove: { kind: 'product', externalId: '3' },
    });
    expect(recordFromWebhook('product.updated', { ...product, status: 'draft' })).toEqual({
      remove: { kind: 'product', externalId: '3' },
    });
    expect(recordFromWebhook('customer.updated', { id: 1 })).toBeNull();
    expect(recordFromWebhook('product.updated', 'webhook_id=1')).toBeNull();
  });

  it('verifies the signature on the raw body and refuses a tampered one', async () => {
    const received: { body: Buffer; signature: string | undefined }[] = [];
    const server: Server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(parts),
          signature: req.headers['x-wc-webhook-signature'] as string,
        });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    try {
      const payload = store.records.product.get(3);
      await fake.sendWebhook(url, 'product.updated', payload, { secret: 's3cret' });
      await fake.sendWebhook(url, 'product.updated', payload, { secret: 's3cret', tamper: true });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const [good, tampered] = received as [(typeof received)[0], (typeof received)[0]];
    expect(verifyWooSignature(good.body, good.signature, 's3cret')).toBe(true);
    expect(verifyWooSignature(good.body, good.signature, 'other')).toBe(false);
    expect(verifyWooSignature(tampered.body, tampered.signature, 's3cret')).toBe(false);
    expect(verifyWooSignature(good.body, undefined, 's3cret')).toBe(false);
  });
});

describe('normaliseStoreUrl', () => {
  it('keeps http(s), drops the API tail and trailing slashes, refuses credentials', () => {
    expect(normaliseStoreUrl('shop.example.com/')).toBe('https://shop.example.com');
    expect(normaliseStoreUrl('https://Shop.Example.com/store/wp-json/wc/v3/')).toBe(
      'https://shop.example.com/store',
    );
    expect(normaliseStoreUrl('http://shop.example.com:8080/?x=1')).toBe('http://shop.example.com:8080');
    expect(() => normaliseStoreUrl('ftp://shop.example.com')).toThrow(WooError);
    expect(() => normaliseStoreUrl('https://user:pass@shop.example.com')).toThrow(WooError);
  });
});
