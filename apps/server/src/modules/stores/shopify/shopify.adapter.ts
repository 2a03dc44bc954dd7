import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { StoreKind } from '@parley/contracts';
import type { RemoteRecord, StoreAdapter, StoreConnection } from '../core/adapter.js';
import { htmlToText } from '../core/html-text.js';
import {
  type ArticleNode,
  type CollectionNode,
  type CustomerNode,
  type DiscountNode,
  KIND_QUERIES,
  type OrderNode,
  POLICIES_QUERY,
  type PolicyNode,
  type ProductNode,
  type ShopInfo,
  ShopifyClient,
  type ShopifySettings,
} from './shopify.client.js';

const KINDS = ['product', 'collection', 'blog_article', 'policy', 'discount', 'order', 'customer'] as const;
type ShopifyKind = (typeof KINDS)[number];
type PagedKind = Exclude<ShopifyKind, 'policy'>;

const clientFor = (settings: ShopifySettings, connection: StoreConnection) =>
  new ShopifyClient(settings, connection.domain, connection.credentials.accessToken ?? '');

/** Shopify through its GraphQL Admin API: every kind oldest first, paced by the shop's cost bucket. */
export function shopifyAdapter(settings: ShopifySettings): StoreAdapter {
  return {
    platform: 'shopify',
    kinds: KINDS,
    async *fetch(connection, kind, options) {
      if (!isShopifyKind(kind)) throw new Error(`Shopify has no ${kind} records`);
      const client = clientFor(settings, connection);
      // The shop's domain and currency shape every record; the call also tells the bucket's size.
      const shop = await client.shopInfo(options.signal);
      if (kind === 'policy') {
        const { data } = await client.graphql<{ shop: { shopPolicies: PolicyNode[] } }>(
          POLICIES_QUERY,
          {},
          { signal: options.signal },
        );
        const policies = data.shop.shopPolicies.filter((p) => p.body.trim());
        options.onTotal?.(policies.length);
        yield policies.slice(0, options.limit).map(policyRecord);
        return;
      }
      const spec = KIND_QUERIES[kind];
      if (spec.count && options.onTotal) {
        const total = await client.count(spec.count, `${spec.root}Count`, options.signal);
        if (total !== null) options.onTotal(total);
      }
      const pages = client.pages<never>(spec.query, spec.root, options);
      for await (const nodes of pages) yield await mapInSlices(nodes, (node) => MAPPERS[kind](node, shop));
    },
    async findOrder(connection, number) {
      const wanted = number.replace(/^#/, '').trim().toLowerCase();
      if (!wanted) return null;
      const client = clientFor(settings, connection);
      const spec = KIND_QUERIES.order;
      // Shopify's search is loose (prefixes, tokens): only the order with exactly this number counts.
      const pages = client.pages<OrderNode>(spec.query, spec.root, {
        limit: 5,
        variables: { query: `name:#${wanted}` },
      });
      for await (const nodes of pages) {
        const found = nodes.find((node) => node.name.replace(/^#/, '').toLowerCase() === wanted);
        if (found) return orderRecord(found);
      }
      return null;
    },
  };
}

/**
 * Reading a description's HTML takes about half a millisecond (a DOM, as the crawler reads pages):
 * a page of 250 products yields to the event loop between slices, so HTTP answers keep flowing.
 */
async function mapInSlices<N, R>(nodes: N[], map: (node: N) => R): Promise<R[]> {
  const records: R[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (i > 0 && i % 25 === 0) await yieldToEventLoop();
    records.push(map(nodes[i]!));
  }
  return records;
}

const isShopifyKind = (kind: StoreKind): kind is ShopifyKind =>
  (KINDS as readonly StoreKind[]).includes(kind);

/** The storefront's address for a path: the shop's primary domain (its own domain when it has one). */
const storefront = (shop: ShopInfo, path: string) => `${shop.domain.replace(/\/+$/, '')}${path}`;

function productRecord(node: ProductNode, shop: ShopInfo): RemoteRecord<'product'> {
  const variants = node.variants.nodes.map((v) => ({
    title: v.title,
    sku: v.sku || null,
    price: money(v.price, shop.currency),
    compare_at_price: v.compareAtPrice ? money(v.compareAtPrice, shop.currency) : null,
    inventory: node.tracksInventory ? v.inventoryQuantity : null,
    available: v.availableForSale,
    options: Object.fromEntries(v.selectedOptions.map((o) => [o.name, o.value])),
  }));
  return {
    kind: 'product',
    externalId: node.id,
    title: node.title,
    url: node.onlineStoreUrl ?? storefront(shop, `/products/${node.handle}`),
    status: lower(node.status),
    updatedAt: iso(node.updatedAt),
    lookupKey: null,
    data: {
      description: htmlToText(node.descriptionHtml),
      vendor: node.vendor || null,
      product_type: node.productType || null,
      tags: node.tags,
      ...productOptions(node.options, variants),
      image_url: node.featuredImage?.url ?? null,
      price: lowest(variants.map((v) => v.price)),
      currency: shop.currency,
      categories: node.collections.nodes.map((c) => c.title),
    },
  };
}

/** The lowest of decimal prices, as written. */
const lowest = (prices: string[]): string | null =>
  prices.reduce<string | null>((low, p) => (low === null || Number(p) < Number(low) ? p : low), null);

function collectionRecord(node: CollectionNode, shop: ShopInfo): RemoteRecord<'collection'> {
  return {
    kind: 'collection',
    externalId: node.id,
    title: node.title,
    url: storefront(shop, `/collections/${node.handle}`),
    status: null,
    updatedAt: iso(node.updatedAt),
    lookupKey: null,
    data: {
      description: htmlToText(node.descriptionHtml),
      products_count: node.productsCount?.count ?? null,
      product_titles: node.products.nodes.map((p) => p.title),
    },
  };
}

function articleRecord(node: ArticleNode, shop: ShopInfo): RemoteRecord<'blog_article'> {
  return {
    kind: 'blog_article',
    externalId: node.id,
    title: node.title,
    url: storefront(shop, `/blogs/${node.blog.handle}/${node.handle}`),
    status: node.isPublished ? 'published' : 'hidden',
    updatedAt: iso(node.updatedAt),
    lookupKey: null,
    data: {
      body: htmlToText(node.body),
      blog: node.blog.title,
      author: node.author?.name ?? null,
      tags: node.tags,
      published_at: iso(node.publishedAt),
    },
  };
}

function policyRecord(node: PolicyNode): RemoteRecord<'policy'> {
  return {
    kind: 'policy',
    externalId: node.id,
    title: node.title,
    url: node.url,
    status: 'published',
    updatedAt: iso(node.updatedAt),
    lookupKey: null,
    data: { body: htmlToText(node.body), blog: null, author: null, tags: [], published_at: null },
  };
}

function discountRecord(node: DiscountNode, shop: ShopInfo): RemoteRecord<'discount'> {
  const d = node.discount;
  const value = d.customerGets?.value;
  const minimum = d.minimumRequirement?.greaterThanOrEqualToSubtotal?.amount;
  return {
    kind: 'discount',
    externalId: node.id,
    title: d.title,
    url: null,
    status: lower(d.status),
    updatedAt: null,
    lookupKey: null,
    data: {
      code: d.codes?.nodes[0]?.code ?? null,
      summary: d.summary || d.title,
      value:
        value && 'percentage' in value
          ? `${Math.round(value.percentage * 10_000) / 100}%`
          : value && 'amount' in value
            ? `${money(value.amount.amount, value.amount.currencyCode)} ${value.amount.currencyCode}`
            : null,
      starts_at: iso(d.startsAt),
      ends_at: iso(d.endsAt),
      usage_limit: d.usageLimit ?? null,
      minimum_amount: minimum ? money(minimum, shop.currency) : null,
    },
  };
}

function customerRecord(node: CustomerNode): RemoteRecord<'customer'> {
  const currency = node.amountSpent?.currencyCode ?? null;
  return {
    kind: 'customer',
    externalId: node.id,
    title: node.displayName || node.email || node.phone || node.id,
    url: null,
    status: lower(node.state),
    updatedAt: iso(node.updatedAt),
    lookupKey: node.email?.toLowerCase() ?? null,
    data: {
      email: node.email,
      phone: node.phone,
      orders_count: Number(node.numberOfOrders),
      total_spent: node.amountSpent ? money(node.amountSpent.amount, currency) : null,
      currency,
    },
  };
}

function orderRecord(node: OrderNode): RemoteRecord<'order'> {
  const currency = node.currencyCode;
  const fulfillment = lower(node.displayFulfillmentStatus);
  return {
    kind: 'order',
    externalId: node.id,
    title: node.name,
    url: null,
    status: node.cancelledAt ? 'cancelled' : fulfillment,
    updatedAt: iso(node.updatedAt),
    lookupKey: node.name.replace(/^#/, '').toLowerCase(),
    data: {
      number: node.name,
      email: node.email,
      phone: node.phone,
      customer_name: node.customer?.displayName ?? null,
      financial_status: lower(node.displayFinancialStatus),
      fulfillment_status: fulfillment,
      total: money(node.totalPriceSet.shopMoney.amount, currency),
      refunded: money(node.totalRefundedSet.shopMoney.amount, currency),
      currency,
      placed_at: iso(node.createdAt) ?? node.createdAt,
      cancelled_at: iso(node.cancelledAt),
      lines: node.lineItems.nodes.map((line) => ({
        title: line.title,
        quantity: line.quantity,
        price: money(line.originalUnitPriceSet.shopMoney.amount, currency),
        sku: line.sku || null,
      })),
      // A fulfilment without tracking still tells the customer that the parcel left.
      tracking: node.fulfillments.flatMap((f) =>
        (f.trackingInfo.length > 0 ? f.trackingInfo : [{ company: null, number: null, url: null }]).map(
          (t) => ({
            ...t,
            status: lower(f.displayStatus),
          }),
        ),
      ),
      customer_id: node.customer?.id ?? null,
    },
  };
}

const MAPPERS: { [K in PagedKind]: (node: never, shop: ShopInfo) => RemoteRecord } = {
  product: productRecord,
  collection: collectionRecord,
  blog_article: articleRecord,
  discount: discountRecord,
  customer: customerRecord,
  order: orderRecord,
};

// ------------------------- webhooks: Shopify's REST payloads, same records -------------------------

type RestVariant = {
  title: string;
  price: string;
  compare_at_price: string | null;
  sku: string | null;
  inventory_quantity: number | null;
  inventory_management: string | null;
  inventory_policy?: string;
  option1?: string | null;
  option2?: string | null;
  option3?: string | null;
};
type RestProduct = {
  id: number;
  admin_graphql_api_id?: string;
  title: string;
  body_html: string | null;
  vendor: string | null;
  product_type: string | null;
  handle: string;
  status?: string;
  tags: string;
  updated_at: string | null;
  variants?: RestVariant[];
  options?: Array<{ name: string; values: string[] }>;
  image?: { src: string } | null;
};
type RestCollection = {
  id: number;
  admin_graphql_api_id?: string;
  title: string;
  handle: string;
  body_html: string | null;
  updated_at: string | null;
};
type RestOrder = {
  id: number;
  admin_graphql_api_id?: string;
  name: string;
  email: string | null;
  phone: string | null;
  created_at: string;
  updated_at: string | null;
  cancelled_at: string | null;
  financial_status: string | null;
  fulfillment_status: string | null;
  currency: string;
  total_price: string;
  customer?: {
    id: number;
    admin_graphql_api_id?: string;
    first_name?: string | null;
    last_name?: string | null;
  } | null;
  line_items?: Array<{ title: string; quantity: number; price: string; sku: string | null }>;
  fulfillments?: Array<{
    status: string | null;
    shipment_status?: string | null;
    tracking_company: string | null;
    tracking_numbers?: string[];
    tracking_urls?: string[];
  }>;
  refunds?: Array<{ transactions?: Array<{ kind: string; status: string; amount: string }> }>;
};

export type WebhookRecord =
  | { upsert: RemoteRecord }
  | { remove: { kind: StoreKind; externalId: string } }
  | null;

/**
 * A webhook's REST payload as the record a GraphQL fetch would give (same gid, same shapes), so a
 * delivery and the next sync agree. A product's collections are not in its payload (the next sync
 * brings them back). `shop` is what the store knows of its storefront: the primary domain's address
 * (else the shop domain, which redirects there) and currency.
 */
export function recordFromWebhook(
  topic: string,
  payload: unknown,
  shopDomain: string,
  shop: { url?: string; currency?: string | null } = {},
): WebhookRecord {
  const body = payload as { id?: unknown; admin_graphql_api_id?: string } | null;
  if (!body || (typeof body.id !== 'number' && typeof body.id !== 'string')) return null;
  const info: ShopInfo = {
    name: shopDomain,
    domain: shop.url ?? `https://${shopDomain}`,
    currency: shop.currency ?? '',
  };
  switch (topic) {
    case 'products/create':
    case 'products/update':
      return { upsert: restProductRecord(payload as RestProduct, info) };
    case 'products/delete':
      return { remove: { kind: 'product', externalId: gidOf('Product', body) } };
    case 'collections/create':
    case 'collections/update':
      return { upsert: restCollectionRecord(payload as RestCollection, info) };
    case 'collections/delete':
      return { remove: { kind: 'collection', externalId: gidOf('Collection', body) } };
    case 'orders/create':
    case 'orders/updated':
    case 'orders/cancelled':
      return { upsert: restOrderRecord(payload as RestOrder) };
    default:
      return null;
  }
}

/** Deletion payloads carry only the numeric id; the others carry the GraphQL id as well. */
const gidOf = (type: string, body: { id?: unknown; admin_graphql_api_id?: string }) =>
  body.admin_graphql_api_id ?? `gid://shopify/${type}/${String(body.id)}`;

function restProductRecord(p: RestProduct, shop: ShopInfo): RemoteRecord<'product'> {
  const currency = shop.currency || null;
  const options = p.options ?? [];
  const variants = (p.variants ?? []).map((v) => {
    const tracked = v.inventory_management === 'shopify';
    const values = [v.option1, v.option2, v.option3];
    return {
      title: v.title,
      sku: v.sku || null,
      price: money(v.price, currency),
      compare_at_price: v.compare_at_price ? money(v.compare_at_price, currency) : null,
      inventory: tracked ? (v.inventory_quantity ?? 0) : null,
      // What availableForSale says: active, and in stock unless stock is not tracked or may go negative.
      available:
        (p.status ?? 'active') === 'active' &&
        (!tracked || (v.inventory_quantity ?? 0) > 0 || v.inventory_policy === 'continue'),
      options: Object.fromEntries(
        options.flatMap((o, i) => (values[i] ? [[o.name, values[i]] as [string, string]] : [])),
      ),
    };
  });
  const tags = p.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    kind: 'product',
    externalId: gidOf('Product', p),
    title: p.title,
    url: storefront(shop, `/products/${p.handle}`),
    status: lower(p.status ?? 'active'),
    updatedAt: iso(p.updated_at),
    lookupKey: null,
    data: {
      description: htmlToText(p.body_html ?? ''),
      vendor: p.vendor || null,
      product_type: p.product_type || null,
      tags,
      ...productOptions(options, variants),
      image_url: p.image?.src ?? null,
      price: lowest(variants.map((v) => v.price)),
      currency,
      categories: [],
    },
  };
}

function restCollectionRecord(c: RestCollection, shop: ShopInfo): RemoteRecord<'collection'> {
  return {
    kind: 'collection',
    externalId: gidOf('Collection', c),
    title: c.title,
    url: storefront(shop, `/collections/${c.handle}`),
    status: null,
    updatedAt: iso(c.updated_at),
    lookupKey: null,
    data: { description: htmlToText(c.body_html ?? ''), products_count: null, product_titles: [] },
  };
}

/** REST says `partial` and null where GraphQL's display status says PARTIALLY_FULFILLED and UNFULFILLED. */
const REST_FULFILLMENT: Record<string, string> = { partial: 'partially_fulfilled' };

function restOrderRecord(o: RestOrder): RemoteRecord<'order'> {
  const fulfillment = o.fulfillment_status
    ? (REST_FULFILLMENT[o.fulfillment_status] ?? o.fulfillment_status)
    : 'unfulfilled';
  const refunded = (o.refunds ?? [])
    .flatMap((r) => r.transactions ?? [])
    .filter((t) => t.kind === 'refund' && t.status === 'success')
    .reduce((sum, t) => sum + Math.round(Number(t.amount) * 100), 0);
  const name = [o.customer?.first_name, o.customer?.last_name].filter(Boolean).join(' ');
  return {
    kind: 'order',
    externalId: gidOf('Order', o),
    title: o.name,
    url: null,
    status: o.cancelled_at ? 'cancelled' : fulfillment,
    updatedAt: iso(o.updated_at),
    lookupKey: o.name.replace(/^#/, '').toLowerCase(),
    data: {
      number: o.name,
      email: o.email || null,
      phone: o.phone || null,
      customer_name: name || null,
      financial_status: lower(o.financial_status),
      fulfillment_status: fulfillment,
      total: money(o.total_price, o.currency),
      refunded: money(refunded / 100, o.currency),
      currency: o.currency,
      placed_at: iso(o.created_at) ?? o.created_at,
      cancelled_at: iso(o.cancelled_at),
      lines: (o.line_items ?? []).map((line) => ({
        title: line.title,
        quantity: line.quantity,
        price: money(line.price, o.currency),
        sku: line.sku || null,
      })),
      tracking: (o.fulfillments ?? []).flatMap((f) => {
        const status = f.shipment_status ?? (f.status === 'success' ? 'fulfilled' : lower(f.status));
        const numbers = f.tracking_numbers?.length ? f.tracking_numbers : [null];
        return numbers.map((number, i) => ({
          company: f.tracking_company,
          number,
          url: f.tracking_urls?.[i] ?? null,
          status,
        }));
      }),
      customer_id: o.customer ? gidOf('Customer', o.customer) : null,
    },
  };
}

// ------------------------------------------- text helpers -------------------------------------------

const fractionDigits = new Map<string, number>();

/** A decimal amount written with its currency's minor digits ("20.0" → "20.00", JPY "2000"). */
export function money(amount: string | number, currency: string | null): string {
  const code = currency || 'USD';
  let digits = fractionDigits.get(code);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits;
    } catch {
      digits = 2;
    }
    fractionDigits.set(code, digits ?? 2);
  }
  return Number(amount).toFixed(digits ?? 2);
}

const lower = (value: string | null | undefined): string | null => (value ? value.toLowerCase() : null);
const iso = (value: string | null | undefined): string | null =>
  value ? new Date(value).toISOString() : null;

type Variant = { options: Record<string, string> };

/** A product without real options has Shopify's placeholder "Title: Default Title": not worth training. */
function productOptions<V extends Variant>(
  options: Array<{ name: string; values: string[] }>,
  variants: V[],
) {
  const placeholder =
    options.length === 1 && options[0]!.name === 'Title' && options[0]!.values[0] === 'Default Title';
  if (!placeholder) return { options: options.map((o) => ({ name: o.name, values: o.values })), variants };
  return { options: [], variants: variants.map((v) => ({ ...v, options: {} })) };
}
