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
  if (!isLive(kind, payload as Raw)) return { remove: { kind, externalId } };
  return { upsert: toRecord(kind, payload as Raw, null) };
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

function mapProduct(p: WooProduct, currency: string | null): RemoteRecord<'product'> {
  const price = p.price || p.regular_price || null;
  const onSale = Boolean(p.on_sale && p.sale_price && p.regular_price);
  const attributes = p.attributes ?? [];
  const description = [htmlToText(p.short_description ?? ''), htmlToText(p.description ?? '')];
  return {
    kind: 'product',
    externalId: String(p.id),
    title: p.name,
    url: p.permalink ?? null,
    status: p.status ?? null,
    updatedAt: utc(p.date_modified_gmt),
    lookupKey: null,
    data: {
      description: [...new Set(description.filter(Boolean))].join('\n\n'),
      vendor: p.brands?.[0]?.name ?? null,
      // WooCommerce's `type` (simple, variable) is structure, not the kind of goods Shopify means.
      product_type: null,
      tags: names(p.tags),
      options: attributes.map((a) => ({ name: a.name, values: a.options ?? [] })),
      // A variable product's variations are a request each; its own price (the lowest) stands for them.
      variants: [
        {
          title: p.name,
          sku: p.sku || null,
          price: price ?? '0',
          compare_at_price: onSale ? (p.regular_price ?? null) : null,
          inventory: p.manage_stock ? (p.stock_quantity ?? null) : null,
          available: p.stock_status === 'instock' || p.stock_status === 'onbackorder',
          options: Object.fromEntries(
            attributes.filter((a) => a.options?.length === 1).map((a) => [a.name, a.options![0]!]),
          ),
        },
      ],
      image_url: p.images?.[0]?.src ?? null,
      price,
      currency,
      categories: names(p.categories),
    },
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
