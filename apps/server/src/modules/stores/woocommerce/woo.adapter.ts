import { createHmac, timingSafeEqual } from 'node:crypto';
import { pluralOf, type StoreKind, type Tracking, WOO_TYPES, type WooType } from '@parley/contracts';
import type { Config } from '../../../config.js';
import type { RemoteRecord, StoreAdapter, StoreConnection } from '../core/adapter.js';
import { htmlToText } from '../core/html-text.js';
import {
  createWooClient,
  type WooCategory,
  type WooClient,
  type WooCoupon,
  type WooCustomer,
  WooError,
  type WooMeta,
  type WooOrder,
  type WooOrderNote,
  type WooProduct,
  type WooVariation,
  type WpPage,
} from './woo.client.js';

/** The spec's WooCommerce sync order (section 9). */
const WOO_KINDS = [
  'product',
  'category',
  'page',
  'coupon',
  'order',
  'customer',
] as const satisfies StoreKind[];

/**
 * Listing parameters per type. Oldest first by id, so a record created mid-sync lands on a later
 * page instead of shifting the ones not yet read. Only published products and pages: drafts and
 * private ones must never reach a bot's answers.
 */
const LIST_PARAMS: Record<WooType, Record<string, string>> = {
  products: { orderby: 'id', order: 'asc', status: 'publish' },
  categories: { orderby: 'id', order: 'asc' },
  pages: { orderby: 'id', order: 'asc', status: 'publish' },
  coupons: { orderby: 'id', order: 'asc' },
  orders: { orderby: 'id', order: 'asc' },
  customers: { orderby: 'id', order: 'asc' },
};

/** How many of a category's products name it (CollectionData.product_titles). */
const TITLES_PER_CATEGORY = 10;
/**
 * Products are handed to the core this many at a time once their variations are read, so a page
 * of variable products (a request each) still moves the sync's progress as it goes.
 */
const PRODUCT_CHUNK = 20;
/** Variations requests in flight at once: quicker than one by one, gentle on a small host. */
const VARIATION_REQUESTS = 3;

export function wooAdapter(config: Pick<Config, 'CRAWLER_ALLOW_PRIVATE'>): StoreAdapter {
  const clientFor = (connection: StoreConnection): WooClient => {
    const { consumerKey, consumerSecret } = connection.credentials;
    if (!consumerKey || !consumerSecret)
      throw new WooError('The store has no consumer key and secret', null, 'auth');
    return createWooClient({
      url: connection.domain,
      consumerKey,
      consumerSecret,
      allowPrivate: config.CRAWLER_ALLOW_PRIVATE,
    });
  };

  return {
    platform: 'woocommerce',
    kinds: WOO_KINDS,
    async *fetch(connection, kind, { limit, signal, onTotal }) {
      const type = pluralOf('woocommerce', kind) as WooType;
      if (!(type in WOO_TYPES)) throw new Error(`WooCommerce has no ${kind} records`);
      const client = clientFor(connection);
      // Product JSON carries no currency; the store's setting is one small request.
      const currency = kind === 'product' ? await client.currency(signal) : null;
      for await (const items of client.listAll(type, { limit, signal, onTotal, params: LIST_PARAMS[type] })) {
        if (type === 'categories') yield await categoriesWithTitles(client, items as WooCategory[], signal);
        else if (type === 'products') yield* productChunks(client, items as WooProduct[], currency, signal);
        else
          yield (items as Raw[])
            .filter((item) => isLive(kind, item))
            .map((item) => toRecord(kind, item, currency));
      }
    },
    async findOrder(connection, number) {
      const wanted = number.trim().replace(/^#/, '').toLowerCase();
      if (!wanted) return null;
      const client = clientFor(connection);
      // The number is the id unless a plugin renumbers orders; then the order search finds it.
      const byId = /^\d+$/.test(wanted) ? await client.order(wanted) : null;
      const order =
        byId && orderNumber(byId).toLowerCase() === wanted
          ? byId
          : (await client.searchOrders(wanted)).find((o) => orderNumber(o).toLowerCase() === wanted);
      return order ? mapOrder(order) : null;
    },
    async tracking(connection, externalId) {
      const client = clientFor(connection);
      const [order, notes] = await Promise.all([client.order(externalId), client.orderNotes(externalId)]);
      return mergeTracking(order ? metaTracking(order.meta_data) : [], notesTracking(notes));
    },
  };
}

// ------------------------------------------ products -------------------------------------------

/** A page of products as records, a chunk at a time; only published variable products cost a request. */
async function* productChunks(
  client: WooClient,
  products: WooProduct[],
  currency: string | null,
  signal: AbortSignal,
): AsyncGenerator<RemoteRecord[]> {
  const live = products.filter((p) => isLive('product', p));
  for (let i = 0; i < live.length; i += PRODUCT_CHUNK) {
    const chunk = live.slice(i, i + PRODUCT_CHUNK);
    yield await inPool(chunk, VARIATION_REQUESTS, (p) => productRecord(client, p, currency, signal));
  }
}

/** A product with its variations read when it is variable (and has any). */
async function productRecord(
  client: WooClient,
  product: WooProduct,
  currency: string | null,
  signal?: AbortSignal,
): Promise<RemoteRecord<'product'>> {
  const variable = product.type === 'variable' && (product.variations?.length ?? 1) > 0;
  const variations = variable ? await client.variations(product.id, signal) : [];
  return mapProduct(product, currency, variations);
}

/** `fn` over `items`, at most `width` at once, results in order; the first failure stops the rest. */
async function inPool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

// ------------------------------------------ webhooks -------------------------------------------

export type WebhookChange =
  | { upsert: RemoteRecord }
  | { remove: { kind: StoreKind; externalId: string } }
  | null;

const WEBHOOK_KINDS: Record<string, StoreKind> = { product: 'product', coupon: 'coupon', order: 'order' };

/**
 * What a WooCommerce delivery changes. Created, updated and restored deliveries carry the whole
 * resource; deleted ones only `{id}`. A product or coupon that stops being published is removed, as
 * the sync would not have read it. Other topics (and WooCommerce's creation ping) change nothing.
 */
export function recordFromWebhook(topic: string, payload: unknown): WebhookChange {
  const [resource = '', event = ''] = topic.split('.');
  const kind = WEBHOOK_KINDS[resource];
  if (!kind || typeof payload !== 'object' || payload === null) return null;
  const id = (payload as { id?: unknown }).id;
  if (typeof id !== 'number' && typeof id !== 'string') return null;
  const externalId = String(id);
  if (event === 'deleted') return { remove: { kind, externalId } };
  if (!['created', 'updated', 'restored'].includes(event)) return null;
  // A variation is part of its product, never a product of its own (wooWebhookChange reads the product).
  if (kind === 'product' && (payload as WooProduct).type === 'variation') return null;
  if (!isLive(kind, payload as Raw)) return { remove: { kind, externalId } };
  return { upsert: toRecord(kind, payload as Raw, null) };
}

/**
 * What a delivery changes, read with the store where the payload is not the whole story: a variable
 * product's delivery carries no variations, so they are read now; a variation's delivery (WooCommerce
 * sends product.updated for one, with its own id) re-reads the product it belongs to.
 */
export async function wooWebhookChange(
  topic: string,
  payload: unknown,
  client: WooClient,
  currency: string | null,
): Promise<WebhookChange> {
  const product = payload as WooProduct;
  const event = topic.split('.')[1];
  if (!topic.startsWith('product.') || event === 'deleted' || typeof product?.id !== 'number')
    return recordFromWebhook(topic, payload);
  if (product.type === 'variation') {
    const parent = product.parent_id ? await client.product(product.parent_id) : null;
    // A product gone from the store has its own deletion delivery.
    if (!parent) return null;
    if (!isLive('product', parent)) return { remove: { kind: 'product', externalId: String(parent.id) } };
    return { upsert: await productRecord(client, parent, currency) };
  }
  const change = recordFromWebhook(topic, payload);
  if (!change || !('upsert' in change)) return change;
  return { upsert: await productRecord(client, product, currency) };
}

/** X-WC-Webhook-Signature: base64 HMAC-SHA256 of the raw body with the webhook's secret. */
export function verifyWooSignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// ------------------------------------------ mapping --------------------------------------------

type Raw = WooProduct | WooCategory | WpPage | WooCoupon | WooOrder | WooCustomer;

/** Published (products, pages, coupons): what the storefront shows. Other kinds have no such rule. */
const isLive = (kind: StoreKind, item: Raw): boolean =>
  !['product', 'page', 'coupon'].includes(kind) || !('status' in item) || item.status === 'publish';

function toRecord(kind: StoreKind, item: Raw, currency: string | null): RemoteRecord {
  switch (kind) {
    case 'product':
      return mapProduct(item as WooProduct, currency);
    case 'category':
      return mapCategory(item as WooCategory, []);
    case 'page':
      return mapPage(item as WpPage);
    case 'coupon':
      return mapCoupon(item as WooCoupon);
    case 'order':
      return mapOrder(item as WooOrder);
    default:
      return mapCustomer(item as WooCustomer);
  }
}

/** WooCommerce's `*_gmt` times carry no zone; they are UTC. */
const utc = (time: string | null | undefined): string | null =>
  time ? (/(Z|[+-]\d\d:?\d\d)$/.test(time) ? time : `${time}Z`) : null;

const names = (terms: { name: string }[] | undefined) => (terms ?? []).map((t) => t.name);

function mapProduct(
  p: WooProduct,
  currency: string | null,
  variations: WooVariation[] = [],
): RemoteRecord<'product'> {
  const attributes = p.attributes ?? [];
  const description = [htmlToText(p.short_description ?? ''), htmlToText(p.description ?? '')];
  // A variation without a price is not for sale (the storefront does not offer it).
  const variants = variations.filter((v) => v.status !== 'private' && (v.price || v.regular_price));
  const data = {
    description: [...new Set(description.filter(Boolean))].join('\n\n'),
    vendor: p.brands?.[0]?.name ?? null,
    // WooCommerce's `type` (simple, variable) is structure, not the kind of goods Shopify means.
    product_type: null,
    tags: names(p.tags),
    options: attributes.map((a) => ({ name: a.name, values: offered(a, variants) })),
    image_url: p.images?.[0]?.src ?? null,
    currency,
    categories: names(p.categories),
  };
  return {
    kind: 'product',
    externalId: String(p.id),
    title: p.name,
    url: p.permalink ?? null,
    status: p.status ?? null,
    updatedAt: utc(p.date_modified_gmt),
    lookupKey: null,
    data:
      variants.length > 0
        ? { ...data, variants: variants.map(variationVariant), price: lowest(variants.map(priceOf)) }
        : { ...data, variants: [productVariant(p, attributes)], price: priceOf(p) },
  };
}

/**
 * An attribute's values the product is sold in: a size whose only variation is disabled is not on
 * offer, though the product still lists it. One that some variation takes any value of keeps all.
 */
function offered(attribute: { name: string; options?: string[] }, variations: WooVariation[]): string[] {
  const all = attribute.options ?? [];
  const chosen = variations.map((v) => v.attributes?.find((a) => a.name === attribute.name)?.option);
  if (chosen.length === 0 || chosen.some((c) => c === undefined)) return all;
  const sold = all.filter((o) => chosen.includes(o));
  return sold.length > 0 ? sold : [...new Set(chosen as string[])];
}

type Priced = Pick<WooVariation, 'price' | 'regular_price' | 'sale_price' | 'on_sale'>;

/** What it sells at now: the sale price while on sale (WooCommerce's `price` says which). */
const priceOf = (p: Priced): string | null => p.price || p.regular_price || null;
const wasPrice = (p: Priced): string | null =>
  p.on_sale && p.sale_price && p.regular_price ? p.regular_price : null;
const isAvailable = (status: string | undefined) => status === 'instock' || status === 'onbackorder';

/** The lowest of decimal prices, as written. */
const lowest = (prices: (string | null)[]): string | null =>
  prices.reduce<string | null>(
    (low, p) => (p !== null && (low === null || Number(p) < Number(low)) ? p : low),
    null,
  );

/** A simple product (or a variable one whose variations could not be had) as its one variant. */
function productVariant(p: WooProduct, attributes: NonNullable<WooProduct['attributes']>) {
  return {
    title: p.name,
    sku: p.sku || null,
    price: priceOf(p) ?? '0',
    compare_at_price: wasPrice(p),
    inventory: p.manage_stock ? (p.stock_quantity ?? null) : null,
    available: isAvailable(p.stock_status),
    options: Object.fromEntries(
      attributes.filter((a) => a.options?.length === 1).map((a) => [a.name, a.options![0]!]),
    ),
  };
}

/** "Size L / Color Red": the attributes it is for; one that takes any value is left out. */
function variationVariant(v: WooVariation) {
  const options = Object.fromEntries((v.attributes ?? []).map((a) => [a.name, a.option]));
  return {
    title: Object.values(options).join(' / ') || 'Any option',
    sku: v.sku || null,
    price: priceOf(v) ?? '0',
    compare_at_price: wasPrice(v),
    // Stock kept on the product ('parent') is shared by its variations: no count is this one's own.
    inventory: v.manage_stock === true ? (v.stock_quantity ?? null) : null,
    available: v.purchasable !== false && isAvailable(v.stock_status),
    options,
  };
}

function mapCategory(c: WooCategory, productTitles: string[]): RemoteRecord<'category'> {
  return {
    kind: 'category',
    externalId: String(c.id),
    title: htmlToText(c.name) || c.name,
    // The category's address depends on the store's permalink settings, which the API does not tell.
    url: null,
    status: null,
    updatedAt: null,
    lookupKey: null,
    data: {
      description: htmlToText(c.description ?? ''),
      products_count: c.count ?? null,
      product_titles: productTitles,
    },
  };
}

/** A few published product titles per category, one small request each (empty categories skipped). */
async function categoriesWithTitles(
  client: WooClient,
  categories: WooCategory[],
  signal: AbortSignal,
): Promise<RemoteRecord[]> {
  const records: RemoteRecord[] = [];
  for (const category of categories) {
    const params = { category: category.id, status: 'publish', _fields: 'id,name' };
    const products = category.count
      ? (await client.listPage('products', 1, TITLES_PER_CATEGORY, params, signal)).items
      : [];
    records.push(
      mapCategory(
        category,
        products.map((p) => p.name),
      ),
    );
  }
  return records;
}

function mapPage(p: WpPage): RemoteRecord<'page'> {
  const title = htmlToText(p.title?.rendered ?? '');
  return {
    kind: 'page',
    externalId: String(p.id),
    title: title || `Page ${p.id}`,
    url: p.link ?? null,
    status: p.status ?? null,
    updatedAt: utc(p.modified_gmt),
    lookupKey: null,
    data: {
      body: htmlToText(p.content?.rendered ?? ''),
      blog: null,
      author: null,
      tags: [],
      published_at: utc(p.date_gmt),
    },
  };
}

const DISCOUNT_TYPES: Record<string, string> = {
  percent: 'off the order',
  fixed_cart: 'off the cart',
  fixed_product: 'off each product',
};

function mapCoupon(c: WooCoupon): RemoteRecord<'coupon'> {
  const amount = c.amount && Number(c.amount) > 0 ? c.amount : null;
  const value = amount && c.discount_type === 'percent' ? `${Number(amount)}%` : amount;
  const minimum = c.minimum_amount && Number(c.minimum_amount) > 0 ? c.minimum_amount : null;
  const summary = [
    value ? `${value} ${DISCOUNT_TYPES[c.discount_type ?? ''] ?? 'off'}` : null,
    c.free_shipping ? 'free shipping' : null,
    minimum ? `minimum spend ${minimum}` : null,
    c.date_expires_gmt ? `expires ${c.date_expires_gmt.slice(0, 10)}` : null,
    c.description || null,
  ];
  return {
    kind: 'coupon',
    externalId: String(c.id),
    title: c.code.toUpperCase(),
    url: null,
    status: c.status ?? null,
    updatedAt: utc(c.date_modified_gmt),
    lookupKey: null,
    data: {
      code: c.code.toUpperCase(),
      summary: summary.filter(Boolean).join('; '),
      value,
      // WooCommerce coupons have no start date: they work from creation.
      starts_at: null,
      ends_at: utc(c.date_expires_gmt),
      usage_limit: c.usage_limit ?? null,
      minimum_amount: minimum,
    },
  };
}

const orderNumber = (o: WooOrder) => String(o.number ?? o.id);

/** Minor units, so refunds add up exactly. */
const cents = (money: string | number | undefined) => Math.round(Math.abs(Number(money ?? 0)) * 100) || 0;
const fromCents = (value: number) => (value / 100).toFixed(2);

function mapOrder(o: WooOrder): RemoteRecord<'order'> {
  const number = orderNumber(o);
  const refunded = (o.refunds ?? []).reduce((sum, r) => sum + cents(r.total), 0);
  const total = cents(o.total);
  const name = [o.billing?.first_name, o.billing?.last_name].filter(Boolean).join(' ');
  return {
    kind: 'order',
    externalId: String(o.id),
    title: `Order #${number}`,
    url: null,
    status: o.status ?? null,
    updatedAt: utc(o.date_modified_gmt),
    lookupKey: number.toLowerCase(),
    data: {
      number,
      email: o.billing?.email || null,
      phone: o.billing?.phone || null,
      customer_name: name || null,
      financial_status:
        refunded > 0
          ? refunded >= total
            ? 'refunded'
            : 'partially_refunded'
          : o.date_paid_gmt
            ? 'paid'
            : 'pending',
      fulfillment_status: o.status === 'completed' ? 'fulfilled' : null,
      total: o.total ?? '0.00',
      refunded: fromCents(refunded),
      currency: o.currency ?? '',
      placed_at: utc(o.date_created_gmt) ?? new Date(0).toISOString(),
      cancelled_at: o.status === 'cancelled' ? utc(o.date_modified_gmt) : null,
      lines: (o.line_items ?? []).map((line) => ({
        title: line.name,
        quantity: line.quantity,
        price: fromCents(cents(line.price)),
        sku: line.sku || null,
      })),
      tracking: metaTracking(o.meta_data),
      customer_id: o.customer_id ? String(o.customer_id) : null,
    },
  };
}

function mapCustomer(c: WooCustomer): RemoteRecord<'customer'> {
  const email = c.email || c.billing?.email || null;
  const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return {
    kind: 'customer',
    externalId: String(c.id),
    title: name || email || `Customer ${c.id}`,
    url: null,
    status: null,
    updatedAt: utc(c.date_modified_gmt),
    lookupKey: email?.toLowerCase() ?? null,
    data: {
      email,
      phone: c.billing?.phone || null,
      // wc/v3 dropped these from customers; older stores and some plugins still send them.
      orders_count: c.orders_count ?? 0,
      total_spent: c.total_spent ?? null,
      currency: null,
    },
  };
}

// ------------------------------------------ tracking -------------------------------------------

/** Carriers by the names shops write and the slugs Shipment Tracking stores, with their tracking page. */
const CARRIERS: { name: string; pattern: RegExp; url: (n: string) => string }[] = [
  {
    name: 'USPS',
    pattern: /\busps\b/i,
    url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  },
  { name: 'UPS', pattern: /\bups\b/i, url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  { name: 'FedEx', pattern: /\bfedex\b/i, url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}` },
  {
    name: 'DHL',
    pattern: /\bdhl\b/i,
    url: (n) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${n}`,
  },
];

const carrierOf = (text: string) => CARRIERS.find((c) => c.pattern.test(text)) ?? null;

type ShipmentItem = {
  tracking_provider?: string;
  custom_tracking_provider?: string;
  custom_tracking_link?: string;
  tracking_number?: string;
};

/** The Shipment Tracking (and Advanced Shipment Tracking) plugins' order meta. */
function metaTracking(meta: WooMeta[] | undefined): Tracking[] {
  const items = meta?.find((m) => m.key === '_wc_shipment_tracking_items')?.value;
  if (!Array.isArray(items)) return [];
  return (items as ShipmentItem[])
    .filter((item) => item.tracking_number)
    .map((item) => {
      const provider = item.custom_tracking_provider || item.tracking_provider || '';
      const carrier = carrierOf(provider);
      const number = item.tracking_number!;
      return {
        company: carrier?.name ?? (provider || null),
        number,
        url: item.custom_tracking_link || carrier?.url(number) || null,
        status: null,
      };
    });
}

/**
 * "Tracking number 1Z999 via UPS", "Your tracking no. is 9400...", "Tracking #: AB123456": the word
 * "tracking", an optional label, then the number. A number must hold a digit, so "tracking
 * information" is not one.
 */
const TRACKING_NUMBER =
  /\btracking\s*(?:number|no\.?|#|code|id)?\s*(?:is\b|:|#)?\s*([a-z0-9][a-z0-9-]{3,})/gi;
const LINK = /https?:\/\/[^\s"'<>]+/i;

/** Tracking that shops (or plugins without meta) write into order notes. */
function notesTracking(notes: WooOrderNote[]): Tracking[] {
  return notes.flatMap((note) => {
    const text = note.note.replace(/<[^>]*>/g, ' ');
    const carrier = carrierOf(text);
    const link = LINK.exec(note.note)?.[0] ?? null;
    return [...text.matchAll(TRACKING_NUMBER)]
      .map((m) => m[1]!)
      .filter((number) => /\d/.test(number))
      .map((number) => ({
        company: carrier?.name ?? null,
        number,
        url: link ?? carrier?.url(number) ?? null,
        status: null,
      }));
  });
}

/** The meta's entries first (structured), then numbers only the notes know. */
function mergeTracking(meta: Tracking[], notes: Tracking[]): Tracking[] {
  const known = new Set(meta.map((t) => t.number?.toLowerCase()));
  return [...meta, ...notes.filter((t) => !known.has(t.number?.toLowerCase()))];
}
