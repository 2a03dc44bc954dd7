import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A WooCommerce (or WordPress) object as the REST API answers it. */
export type WooJson = Record<string, unknown> & { id: number };

/** The endpoints `failKind` can break; the first six are the store kinds the adapter syncs. */
export type WooFakeKind =
  | 'product'
  | 'category'
  | 'page'
  | 'coupon'
  | 'order'
  | 'customer'
  | 'note'
  | 'webhook'
  | 'settings'
  | 'variation';

type Listed = 'product' | 'category' | 'page' | 'coupon' | 'order' | 'customer';

export type WooFakeStore = {
  /** The site's base URL (WordPress in a sub-folder of the fake), what a user pastes. */
  url: string;
  consumerKey: string;
  consumerSecret: string;
  name: string;
  currency: string;
  /** Records by kind and id; change them through the fake's helpers so listings see it. */
  records: Record<Listed, Map<number, WooJson>>;
  notes: Map<number, WooJson[]>;
  /** A variable product's variations by id, by the product's id; change them through the helpers. */
  variations: Map<number, Map<number, WooJson>>;
};

/** What a test gives of a variation; the rest (price, on_sale, stock_status...) follows as in WooCommerce. */
export type VariationInput = Partial<WooJson> & { attributes?: { name: string; option: string }[] };

export type RegisteredWebhook = {
  storeUrl: string;
  id: number;
  topic: string;
  deliveryUrl: string;
  secret: string;
};

export type WooFake = {
  url: string;
  /** Every request as "METHOD /path" (query left out), in order. */
  requests: string[];
  /** Webhooks created through POST /webhooks. */
  webhooks: RegisteredWebhook[];
  /** A store with `products` generated products (default 20) and the fixed catalogue below. */
  addStore(options?: { products?: number; name?: string; currency?: string }): WooFakeStore;
  /** Adds or replaces a product; fields left out keep their value (or the generated default). */
  setProduct(store: WooFakeStore, product: Partial<WooJson>): WooJson;
  removeProduct(store: WooFakeStore, id: number): void;
  /**
   * Makes a product variable with these variations (replacing any it had); answers the product as
   * WooCommerce then lists it: lowest price, its attributes marked for variations, their ids.
   */
  setVariations(store: WooFakeStore, productId: number, variations: VariationInput[]): WooJson;
  /**
   * Changes one variation (by id); answers it as GET /products/{id} does, which is what WooCommerce's
   * product.updated delivery for a variation carries.
   */
  setVariation(store: WooFakeStore, productId: number, variation: VariationInput & { id: number }): WooJson;
  /** Adds or replaces a record of another kind (category, page, coupon, customer, order). */
  setRecord(store: WooFakeStore, kind: Exclude<Listed, 'product'>, record: WooJson): WooJson;
  addOrderNote(store: WooFakeStore, orderId: number, note: string, customerNote?: boolean): void;
  /** Makes an endpoint answer 500 (on) or work again (off). */
  failKind(kind: WooFakeKind, on?: boolean): void;
  /** Posts a delivery as WooCommerce does; `tamper` changes the body after signing it. */
  sendWebhook(
    url: string,
    topic: string,
    payload: unknown,
    options: { secret: string; tamper?: boolean; webhookId?: number; deliveryId?: string; source?: string },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
};

const BASE_TIME = Date.parse('2025-01-01T00:00:00Z');
const WEBHOOK_TOPICS = new Set(
  ['coupon', 'customer', 'order', 'product'].flatMap((r) =>
    ['created', 'updated', 'deleted', 'restored'].map((e) => `${r}.${e}`),
  ),
);

/**
 * A WooCommerce REST API v3 on loopback: products, categories, coupons, orders and their notes,
 * customers, webhooks, settings and system status under `/{store}/wp-json/wc/v3`, WordPress pages
 * under `/{store}/wp-json/wp/v2/pages` and the site index at `/{store}/wp-json/`. Each store lives
 * in its own folder so several can share the fake. Listings page as WooCommerce does (per_page at
 * most 100, X-WP-Total / X-WP-TotalPages); every record's JSON is cached so paging thousands is cheap.
 */
export async function startWooFake(): Promise<WooFake> {
  const stores = new Map<string, WooFakeStore>();
  const failing = new Set<WooFakeKind>();
  const requests: string[] = [];
  const webhooks: RegisteredWebhook[] = [];
  const nonces = new Set<string>();
  /** Variations are posts too: their ids come after any product a test makes. */
  let nextVariationId = 50_000;
  /** Each kind's records sorted by id, dropped when one changes. */
  const sorted = new WeakMap<Map<number, WooJson>, WooJson[]>();
  let nextStore = 1;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) =>
      send(res, 500, wcError('internal_server_error', String(error), 500)),
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}`);
    const match = /^\/([^/]+)\/wp-json(\/.*)?$/.exec(url.pathname.replace(/\/+$/, ''));
    const store = match ? stores.get(match[1]!) : undefined;
    if (!match || !store)
      return sendHtml(res, 404, '<!doctype html><title>Not found</title><h1>Not found</h1>');
    const route = match[2] ?? '/';
    const body = await readBody(req);
    if (route === '/') return send(res, 200, siteIndex(store));
    if (route === '/wp/v2/pages') return listing(res, store, 'page', url.searchParams);
    if (!route.startsWith('/wc/v3')) return send(res, 404, noRoute());
    const refused = authRefusal(req, url, store, fakeOrigin(req));
    if (refused) return send(res, 401, refused);
    return wcRoute(req, res, store, route.slice('/wc/v3'.length), url.searchParams, body);
  }

  function wcRoute(
    req: IncomingMessage,
    res: ServerResponse,
    store: WooFakeStore,
    route: string,
    query: URLSearchParams,
    body: string,
  ) {
    const get = req.method === 'GET';
    if (get && route === '') return send(res, 200, { namespace: 'wc/v3', routes: {} });
    if (get && route === '/products') return listing(res, store, 'product', query);
    const variations = /^\/products\/(\d+)\/variations$/.exec(route);
    if (get && variations) return variationListing(res, store, Number(variations[1]), query);
    if (get && route === '/products/categories') return listing(res, store, 'category', query);
    if (get && route === '/coupons') return listing(res, store, 'coupon', query);
    if (get && route === '/orders') return listing(res, store, 'order', query);
    if (get && route === '/customers') return listing(res, store, 'customer', query);
    const notes = /^\/orders\/(\d+)\/notes$/.exec(route);
    if (get && notes) return orderNotes(res, store, Number(notes[1]));
    const single = /^\/(products|orders|coupons|customers)\/(\d+)$/.exec(route);
    if (get && single) return one(res, store, SINGULAR[single[1]!]!, Number(single[2]));
    if (get && (route === '/settings/general/woocommerce_currency' || route === '/system_status')) {
      if (failing.has('settings')) return send(res, 500, serverError());
      return send(res, 200, route === '/system_status' ? systemStatus(store) : currencySetting(store));
    }
    if (req.method === 'POST' && route === '/webhooks') return createWebhook(res, store, body);
    return send(res, 404, noRoute());
  }

  function listing(res: ServerResponse, store: WooFakeStore, kind: Listed, query: URLSearchParams) {
    if (failing.has(kind)) return send(res, 500, serverError());
    const perPage = Number(query.get('per_page') ?? 10);
    const page = Number(query.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      return send(
        res,
        400,
        invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'),
      );
    if (!Number.isInteger(page) || page < 1)
      return send(res, 400, invalidParam('page', 'page must be at least 1'));
    const items = ordered(store, kind, query).filter(filterFor(kind, query));
    const totalPages = Math.ceil(items.length / perPage);
    // WordPress refuses a page past the end; WooCommerce answers an empty list.
    if (kind === 'page' && page > totalPages && items.length > 0)
      return send(
        res,
        400,
        wcError(
          'rest_post_invalid_page_number',
          'The page number requested is larger than the number of pages available.',
          400,
        ),
      );
    sendPage(res, items, page, perPage, query);
  }

  /**
   * GET /products/{id}/variations: WooCommerce's variations controller, a product listing under its
   * parent (per_page 1..100, default 10; status default any; X-WP-Total / X-WP-TotalPages). A
   * product without variations, or none at all, lists nothing.
   */
  function variationListing(
    res: ServerResponse,
    store: WooFakeStore,
    productId: number,
    query: URLSearchParams,
  ) {
    if (failing.has('variation')) return send(res, 500, serverError());
    const perPage = Number(query.get('per_page') ?? 10);
    const page = Number(query.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      return send(
        res,
        400,
        invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'),
      );
    if (!Number.isInteger(page) || page < 1)
      return send(res, 400, invalidParam('page', 'page must be at least 1'));
    const status = query.get('status');
    const statuses = status && status !== 'any' ? status.split(',') : null;
    const all = [...(store.variations.get(productId)?.values() ?? [])];
    const items = all.filter((v) => !statuses || statuses.includes(String(v.status)));
    sendPage(res, items, page, perPage, query);
  }

  /** One page of a listing with WordPress's paging headers; `_fields` keeps only the named fields. */
  function sendPage(
    res: ServerResponse,
    items: WooJson[],
    page: number,
    perPage: number,
    query: URLSearchParams,
  ) {
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const fields = query
      .get('_fields')
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const render = fields?.length ? (r: WooJson) => JSON.stringify(pick(r, fields)) : jsonOf;
    res.writeHead(200, {
      'content-type': 'application/json; charset=UTF-8',
      'x-wp-total': String(items.length),
      'x-wp-totalpages': String(Math.ceil(items.length / perPage)),
    });
    res.end(`[${slice.map(render).join(',')}]`);
  }

  /** The kind's records sorted as asked: id or date (creation order here), title or name; default as WooCommerce. */
  function ordered(store: WooFakeStore, kind: Listed, query: URLSearchParams): WooJson[] {
    const map = store.records[kind];
    let list = sorted.get(map);
    if (!list) {
      list = [...map.values()].sort((a, b) => a.id - b.id);
      sorted.set(map, list);
    }
    const byName = kind === 'category' || kind === 'customer';
    const orderby = query.get('orderby') ?? (byName ? 'name' : 'date');
    const order = query.get('order') ?? (byName ? 'asc' : 'desc');
    let result = list;
    if (orderby === 'title' || orderby === 'name') {
      const label = (r: WooJson) =>
        String(r.name ?? (r.title as { rendered?: string })?.rendered ?? r.email ?? '');
      result = [...list].sort((a, b) => label(a).localeCompare(label(b)));
    }
    return order === 'desc' ? [...result].reverse() : result;
  }

  function one(res: ServerResponse, store: WooFakeStore, kind: Listed, id: number) {
    if (failing.has(kind)) return send(res, 500, serverError());
    // Variations share the products' ids: /products/{id} answers one as a product of type variation.
    const variation = kind === 'product' ? findVariation(store, id) : null;
    const record = variation ? variationAsProduct(store, variation) : store.records[kind].get(id);
    if (!record) return send(res, 404, wcError(`woocommerce_rest_${kind}_invalid_id`, 'Invalid ID.', 404));
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(jsonOf(record));
  }

  function orderNotes(res: ServerResponse, store: WooFakeStore, id: number) {
    if (failing.has('note')) return send(res, 500, serverError());
    if (!store.records.order.has(id))
      return send(res, 404, wcError('woocommerce_rest_order_invalid_id', 'Invalid order ID.', 404));
    send(res, 200, store.notes.get(id) ?? []);
  }

  function createWebhook(res: ServerResponse, store: WooFakeStore, raw: string) {
    if (failing.has('webhook')) return send(res, 500, serverError());
    const body = parseJson(raw);
    const topic = String(body.topic ?? '');
    if (!WEBHOOK_TOPICS.has(topic)) return send(res, 400, invalidParam('topic', 'Webhook topic is invalid.'));
    if (!/^https?:\/\//.test(String(body.delivery_url ?? '')))
      return send(res, 400, invalidParam('delivery_url', 'Invalid URL.'));
    const hook: RegisteredWebhook = {
      storeUrl: store.url,
      id: webhooks.length + 1,
      topic,
      deliveryUrl: String(body.delivery_url),
      secret: String(body.secret ?? ''),
    };
    webhooks.push(hook);
    const [resource, event] = topic.split('.');
    send(res, 201, {
      id: hook.id,
      name: String(body.name ?? `Webhook created on ${stamp(0)}`),
      status: String(body.status ?? 'active'),
      topic,
      resource,
      event,
      hooks: [`woocommerce_${event}_${resource}`],
      delivery_url: hook.deliveryUrl,
      date_created: stamp(0),
      date_created_gmt: stamp(0),
    });
  }

  /**
   * WooCommerce's key check. Over HTTPS it takes HTTP Basic or consumer_key/consumer_secret in the
   * query; over plain HTTP only OAuth 1.0a (what the official client signs for http URLs). The fake
   * has no TLS, so it takes all three, and checks OAuth signatures as WooCommerce does.
   */
  function authRefusal(req: IncomingMessage, url: URL, store: WooFakeStore, origin: string): object | null {
    const q = url.searchParams;
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [key, secret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')
      : [q.get('consumer_key') ?? q.get('oauth_consumer_key'), q.get('consumer_secret')];
    if (key !== store.consumerKey)
      return wcError('woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.', 401);
    if (!basic && q.has('oauth_signature'))
      return oauthRefusal(req.method ?? 'GET', `${origin}${url.pathname}`, q, store);
    if (secret !== store.consumerSecret)
      return wcError('woocommerce_rest_authentication_error', 'Consumer secret is invalid.', 401);
    return null;
  }

  function oauthRefusal(
    method: string,
    baseUrl: string,
    query: URLSearchParams,
    store: WooFakeStore,
  ): object | null {
    // PHP keeps the last of repeated query keys, and the official client sends its parameters twice.
    const params = Object.entries(Object.fromEntries(query)).filter(([k]) => k !== 'oauth_signature');
    const algorithm = query.get('oauth_signature_method');
    if (algorithm !== 'HMAC-SHA256' && algorithm !== 'HMAC-SHA1')
      return wcError(
        'woocommerce_rest_authentication_error',
        'Invalid signature - signature method is invalid.',
        401,
      );
    const timestamp = Number(query.get('oauth_timestamp'));
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 15 * 60)
      return wcError('woocommerce_rest_authentication_error', 'Invalid timestamp.', 401);
    const nonce = `${query.get('oauth_consumer_key')}:${query.get('oauth_nonce')}:${timestamp}`;
    if (nonces.has(nonce))
      return wcError(
        'woocommerce_rest_authentication_error',
        'Invalid nonce - nonce has already been used.',
        401,
      );
    const paramString = params
      .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
      .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const base = `${method.toUpperCase()}&${rfc3986(baseUrl)}&${rfc3986(paramString)}`;
    const expected = createHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', `${store.consumerSecret}&`)
      .update(base)
      .digest('base64');
    if (!safeEqual(expected, query.get('oauth_signature') ?? ''))
      return wcError(
        'woocommerce_rest_authentication_error',
        'Invalid signature - provided signature does not match.',
        401,
      );
    nonces.add(nonce);
    return null;
  }

  function touch(store: WooFakeStore, kind: Listed, record: WooJson): WooJson {
    store.records[kind].set(record.id, record);
    sorted.delete(store.records[kind]);
    return record;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    requests,
    webhooks,
    addStore: ({ products = 20, name = 'Acme Outfitters', currency = 'USD' } = {}) => {
      const slug = `store-${nextStore++}`;
      const store: WooFakeStore = {
        url: `${base}/${slug}`,
        consumerKey: `ck_${randomBytes(20).toString('hex')}`,
        consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
        name,
        currency,
        records: {
          product: new Map(),
          category: new Map(),
          page: new Map(),
          coupon: new Map(),
          order: new Map(),
          customer: new Map(),
        },
        notes: new Map(),
        variations: new Map(),
      };
      seedCatalogue(store, products);
      stores.set(slug, store);
      return store;
    },
    setProduct: (store, product) => {
      const id = product.id ?? Math.max(0, ...store.records.product.keys()) + 1;
      const current = store.records.product.get(id) ?? generateProduct(store, id);
      return touch(store, 'product', {
        ...current,
        ...product,
        id,
        date_modified_gmt: new Date().toISOString().slice(0, 19),
      });
    },
    removeProduct: (store, id) => {
      store.records.product.delete(id);
      store.variations.delete(id);
      sorted.delete(store.records.product);
    },
    setVariations: (store, productId, inputs) => {
      const list = new Map<number, WooJson>();
      for (const input of inputs) {
        const id = input.id ?? nextVariationId++;
        list.set(id, variationJson(store, productId, { ...input, id }, null));
      }
      store.variations.set(productId, list);
      return touch(store, 'product', variableParent(store, productId));
    },
    setVariation: (store, productId, input) => {
      const list = store.variations.get(productId);
      if (!list) throw new Error(`product ${productId} has no variations`);
      const variation = variationJson(store, productId, input, list.get(input.id) ?? null);
      list.set(input.id, variation);
      touch(store, 'product', variableParent(store, productId));
      return variationAsProduct(store, variation);
    },
    setRecord: (store, kind, record) => touch(store, kind, record),
    addOrderNote: (store, orderId, note, customerNote = false) => addNote(store, orderId, note, customerNote),
    failKind: (kind, on = true) => {
      if (on) failing.add(kind);
      else failing.delete(kind);
    },
    sendWebhook: (url, topic, payload, options) => deliver(url, topic, payload, options, base),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const SINGULAR: Record<string, Listed> = {
  products: 'product',
  orders: 'order',
  coupons: 'coupon',
  customers: 'customer',
};

/** Each record's JSON text, made once per object (a change replaces the object). */
const jsonCache = new WeakMap<WooJson, string>();
function jsonOf(record: WooJson): string {
  let text = jsonCache.get(record);
  if (text === undefined) {
    text = JSON.stringify(record);
    jsonCache.set(record, text);
  }
  return text;
}

function filterFor(kind: Listed, query: URLSearchParams): (record: WooJson) => boolean {
  const search = query.get('search')?.toLowerCase();
  const status = query.get('status');
  const featured = query.get('featured');
  const category = query.get('category');
  const customer = query.get('customer');
  const statuses = status && status !== 'any' ? status.split(',') : null;
  return (r) => {
    if (statuses && !statuses.includes(String(r.status))) return false;
    if (featured && String(r.featured) !== featured) return false;
    if (category && !(r.categories as { id: number }[]).some((c) => String(c.id) === category)) return false;
    if (customer && String(r.customer_id) !== customer) return false;
    return !search || searchText(kind, r).includes(search);
  };
}

const searchText = (kind: Listed, r: WooJson): string => {
  if (kind === 'order') {
    const billing = r.billing as Record<string, string>;
    return `${r.number} ${billing.email} ${billing.first_name} ${billing.last_name}`.toLowerCase();
  }
  if (kind === 'page') return String((r.title as { rendered: string }).rendered).toLowerCase();
  return `${r.name ?? ''} ${r.sku ?? ''} ${r.code ?? ''} ${r.email ?? ''}`.toLowerCase();
};

// ------------------------------------------ catalogue ------------------------------------------

const COLOURS = ['Red', 'Blue', 'Green', 'Black', 'White', 'Grey', 'Navy', 'Olive'];
const ITEMS = [
  'T-Shirt',
  'Hoodie',
  'Cap',
  'Mug',
  'Poster',
  'Sneakers',
  'Backpack',
  'Scarf',
  'Socks',
  'Jacket',
];
const CATEGORIES = ['Clothing', 'Accessories', 'Home', 'Footwear', 'Bags'];
const CATEGORY_OF: Record<string, number> = {
  'T-Shirt': 0,
  Hoodie: 0,
  Jacket: 0,
  Cap: 1,
  Scarf: 1,
  Socks: 1,
  Mug: 2,
  Poster: 2,
  Sneakers: 3,
  Backpack: 4,
};

const stamp = (minutes: number) => new Date(BASE_TIME + minutes * 60_000).toISOString().slice(0, 19);
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Product `id`, the same for the same id: every seventh on sale, every eleventh out of stock. */
function generateProduct(store: WooFakeStore, id: number): WooJson {
  const colour = COLOURS[id % COLOURS.length]!;
  const item = ITEMS[Math.floor(id / COLOURS.length) % ITEMS.length]!;
  const name = `${colour} ${item} ${id}`;
  const slug = slugOf(name);
  const categoryIndex = CATEGORY_OF[item]!;
  const regular = (10 + (id % 90) + 0.99).toFixed(2);
  const onSale = id % 7 === 0;
  const sale = onSale ? (Number(regular) * 0.8).toFixed(2) : '';
  const outOfStock = id % 11 === 0;
  return {
    id,
    name,
    slug,
    permalink: `${store.url}/product/${slug}/`,
    date_created: stamp(id),
    date_created_gmt: stamp(id),
    date_modified: stamp(id),
    date_modified_gmt: stamp(id),
    type: 'simple',
    status: 'publish',
    featured: id % 10 === 0,
    catalog_visibility: 'visible',
    description: `<h2>About the ${item.toLowerCase()}</h2><p>A ${colour.toLowerCase()} ${item.toLowerCase()} made to last.</p><ul><li>Organic cotton</li><li>Machine washable</li></ul>`,
    short_description: `<p>Our ${colour.toLowerCase()} ${item.toLowerCase()}.</p>`,
    sku: `SKU-${id}`,
    price: onSale ? sale : regular,
    regular_price: regular,
    sale_price: sale,
    on_sale: onSale,
    purchasable: true,
    total_sales: id % 13,
    manage_stock: true,
    stock_quantity: outOfStock ? 0 : 5 + (id % 40),
    stock_status: outOfStock ? 'outofstock' : 'instock',
    categories: [
      { id: categoryIndex + 1, name: CATEGORIES[categoryIndex], slug: slugOf(CATEGORIES[categoryIndex]!) },
    ],
    tags: [{ id: 100 + (id % COLOURS.length), name: colour.toLowerCase(), slug: colour.toLowerCase() }],
    images: [{ id: 10_000 + id, src: `${store.url}/wp-content/uploads/${slug}.jpg`, name: name, alt: name }],
    attributes: [{ id: 1, name: 'Color', position: 0, visible: true, variation: false, options: [colour] }],
    variations: [],
    meta_data: [],
  };
}

// ------------------------------------------ variations -----------------------------------------

const findVariation = (store: WooFakeStore, id: number): WooJson | null => {
  for (const list of store.variations.values()) if (list.has(id)) return list.get(id)!;
  return null;
};

/**
 * A variation as the variations controller answers it: its own price, or its sale price while on
 * sale; stock counted on it (manage_stock true), on its product ('parent'), or not at all.
 */
function variationJson(
  store: WooFakeStore,
  productId: number,
  input: VariationInput & { id: number },
  current: WooJson | null,
): WooJson {
  const parent = store.records.product.get(productId);
  if (!parent) throw new Error(`no product ${productId}`);
  const merged: WooJson = { ...(current ?? variationDefaults(input.id)), ...input };
  const attributes = (merged.attributes as { name: string; option: string }[]).map((a, i) => ({
    id: i + 1,
    name: a.name,
    slug: `pa_${slugOf(a.name)}`,
    option: a.option,
  }));
  const regular = String(merged.regular_price ?? '');
  const sale = String(merged.sale_price ?? '');
  const managed = merged.manage_stock;
  const quantity =
    managed === 'parent' ? (parent.stock_quantity ?? null) : managed ? merged.stock_quantity : null;
  const counted = managed === true && typeof quantity === 'number';
  const query = attributes
    .map((a) => `attribute_${a.slug}=${encodeURIComponent(slugOf(a.option))}`)
    .join('&');
  return {
    ...merged,
    name: [parent.name, attributes.map((a) => a.option).join(', ')].filter(Boolean).join(' - '),
    parent_id: productId,
    permalink: `${String(parent.permalink)}${query ? `?${query}` : ''}`,
    sku: merged.sku || parent.sku,
    price: sale || regular,
    regular_price: regular,
    sale_price: sale,
    on_sale: sale !== '',
    purchasable: (sale || regular) !== '' && merged.status === 'publish',
    stock_quantity: quantity,
    stock_status: counted ? ((quantity as number) > 0 ? 'instock' : 'outofstock') : merged.stock_status,
    attributes,
    date_modified: new Date().toISOString().slice(0, 19),
    date_modified_gmt: new Date().toISOString().slice(0, 19),
  };
}

const variationDefaults = (id: number): WooJson => ({
  id,
  type: 'variation',
  date_created: stamp(id % 10_000),
  date_created_gmt: stamp(id % 10_000),
  description: '',
  sku: '',
  regular_price: '20.00',
  sale_price: '',
  date_on_sale_from: null,
  date_on_sale_from_gmt: null,
  date_on_sale_to: null,
  date_on_sale_to_gmt: null,
  status: 'publish',
  virtual: false,
  downloadable: false,
  downloads: [],
  download_limit: -1,
  download_expiry: -1,
  tax_status: 'taxable',
  tax_class: '',
  manage_stock: true,
  stock_quantity: 10,
  stock_status: 'instock',
  backorders: 'no',
  backorders_allowed: false,
  backordered: false,
  low_stock_amount: null,
  weight: '',
  dimensions: { length: '', width: '', height: '' },
  shipping_class: '',
  shipping_class_id: 0,
  image: null,
  attributes: [],
  menu_order: 0,
  meta_data: [],
});

/**
 * The product once its variations change, as WooCommerce syncs it: type variable, the lowest
 * price of its published variations (no regular or sale price of its own), on sale and in stock
 * when any variation is, its attributes' values marked for variations, and their ids.
 */
function variableParent(store: WooFakeStore, productId: number): WooJson {
  const parent = store.records.product.get(productId)!;
  const all = [...(store.variations.get(productId)?.values() ?? [])];
  const sold = all.filter((v) => v.purchasable);
  const cheapest = sold.reduce<WooJson | null>(
    (low, v) => (low === null || Number(v.price) < Number(low.price) ? v : low),
    null,
  );
  const shared = all.some((v) => v.manage_stock === 'parent');
  const names = [...new Set(all.flatMap((v) => (v.attributes as { name: string }[]).map((a) => a.name)))];
  const own = (parent.attributes as { name: string }[]).filter((a) => !names.includes(a.name));
  const varied = names.map((name, i) => ({
    id: 0,
    name,
    position: own.length + i,
    visible: true,
    variation: true,
    options: [
      ...new Set(
        all.flatMap((v) =>
          (v.attributes as { name: string; option: string }[])
            .filter((a) => a.name === name)
            .map((a) => a.option),
        ),
      ),
    ],
  }));
  return {
    ...parent,
    type: 'variable',
    price: cheapest ? cheapest.price : '',
    regular_price: '',
    sale_price: '',
    on_sale: sold.some((v) => v.on_sale),
    purchasable: sold.length > 0,
    // Stock kept on the product for its variations ('parent') stays the product's.
    manage_stock: shared ? parent.manage_stock : false,
    stock_quantity: shared ? parent.stock_quantity : null,
    stock_status: sold.some((v) => v.stock_status !== 'outofstock') ? 'instock' : 'outofstock',
    attributes: [...own, ...varied],
    variations: all.map((v) => v.id),
    date_modified_gmt: new Date().toISOString().slice(0, 19),
  };
}

/** A variation read through /products/{id}: the products controller's shape, type variation. */
function variationAsProduct(store: WooFakeStore, variation: WooJson): WooJson {
  const parent = store.records.product.get(Number(variation.parent_id));
  return {
    ...variation,
    slug: slugOf(String(variation.name)),
    type: 'variation',
    featured: false,
    catalog_visibility: 'visible',
    short_description: '',
    categories: [],
    tags: [],
    images: variation.image ? [variation.image] : (parent?.images ?? []),
    attributes: (variation.attributes as { id: number; name: string; option: string }[]).map(
      ({ id, name, option }) => ({ id, name, option }),
    ),
    variations: [],
  };
}

/** WordPress's `_fields`: only the named top-level fields. */
const pick = (record: WooJson, fields: string[]) =>
  Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]]));

const PAGES: [string, string][] = [
  ['About us', '<h1>About us</h1><p>We are a small family business selling organic clothing since 2010.</p>'],
  [
    'Shipping and returns',
    '<h2>Shipping</h2><p>Orders ship within 2 business days with UPS.</p><h2>Returns</h2><p>Return unworn items within 30 days for a full refund.</p>',
  ],
  ['FAQ', '<h2>Do you ship abroad?</h2><p>Yes, to 40 countries.</p>'],
];

function seedCatalogue(store: WooFakeStore, products: number): void {
  const { records } = store;
  // JSON made now, so a benchmark paging the catalogue times serving, not serialising.
  for (let id = 1; id <= products; id++) {
    const product = generateProduct(store, id);
    jsonOf(product);
    records.product.set(id, product);
  }
  CATEGORIES.forEach((name, i) => {
    const id = i + 1;
    const count = [...records.product.values()].filter(
      (p) => (p.categories as { id: number }[])[0]?.id === id,
    ).length;
    records.category.set(id, {
      id,
      name,
      slug: slugOf(name),
      parent: 0,
      description: `<p>Everything in ${name.toLowerCase()}.</p>`,
      display: 'default',
      image: null,
      menu_order: 0,
      count,
    });
  });
  PAGES.forEach(([title, html], i) => {
    const id = 200 + i;
    records.page.set(id, pageJson(store, id, title, html));
  });
  records.coupon.set(
    301,
    couponJson(301, 'WELCOME10', 'percent', '10.00', { description: '10% off your first order' }),
  );
  records.coupon.set(
    302,
    couponJson(302, 'FREESHIP', 'fixed_cart', '0.00', {
      free_shipping: true,
      minimum_amount: '50.00',
      date_expires: '2030-12-31T23:59:59',
      date_expires_gmt: '2030-12-31T23:59:59',
    }),
  );
  records.customer.set(501, customerJson(501, 'Jane', 'Doe', 'jane@example.com', '+15550001111'));
  records.customer.set(502, customerJson(502, 'John', 'Smith', 'john@example.com', '+15550002222'));
  records.order.set(1001, orderJson(store, 1001, records.customer.get(501)!, 'processing', shippedWithUps()));
  records.order.set(1002, orderJson(store, 1002, records.customer.get(502)!, 'pending', []));
  addNote(store, 1001, 'Order status changed from Pending payment to Processing.', false);
  addNote(store, 1001, 'Tracking number 1Z999 via UPS', true);
}

const shippedWithUps = () => [
  {
    id: 9001,
    key: '_wc_shipment_tracking_items',
    value: [
      {
        tracking_provider: 'ups',
        custom_tracking_provider: '',
        custom_tracking_link: '',
        tracking_number: '1Z999AA10123456784',
        date_shipped: '1736121600',
        tracking_id: 'a1b2c3',
      },
    ],
  },
];

function addNote(store: WooFakeStore, orderId: number, note: string, customerNote: boolean): void {
  const list = store.notes.get(orderId) ?? [];
  const id = 7000 + [...store.notes.values()].reduce((n, l) => n + l.length, 0) + 1;
  list.push({
    id,
    author: 'system',
    date_created: stamp(id),
    date_created_gmt: stamp(id),
    note,
    customer_note: customerNote,
  });
  store.notes.set(orderId, list);
}

const pageJson = (store: WooFakeStore, id: number, title: string, html: string): WooJson => ({
  id,
  date: stamp(id),
  date_gmt: stamp(id),
  modified: stamp(id),
  modified_gmt: stamp(id),
  slug: slugOf(title),
  status: 'publish',
  type: 'page',
  link: `${store.url}/${slugOf(title)}/`,
  title: { rendered: title },
  content: { rendered: html, protected: false },
  excerpt: { rendered: '', protected: false },
  author: 1,
  parent: 0,
  menu_order: 0,
});

const couponJson = (
  id: number,
  code: string,
  type: string,
  amount: string,
  extra: Record<string, unknown>,
): WooJson => ({
  id,
  code: code.toLowerCase(),
  amount,
  status: 'publish',
  date_created: stamp(id),
  date_created_gmt: stamp(id),
  date_modified: stamp(id),
  date_modified_gmt: stamp(id),
  discount_type: type,
  description: '',
  date_expires: null,
  date_expires_gmt: null,
  usage_count: 0,
  individual_use: false,
  product_ids: [],
  usage_limit: null,
  usage_limit_per_user: null,
  free_shipping: false,
  minimum_amount: '0.00',
  maximum_amount: '0.00',
  ...extra,
});

const address = (first: string, last: string, email: string, phone: string) => ({
  first_name: first,
  last_name: last,
  company: '',
  address_1: '1 Main Street',
  address_2: '',
  city: 'Springfield',
  state: 'IL',
  postcode: '62701',
  country: 'US',
  email,
  phone,
});

const customerJson = (id: number, first: string, last: string, email: string, phone: string): WooJson => ({
  id,
  date_created: stamp(id),
  date_created_gmt: stamp(id),
  date_modified: stamp(id),
  date_modified_gmt: stamp(id),
  email,
  first_name: first,
  last_name: last,
  role: 'customer',
  username: first.toLowerCase(),
  billing: address(first, last, email, phone),
  shipping: address(first, last, '', ''),
  is_paying_customer: true,
  avatar_url: '',
  meta_data: [],
});

function orderJson(
  store: WooFakeStore,
  id: number,
  customer: WooJson,
  status: string,
  meta: unknown[],
): WooJson {
  const billing = customer.billing as ReturnType<typeof address>;
  return {
    id,
    parent_id: 0,
    number: String(id),
    order_key: `wc_order_${id}`,
    status,
    currency: store.currency,
    date_created: stamp(id),
    date_created_gmt: stamp(id),
    date_modified: stamp(id + 60),
    date_modified_gmt: stamp(id + 60),
    date_paid_gmt: status === 'pending' ? null : stamp(id + 5),
    date_completed_gmt: null,
    discount_total: '0.00',
    shipping_total: '5.00',
    total: '64.00',
    total_tax: '0.00',
    customer_id: customer.id,
    billing,
    shipping: customer.shipping,
    payment_method: 'stripe',
    payment_method_title: 'Credit card',
    line_items: [
      {
        id: id * 10 + 1,
        name: 'Blue T-Shirt',
        product_id: 1,
        quantity: 2,
        subtotal: '40.00',
        total: '40.00',
        sku: 'SKU-1',
        price: 20,
      },
      {
        id: id * 10 + 2,
        name: 'Green Mug',
        product_id: 2,
        quantity: 1,
        subtotal: '19.00',
        total: '19.00',
        sku: 'SKU-2',
        price: 19,
      },
    ],
    shipping_lines: [{ id: id * 10 + 3, method_title: 'Flat rate', total: '5.00' }],
    refunds: [],
    meta_data: meta,
    customer_note: '',
  };
}

const siteIndex = (store: WooFakeStore) => ({
  name: store.name,
  description: 'Just another WordPress site',
  url: store.url,
  home: store.url,
  gmt_offset: 0,
  timezone_string: 'UTC',
  namespaces: ['oembed/1.0', 'wc/v3', 'wc/store/v1', 'wp/v2'],
  authentication: [],
  routes: {},
});

const currencySetting = (store: WooFakeStore) => ({
  id: 'woocommerce_currency',
  label: 'Currency',
  type: 'select',
  default: 'USD',
  value: store.currency,
});

const systemStatus = (store: WooFakeStore) => ({
  environment: { home_url: store.url, site_url: store.url, version: '9.4.0', wp_version: '6.7.1' },
  settings: { currency: store.currency, currency_symbol: '$', number_of_decimals: 2 },
  active_plugins: [],
});

// ------------------------------------------ webhooks -------------------------------------------

async function deliver(
  url: string,
  topic: string,
  payload: unknown,
  options: { secret: string; tamper?: boolean; webhookId?: number; deliveryId?: string; source?: string },
  base: string,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(payload);
  const signature = createHmac('sha256', options.secret).update(body).digest('base64');
  const [resource, event] = topic.split('.');
  // A changed byte after signing: what a forged or altered delivery looks like.
  const sent = options.tamper ? `${body} ` : body;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'WooCommerce/9.4.0 Hookshot (WordPress/6.7.1)',
      'x-wc-webhook-source': options.source ?? `${base}/`,
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-resource': resource ?? '',
      'x-wc-webhook-event': event ?? '',
      'x-wc-webhook-signature': signature,
      'x-wc-webhook-id': String(options.webhookId ?? 1),
      'x-wc-webhook-delivery-id': options.deliveryId ?? randomBytes(16).toString('hex'),
    },
    body: sent,
  });
  return { status: response.status, body: await response.text() };
}

// ------------------------------------------ wire helpers ---------------------------------------

const wcError = (code: string, message: string, status: number) => ({ code, message, data: { status } });
const serverError = () =>
  wcError('internal_server_error', 'There has been a critical error on this website.', 500);
const noRoute = () =>
  wcError('rest_no_route', 'No route was found matching the URL and request method.', 404);
const invalidParam = (param: string, message: string) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${param}`,
  data: { status: 400, params: { [param]: message } },
});

/** RFC 3986 percent-encoding, as OAuth 1.0a signs with. */
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const safeEqual = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const fakeOrigin = (req: IncomingMessage) => `http://${req.headers.host}`;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
  res.end(html);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}
