import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeShop,
  restOrder,
  restProduct,
  type ShopifyFake,
  startShopifyFake,
} from '../../../test/fakes/shopify.js';
import type { RemoteRecord, StoreConnection } from '../core/adapter.js';
import { recordFromWebhook, shopifyAdapter } from './shopify.adapter.js';
import {
  authorizeUrl,
  exchangeCode,
  ShopifyClient,
  ShopifyError,
  type ShopifySettings,
  WEBHOOK_TOPICS,
} from './shopify.client.js';
import { verifyOAuthQuery, verifyWebhook } from './shopify.hmac.js';

const DOMAIN = 'acme.myshopify.com';
const settingsOf = (fake: ShopifyFake): ShopifySettings => ({
  SHOPIFY_SHOP_URL: fake.shopUrlTemplate,
  SHOPIFY_API_VERSION: '2025-01',
});
const connectionOf = (shop: FakeShop): StoreConnection => ({
  storeId: 1,
  tenantId: 1,
  domain: shop.domain,
  credentials: { accessToken: shop.token },
});

async function collect(pages: AsyncIterable<RemoteRecord[]>): Promise<RemoteRecord[]> {
  const records: RemoteRecord[] = [];
  for await (const page of pages) records.push(...page);
  return records;
}

describe('Shopify HMAC', () => {
  it("accepts Shopify's own OAuth example and refuses it tampered", () => {
    // The example of Shopify's OAuth documentation (secret "hush").
    const query = {
      code: '0907a61c0c8d55e99db179b68161bc00',
      hmac: '700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf',
      shop: 'some-shop.myshopify.com',
      state: '0.6784241404160823',
      timestamp: '1337178173',
    };
    expect(verifyOAuthQuery(query, 'hush')).toBe(true);
    expect(verifyOAuthQuery({ ...query, signature: 'ignored' }, 'hush')).toBe(true);
    expect(verifyOAuthQuery({ ...query, shop: 'evil.myshopify.com' }, 'hush')).toBe(false);
    expect(verifyOAuthQuery({ ...query, extra: '1' }, 'hush')).toBe(false);
    expect(verifyOAuthQuery({ ...query, hmac: query.hmac.replace('7', '8') }, 'hush')).toBe(false);
    expect(verifyOAuthQuery({ ...query, hmac: 'short' }, 'hush')).toBe(false);
    expect(verifyOAuthQuery(query, 'other-secret')).toBe(false);
    const { hmac: _, ...unsigned } = query;
    expect(verifyOAuthQuery(unsigned, 'hush')).toBe(false);
  });

  it('checks a webhook body against its base64 signature', () => {
    const body = Buffer.from('{"id":1,"title":"Shirt"}');
    // base64 HMAC-SHA256 of the body with the secret "hush", as Shopify sends it.
    const header = 'ljDWDCGb1C1kZ5eJKB/g+fLAJMjASvlGaUU9tZ6bIWM=';
    expect(verifyWebhook(body, header, 'hush')).toBe(true);
    expect(verifyWebhook(Buffer.from('{"id":1,"title":"Shirt "}'), header, 'hush')).toBe(false);
    expect(verifyWebhook(body, header, 'other')).toBe(false);
    expect(verifyWebhook(body, undefined, 'hush')).toBe(false);
    expect(verifyWebhook(body, 'not base64 at all', 'hush')).toBe(false);
  });
});

describe('Shopify client and adapter against the fake', () => {
  let fake: ShopifyFake;
  let shop: FakeShop;
  let settings: ShopifySettings;

  beforeAll(async () => {
    fake = await startShopifyFake();
    shop = fake.addShop(DOMAIN, { products: 30 });
    settings = settingsOf(fake);
  });
  afterAll(() => fake.close());

  it('runs OAuth: the redirect is signed, a code works once, a wrong secret is refused', async () => {
    const url = authorizeUrl(settings, DOMAIN, {
      apiKey: fake.apiKey,
      scopes: 'read_products',
      redirectUri: 'http://parley.test/integrations/shopify/callback',
      state: 'state-1',
    });
    expect(url).toContain(`/shops/${DOMAIN}/admin/oauth/authorize?client_id=${fake.apiKey}`);
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const params = Object.fromEntries(new URL(redirect.headers.get('location')!).searchParams);
    expect(params).toMatchObject({ shop: DOMAIN, state: 'state-1' });
    expect(verifyOAuthQuery(params, fake.apiSecret)).toBe(true);

    const app = { apiKey: fake.apiKey, secret: fake.apiSecret };
    const token = await exchangeCode(settings, DOMAIN, params.code!, app);
    expect(token).toEqual({ accessToken: expect.stringMatching(/^shpat_/), scope: 'read_products' });
    await expect(exchangeCode(settings, DOMAIN, params.code!, app)).rejects.toMatchObject({ status: 400 });
    const other = fake.approve(DOMAIN, { redirectUri: 'http://parley.test/cb', state: 's' });
    await expect(
      exchangeCode(settings, DOMAIN, other.code!, { ...app, secret: 'wrong' }),
    ).rejects.toBeInstanceOf(ShopifyError);
    expect((await new ShopifyClient(settings, DOMAIN, token.accessToken).shopInfo()).name).toBe(shop.name);
  });

  it('maps a product: text description, variants, lowest price, stock, storefront url, collections', async () => {
    const product = shop.setProduct({
      title: 'Trail Runner',
      handle: 'trail-runner',
      descriptionHtml: '<h2>Grip</h2><p>Lugs that hold on <em>wet</em> rock.</p><script>alert(1)</script>',
      vendor: 'Northwind',
      productType: 'Shoes',
      tags: ['running', 'outdoor'],
      options: [{ name: 'Size', values: ['42', '43'] }],
      variants: [
        {
          id: 91,
          title: '42',
          price: '120.0',
          compareAtPrice: '150.0',
          sku: 'TR-42',
          inventoryQuantity: 3,
          options: ['42'],
        },
        {
          id: 92,
          title: '43',
          price: '110.5',
          compareAtPrice: null,
          sku: null,
          inventoryQuantity: 0,
          options: ['43'],
        },
      ],
    });
    shop.collections[0]!.productIds.push(product.id);
    const records = await collect(
      shopifyAdapter(settings).fetch(connectionOf(shop), 'product', {
        limit: 1000,
        signal: AbortSignal.timeout(10_000),
      }),
    );
    const record = records.find((r) => r.externalId === `gid://shopify/Product/${product.id}`)!;
    expect(record).toEqual({
      kind: 'product',
      externalId: `gid://shopify/Product/${product.id}`,
      title: 'Trail Runner',
      url: `${shop.primaryDomain}/products/trail-runner`,
      status: 'active',
      updatedAt: product.updatedAt,
      lookupKey: null,
      data: {
        description: '## Grip\n\nLugs that hold on wet rock.',
        vendor: 'Northwind',
        product_type: 'Shoes',
        tags: ['running', 'outdoor'],
        options: [{ name: 'Size', values: ['42', '43'] }],
        variants: [
          {
            title: '42',
            sku: 'TR-42',
            price: '120.00',
            compare_at_price: '150.00',
            inventory: 3,
            available: true,
            options: { Size: '42' },
          },
          {
            title: '43',
            sku: null,
            price: '110.50',
            compare_at_price: null,
            inventory: 0,
            available: false,
            options: { Size: '43' },
          },
        ],
        image_url: product.imageUrl,
        price: '110.50',
        currency: 'USD',
        categories: ['Summer'],
      },
    });
    // A product without options has Shopify's "Default Title" placeholder: it is left out.
    const plain = records.find((r) => r.kind === 'product' && r.title.startsWith('Organic'))!;
    expect(plain.data).toMatchObject({ options: [], variants: [{ title: 'Default Title', options: {} }] });
  });

  it('maps a products/update webhook to the record a fetch gives, with the same gid', async () => {
    const product = shop.setProduct({ title: 'Webhook Hoodie', descriptionHtml: '<p>Warm.</p>' });
    const [fetched] = (
      await collect(
        shopifyAdapter(settings).fetch(connectionOf(shop), 'product', {
          limit: 1000,
          signal: AbortSignal.timeout(10_000),
        }),
      )
    ).filter((r) => r.title === 'Webhook Hoodie');
    const change = recordFromWebhook('products/update', restProduct(product), DOMAIN, {
      url: shop.primaryDomain,
      currency: 'USD',
    });
    expect(change).toEqual({ upsert: { ...fetched, data: { ...fetched!.data, categories: [] } } });
    expect(recordFromWebhook('products/delete', { id: product.id }, DOMAIN)).toEqual({
      remove: { kind: 'product', externalId: fetched!.externalId },
    });
    expect(recordFromWebhook('shop/update', { id: 1 }, DOMAIN)).toBeNull();
  });

  it('finds an order by its number, fresh, and an orders/updated webhook gives the same record', async () => {
    const adapter = shopifyAdapter(settings);
    const order = await adapter.findOrder!(connectionOf(shop), '1001');
    expect(order).toMatchObject({
      kind: 'order',
      externalId: 'gid://shopify/Order/3001',
      lookupKey: '1001',
      status: 'fulfilled',
      data: {
        number: '#1001',
        email: 'jane@example.com',
        customer_name: 'Jane Doe',
        financial_status: 'paid',
        total: '59.98',
        refunded: '0.00',
        tracking: [{ company: 'UPS', number: '1Z999AA10123456784', status: 'in_transit' }],
        customer_id: 'gid://shopify/Customer/9001',
      },
    });
    expect((await adapter.findOrder!(connectionOf(shop), '#1001'))?.externalId).toBe(order!.externalId);
    expect(await adapter.findOrder!(connectionOf(shop), '9999')).toBeNull();
    expect(await adapter.findOrder!(connectionOf(shop), '100')).toBeNull();
    const change = recordFromWebhook('orders/updated', restOrder(shop, shop.order(1001)!), DOMAIN);
    expect(change).toEqual({ upsert: order });
  });

  it('maps every other kind, with totals where Shopify counts them', async () => {
    const adapter = shopifyAdapter(settings);
    const fetchKind = async (kind: RemoteRecord['kind']) => {
      const totals: number[] = [];
      const signal = AbortSignal.timeout(10_000);
      const records = await collect(
        adapter.fetch(connectionOf(shop), kind, { limit: 100, signal, onTotal: (n) => totals.push(n) }),
      );
      return { records, totals };
    };
    const collections = await fetchKind('collection');
    expect(collections.totals).toEqual([2]);
    expect(collections.records[0]).toMatchObject({
      title: 'Summer',
      url: `${shop.primaryDomain}/collections/summer`,
      data: { description: 'Light clothes for hot days.', products_count: expect.any(Number) },
    });
    const [article] = (await fetchKind('blog_article')).records;
    expect(article).toMatchObject({
      url: `${shop.primaryDomain}/blogs/news/how-to-choose-your-size`,
      status: 'published',
      data: {
        blog: 'News',
        author: 'Ada Lovelace',
        body: expect.stringContaining('## Measure\n\nMeasure your chest'),
      },
    });
    const policies = await fetchKind('policy');
    expect(policies.totals).toEqual([3]);
    expect(policies.records[0]).toMatchObject({
      externalId: 'gid://shopify/ShopPolicy/6001',
      url: `${shop.primaryDomain}/policies/refund-policy`,
      data: { body: 'Returns are accepted within 30 days.' },
    });
    const [discount] = (await fetchKind('discount')).records;
    expect(discount!.data).toMatchObject({
      code: 'SUMMER10',
      value: '10%',
      minimum_amount: '50.00',
      usage_limit: 100,
    });
    const customers = await fetchKind('customer');
    expect(customers.records[0]).toMatchObject({
      lookupKey: 'jane@example.com',
      data: { orders_count: 1, total_spent: '59.98', currency: 'USD' },
    });
    const orders = await fetchKind('order');
    expect(orders.records.map((r) => r.lookupKey)).toEqual(['1001', '1002']);
  });

  it('cancels and refunds orders, and says clearly what Shopify refused', async () => {
    const client = new ShopifyClient(settings, DOMAIN, shop.token);
    const jane = 'gid://shopify/Order/3001';
    const john = 'gid://shopify/Order/3002';
    expect(await client.cancelOrder(john, { reason: 'customer' })).toEqual({
      jobId: expect.stringMatching(/^gid:/),
    });
    expect(shop.order(1002)).toMatchObject({ cancelReason: 'CUSTOMER', cancelledAt: expect.any(String) });
    await expect(client.cancelOrder(john)).rejects.toThrow(
      /could not cancel the order: Order has already been cancelled/,
    );

    expect(await client.refundOrder(jane, { amount: '10.00', note: 'Late', notify: false })).toMatchObject({
      amount: '10.00',
    });
    expect(await client.refundOrder(jane, { notify: true })).toMatchObject({ amount: '49.98' });
    expect(shop.order(1001)).toMatchObject({ financialStatus: 'REFUNDED' });
    const refused = await client
      .refundOrder(jane, { amount: '5.00', notify: false })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ShopifyError);
    expect(refused).toMatchObject({
      status: 422,
      message: expect.stringMatching(/greater than net payment/),
    });
  });

  it('signs webhook deliveries as Shopify does: verified as sent, refused when tampered', async () => {
    const received: Array<{ raw: Buffer; headers: IncomingHttpHeaders }> = [];
    const parley = createServer(async (req, res) => {
      const parts: Buffer[] = [];
      for await (const part of req) parts.push(part as Buffer);
      received.push({ raw: Buffer.concat(parts), headers: req.headers });
      res.end();
    });
    await new Promise<void>((resolve) => parley.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(parley.address() as AddressInfo).port}/api/shopify/webhooks`;
    try {
      const payload = restProduct([...shop.products.values()][0]!);
      await fake.sendWebhook(target, 'products/update', payload, { shop: DOMAIN, eventId: 'event-1' });
      await fake.sendWebhook(target, 'products/update', payload, { shop: DOMAIN, tamper: true });
      const [sent, tampered] = received;
      expect(sent!.headers).toMatchObject({
        'x-shopify-topic': 'products/update',
        'x-shopify-shop-domain': DOMAIN,
        'x-shopify-event-id': 'event-1',
      });
      const header = (delivery: { headers: IncomingHttpHeaders }) =>
        String(delivery.headers['x-shopify-hmac-sha256']);
      expect(verifyWebhook(sent!.raw, header(sent!), fake.apiSecret)).toBe(true);
      expect(verifyWebhook(tampered!.raw, header(tampered!), fake.apiSecret)).toBe(false);
    } finally {
      parley.close();
    }
  });

  it('registers webhooks once, ignoring "already taken", and reports a refused token as an auth failure', async () => {
    const client = new ShopifyClient(settings, DOMAIN, shop.token);
    await client.registerWebhooks('http://parley.test/api/shopify/webhooks');
    await client.registerWebhooks('http://parley.test/api/shopify/webhooks');
    expect(shop.webhookSubscriptions.map((w) => w.topic)).toContain('PRODUCTS_UPDATE');
    expect(shop.webhookSubscriptions).toHaveLength(WEBHOOK_TOPICS.length);
    const refused = await new ShopifyClient(settings, DOMAIN, 'shpat_wrong')
      .shopInfo()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, authRefused: true });
  });
});

describe('Shopify cost pacing', () => {
  it('pages 600 products through a small bucket by waiting, never by being throttled', async () => {
    const fake = await startShopifyFake({ bucket: { max: 200, restoreRate: 200 } });
    try {
      const shop = fake.addShop(DOMAIN, { products: 600 });
      const totals: number[] = [];
      const started = Date.now();
      const records = await collect(
        shopifyAdapter(settingsOf(fake)).fetch(connectionOf(shop), 'product', {
          limit: 10_000,
          signal: AbortSignal.timeout(20_000),
          onTotal: (n) => totals.push(n),
        }),
      );
      const elapsed = Date.now() - started;
      expect(records).toHaveLength(600);
      expect(new Set(records.map((r) => r.externalId)).size).toBe(600);
      expect(totals).toEqual([600]);
      expect(fake.throttled).toBe(0);
      // Pages of 198 cost 200, the whole bucket: the second and third each wait about a second.
      expect(fake.requests.filter((r) => r.fields.includes('products'))).toHaveLength(4);
      expect(elapsed).toBeGreaterThan(1500);
    } finally {
      await fake.close();
    }
  });

  it('waits and retries when another client emptied the bucket, and stops when aborted', async () => {
    // One point a second: after the drain, even a 1-point query is throttled until a second passes.
    const fake = await startShopifyFake({ bucket: { max: 100, restoreRate: 1 } });
    try {
      const shop = fake.addShop(DOMAIN, { products: 200 });
      const drain = () =>
        fetch(`${fake.url}/shops/${DOMAIN}/admin/api/2025-01/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': shop.token },
          body: JSON.stringify({ query: '{ products(first: 98) { nodes { id } } }' }),
        });
      await drain();
      const info = await new ShopifyClient(settingsOf(fake), DOMAIN, shop.token).shopInfo();
      expect(info).toEqual({ name: shop.name, currency: 'USD', domain: shop.primaryDomain });
      expect(fake.throttled).toBe(1);

      const controller = new AbortController();
      const pages = shopifyAdapter(settingsOf(fake)).fetch(connectionOf(shop), 'product', {
        limit: 200,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 300);
      await expect(collect(pages)).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await fake.close();
    }
  });
});
