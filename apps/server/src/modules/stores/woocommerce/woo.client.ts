import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WooType } from '@parley/contracts';
import wooRestApi from '@woocommerce/woocommerce-rest-api';
import {
  BlockedUrlError,
  checkUrl,
  parseCrawlUrl,
  type ResolvedAddress,
  type Resolver,
  safeFetch,
} from '../../crawler/safe-fetch.js';

/**
 * A typed client for one WooCommerce store over the official `@woocommerce/woocommerce-rest-api`
 * (axios underneath). It signs as WooCommerce wants (HTTP Basic over https, OAuth 1.0a over http);
 * we only add the SSRF rule and the limits through its `axiosConfig`: every request first resolves
 * the store's host with the crawler's `checkUrl`, then connects to exactly that address (a pinned
 * `lookup`, so DNS cannot answer differently the second time), follows no redirect, ignores proxy
 * variables, and gives up after `timeoutMs`.
 */

/**
 * The package is CommonJS compiled from ES modules: Node hands over `module.exports` (whose `default`
 * is the class), while Vitest honours `__esModule` and hands over the class itself.
 */
const WooCommerceRestApi = ((wooRestApi as { default?: unknown }).default ??
  wooRestApi) as typeof wooRestApi.default;

export const WOO_TIMEOUT_MS = 15_000;
/** WooCommerce's largest page size. */
export const WOO_PAGE_SIZE = 100;
/**
 * At most this many of a product's variations are read (two requests at most): more sizes and
 * colours than any shopper scrolls, and a bound on what one product costs a sync.
 */
export const MAX_VARIATIONS = 200;
const MAX_BYTES = 20 * 1024 * 1024;

export type WooErrorReason =
  | 'auth'
  | 'blocked'
  | 'not_woocommerce'
  | 'not_found'
  | 'timeout'
  | 'network'
  | 'http';

/** A request the store refused or could not answer; `message` can be shown to the user. */
export class WooError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly reason: WooErrorReason,
    /** WooCommerce's own error code (woocommerce_rest_cannot_view...), when it sent one. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'WooError';
  }

  /** The store refused the consumer key or secret (or their permissions). */
  get isAuthRefusal(): boolean {
    return this.reason === 'auth';
  }
}

// ------------------------------------------ wire types -----------------------------------------
// What Parley reads of WooCommerce's JSON; everything is optional where plugins or versions omit it.

type Term = { id: number; name: string; slug?: string };
export type WooMeta = { id?: number; key: string; value: unknown };

export type WooProduct = {
  id: number;
  name: string;
  permalink?: string;
  status?: string;
  type?: string;
  date_modified_gmt?: string | null;
  description?: string;
  short_description?: string;
  sku?: string;
  price?: string;
  regular_price?: string;
  sale_price?: string;
  on_sale?: boolean;
  manage_stock?: boolean;
  stock_quantity?: number | null;
  stock_status?: string;
  categories?: Term[];
  tags?: Term[];
  brands?: Term[];
  images?: { src: string }[];
  attributes?: { name: string; options?: string[] }[];
  /** A variable product's variation ids. */
  variations?: number[];
  /** A variation read through /products/{id} (what a webhook for one carries): its product. */
  parent_id?: number;
};

/** One of a variable product's variations, as /products/{id}/variations lists it. */
export type WooVariation = {
  id: number;
  status?: string;
  sku?: string;
  price?: string;
  regular_price?: string;
  sale_price?: string;
  on_sale?: boolean;
  purchasable?: boolean;
  /** `parent` when the product's own stock counts for it. */
  manage_stock?: boolean | 'parent';
  stock_quantity?: number | null;
  stock_status?: string;
  /** The attributes it is for; one it leaves out takes any value ("Any Size"). */
  attributes?: { id?: number; name: string; option: string }[];
};

/** What Parley reads of a variation: asked with `_fields`, so a variation's long JSON stays home. */
const VARIATION_FIELDS =
  'id,status,sku,price,regular_price,sale_price,on_sale,purchasable,manage_stock,stock_quantity,stock_status,attributes';

export type WooCategory = { id: number; name: string; description?: string; count?: number };

export type WpPage = {
  id: number;
  link?: string;
  status?: string;
  date_gmt?: string | null;
  modified_gmt?: string | null;
  title?: { rendered?: string };
  content?: { rendered?: string };
};

export type WooCoupon = {
  id: number;
  code: string;
  status?: string;
  amount?: string;
  discount_type?: string;
  description?: string;
  date_created_gmt?: string | null;
  date_modified_gmt?: string | null;
  date_expires_gmt?: string | null;
  usage_limit?: number | null;
  minimum_amount?: string;
  free_shipping?: boolean;
};

type WooAddress = { first_name?: string; last_name?: string; email?: string; phone?: string };

export type WooOrder = {
  id: number;
  number?: string;
  status?: string;
  currency?: string;
  total?: string;
  customer_id?: number;
  date_created_gmt?: string | null;
  date_modified_gmt?: string | null;
  date_paid_gmt?: string | null;
  billing?: WooAddress;
  line_items?: {
    name: string;
    quantity: number;
    price?: number | string;
    total?: string;
    sku?: string | null;
  }[];
  refunds?: { total?: string }[];
  meta_data?: WooMeta[];
};

export type WooCustomer = {
  id: number;
  email?: string;
  first_name?: string;
  last_name?: string;
  date_modified_gmt?: string | null;
  billing?: WooAddress;
  /** Only older API versions and some plugins send these. */
  orders_count?: number;
  total_spent?: string;
};

export type WooOrderNote = {
  id: number;
  note: string;
  customer_note?: boolean;
  date_created_gmt?: string | null;
};

export type WooObjects = {
  products: WooProduct;
  categories: WooCategory;
  pages: WpPage;
  coupons: WooCoupon;
  orders: WooOrder;
  customers: WooCustomer;
};

/**
 * Where each type is listed. Pages come from WordPress's own API (WooCommerce has none), which is
 * public and asked without the keys: WordPress reads HTTP Basic credentials as an application
 * password and answers 401 to a consumer key it does not know as a user.
 */
const ENDPOINTS: Record<WooType, { version: 'wc/v3' | 'wp/v2'; path: string; open?: true }> = {
  products: { version: 'wc/v3', path: 'products' },
  categories: { version: 'wc/v3', path: 'products/categories' },
  pages: { version: 'wp/v2', path: 'pages', open: true },
  coupons: { version: 'wc/v3', path: 'coupons' },
  orders: { version: 'wc/v3', path: 'orders' },
  customers: { version: 'wc/v3', path: 'customers' },
};

export type WooClientOptions = {
  /** The site's address as the user gave it (normalised here). */
  url: string;
  consumerKey: string;
  consumerSecret: string;
  /** Lift the private-address rule (CRAWLER_ALLOW_PRIVATE; tests against the fake on loopback). */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Injectable DNS for tests. */
  resolve?: Resolver;
};

type Params = Record<string, string | number>;
type CallOptions = {
  version?: 'wc/v3' | 'wp/v2';
  /** Without the Basic credentials (WordPress's public routes). */
  open?: true;
  params?: Params;
  data?: unknown;
  signal?: AbortSignal;
};
type Answer = { status: number; data: unknown; headers: Record<string, unknown> };

export type WooListPage<T> = { items: T[]; total: number; totalPages: number };
export type WebhookRegistration = {
  created: { topic: string; id: number }[];
  failed: { topic: string; message: string }[];
};

/**
 * The store's base URL: http(s) only, no credentials, no query, without a trailing slash or a
 * pasted `/wp-json/...` or `/wp-admin/...` tail. A bare host gets https://.
 */
export function normaliseStoreUrl(raw: string): string {
  const trimmed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = parseCrawlUrl(withScheme);
  } catch {
    throw new WooError(
      'Enter the store address as https://your-store.com (no user name or password)',
      null,
      'blocked',
    );
  }
  const path = url.pathname.replace(/\/(wp-json|wp-admin|index\.php)(\/.*)?$/, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export type WooClient = ReturnType<typeof createWooClient>;

export function createWooClient(options: WooClientOptions) {
  const base = normaliseStoreUrl(options.url);
  const timeoutMs = options.timeoutMs ?? WOO_TIMEOUT_MS;

  async function call(method: 'get' | 'post', endpoint: string, request: CallOptions = {}): Promise<Answer> {
    const address = await guard(base, options);
    const timeout = AbortSignal.timeout(timeoutMs);
    const api = new WooCommerceRestApi({
      url: base,
      consumerKey: options.consumerKey,
      consumerSecret: options.consumerSecret,
      // The typings list WooCommerce's namespaces only; WordPress's wp/v2 is served the same way.
      version: (request.version ?? 'wc/v3') as 'wc/v3',
      axiosConfig: {
        adapter: 'http',
        proxy: false,
        maxRedirects: 0,
        maxContentLength: MAX_BYTES,
        validateStatus: () => true,
        signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
        httpAgent: new http.Agent({ lookup: pinned(address) }),
        httpsAgent: new https.Agent({ lookup: pinned(address) }),
        ...(request.open ? { auth: undefined } : {}),
      },
    });
    let answer: Answer;
    try {
      answer =
        method === 'get'
          ? await api.get(endpoint, request.params)
          : await api.post(endpoint, request.data, request.params);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timeout.aborted)
        throw new WooError(`The store did not answer within ${timeoutMs / 1000} s`, null, 'timeout');
      throw new WooError(`The store could not be reached: ${(error as Error).message}`, null, 'network');
    }
    return checkAnswer(answer);
  }

  async function listPage<T extends WooType>(
    type: T,
    page: number,
    perPage: number,
    params: Params = {},
    signal?: AbortSignal,
  ): Promise<WooListPage<WooObjects[T]>> {
    const { version, path, open } = ENDPOINTS[type];
    const answer = await call('get', path, {
      version,
      open,
      params: { ...params, page, per_page: perPage },
      signal,
    });
    return listOf<WooObjects[T]>(answer);
  }

  /**
   * A variable product's published variations, at most MAX_VARIATIONS, a page of 100 at a time as
   * X-WP-TotalPages says; none when the product is gone.
   */
  async function variations(productId: number, signal?: AbortSignal): Promise<WooVariation[]> {
    const found: WooVariation[] = [];
    for (let page = 1; found.length < MAX_VARIATIONS; page++) {
      const params = { status: 'publish', _fields: VARIATION_FIELDS, page, per_page: WOO_PAGE_SIZE };
      let answer: WooListPage<WooVariation>;
      try {
        answer = listOf(await call('get', `products/${productId}/variations`, { params, signal }));
      } catch (error) {
        if (error instanceof WooError && error.reason === 'not_found') return found;
        throw error;
      }
      found.push(...answer.items.slice(0, MAX_VARIATIONS - found.length));
      if (answer.items.length < WOO_PAGE_SIZE || page >= answer.totalPages) return found;
    }
    return found;
  }

  /**
   * Every record of a type, a page at a time, at most `limit`. The page size stays the same from
   * page to page (WooCommerce pages by offset), so the last page is cut instead of asked smaller.
   */
  async function* listAll<T extends WooType>(
    type: T,
    opts: { limit: number; signal?: AbortSignal; params?: Params; onTotal?: (total: number) => void },
  ): AsyncGenerator<WooObjects[T][]> {
    const perPage = Math.min(WOO_PAGE_SIZE, Math.max(1, opts.limit));
    let seen = 0;
    for (let page = 1; seen < opts.limit; page++) {
      const answer = await listPage(type, page, perPage, opts.params, opts.signal);
      if (page === 1) opts.onTotal?.(answer.total);
      const items = answer.items.slice(0, opts.limit - seen);
      seen += items.length;
      if (items.length > 0) yield items;
      if (answer.items.length < perPage || page >= answer.totalPages) return;
    }
  }

  async function get<T>(path: string, signal?: AbortSignal): Promise<T | null> {
    try {
      return (await call('get', path, { signal })).data as T;
    } catch (error) {
      if (error instanceof WooError && error.reason === 'not_found') return null;
      throw error;
    }
  }

  /** The store's currency; also the connection test's authenticated call (any valid read key may read it). */
  async function currency(signal?: AbortSignal): Promise<string | null> {
    const answer = await call('get', 'settings/general/woocommerce_currency', { signal });
    const value = (answer.data as { value?: unknown }).value;
    return typeof value === 'string' && value ? value : null;
  }

  /** The site's name from WordPress's public index; the host name when it does not say. */
  async function siteName(signal?: AbortSignal): Promise<string> {
    const fallback = new URL(base).hostname;
    try {
      const answer = await safeFetch(`${base}/wp-json/`, {
        allowPrivate: options.allowPrivate,
        resolve: options.resolve,
        userAgent: 'Parley',
        timeoutMs,
        maxBytes: MAX_BYTES,
        maxRedirects: 0,
        signal,
      });
      const name = answer.body ? (JSON.parse(answer.body.toString('utf8')) as { name?: unknown }).name : null;
      return typeof name === 'string' && name.trim() ? name.trim() : fallback;
    } catch {
      return fallback;
    }
  }

  return {
    url: base,
    listPage,
    listAll,
    variations,
    currency,
    /** One product (or variation) by its id; null when there is none. */
    product: (id: number, signal?: AbortSignal) => get<WooProduct>(`products/${id}`, signal),
    /** Keys accepted and the store is WooCommerce: its name and currency. Throws WooError otherwise. */
    async testConnection(signal?: AbortSignal): Promise<{ storeName: string; currency: string | null }> {
      const storeCurrency = await currency(signal);
      return { storeName: await siteName(signal), currency: storeCurrency };
    },
    /** One order by its id; null when there is none. */
    order: (id: string | number, signal?: AbortSignal) =>
      get<WooOrder>(`orders/${encodeURIComponent(id)}`, signal),
    /** Orders whose number, email or name matches `search`, newest first. */
    searchOrders: async (search: string, signal?: AbortSignal) =>
      (await listPage('orders', 1, 20, { search }, signal)).items,
    async orderNotes(orderId: string | number, signal?: AbortSignal): Promise<WooOrderNote[]> {
      const notes = await get<WooOrderNote[]>(`orders/${encodeURIComponent(orderId)}/notes`, signal);
      return Array.isArray(notes) ? notes : [];
    },
    /** One webhook per topic; a topic that fails is reported and the others still go. */
    async registerWebhooks(
      deliveryUrl: string,
      secret: string,
      topics: string[],
    ): Promise<WebhookRegistration> {
      const result: WebhookRegistration = { created: [], failed: [] };
      for (const topic of topics) {
        try {
          const data = {
            name: `Parley ${topic}`,
            topic,
            delivery_url: deliveryUrl,
            secret,
            status: 'active',
          };
          const answer = await call('post', 'webhooks', { data });
          result.created.push({ topic, id: Number((answer.data as { id?: unknown }).id) });
        } catch (error) {
          if (!(error instanceof WooError)) throw error;
          result.failed.push({ topic, message: error.message });
        }
      }
      return result;
    },
  };
}

/** The topics Parley listens to: catalogue and order changes. */
export const WOO_WEBHOOK_TOPICS = [
  'product.created',
  'product.updated',
  'product.deleted',
  'order.created',
  'order.updated',
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
];

/** The SSRF rule on the store's host; the address the request must then connect to. */
async function guard(base: string, options: WooClientOptions): Promise<ResolvedAddress> {
  try {
    return (await checkUrl(`${base}/`, { allowPrivate: options.allowPrivate, resolve: options.resolve }))
      .address;
  } catch (error) {
    if (error instanceof BlockedUrlError) throw new WooError(error.message, null, 'blocked');
    throw error;
  }
}

/** Connects to the checked address whatever the host name resolves to now. */
const pinned =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

const notWoo = () =>
  new WooError(
    'No WooCommerce store answers at this address (is the WooCommerce REST API enabled?)',
    null,
    'not_woocommerce',
  );

/** A listing's items and WordPress's paging headers. */
function listOf<T>(answer: Answer): WooListPage<T> {
  if (!Array.isArray(answer.data)) throw notWoo();
  const items = answer.data as T[];
  const total = Number(answer.headers['x-wp-total'] ?? items.length);
  const totalPages = Number(answer.headers['x-wp-totalpages'] ?? 1);
  return { items, total, totalPages };
}

/** Turns WooCommerce's statuses and error bodies into WooErrors; answers what succeeded. */
function checkAnswer(answer: Answer): Answer {
  const { status, data, headers } = answer;
  const body = (typeof data === 'object' && data !== null ? data : null) as {
    code?: string;
    message?: string;
  } | null;
  const code = typeof body?.code === 'string' ? body.code : null;
  const detail = typeof body?.message === 'string' ? body.message : `HTTP ${status}`;
  if (status >= 300 && status < 400)
    throw new WooError(
      `The store redirects to ${String(headers.location ?? 'another address')}; connect it with that address`,
      status,
      'not_woocommerce',
    );
  if (status === 401 || status === 403)
    throw new WooError(`The store refused the consumer key and secret: ${detail}`, status, 'auth', code);
  if (!body) throw notWoo();
  if (status === 404) {
    if (code === 'rest_no_route') throw notWoo();
    throw new WooError(detail, status, 'not_found', code);
  }
  if (status >= 400) throw new WooError(`The store answered: ${detail}`, status, 'http', code);
  return answer;
}
