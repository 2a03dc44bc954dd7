import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type FakeVariant = {
  id: number;
  title: string;
  price: string;
  compareAtPrice: string | null;
  sku: string | null;
  inventoryQuantity: number;
  /** Its value of each of the product's options, in order. */
  options: string[];
};
export type FakeProduct = {
  id: number;
  title: string;
  handle: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  tracksInventory: boolean;
  options: Array<{ name: string; values: string[] }>;
  variants: FakeVariant[];
  imageUrl: string | null;
  updatedAt: string;
};
export type FakeCollection = {
  id: number;
  title: string;
  handle: string;
  descriptionHtml: string;
  productIds: number[];
  updatedAt: string;
};
export type FakeArticle = {
  id: number;
  title: string;
  handle: string;
  bodyHtml: string;
  blog: { title: string; handle: string };
  author: string;
  tags: string[];
  publishedAt: string | null;
  updatedAt: string;
};
export type FakePolicy = {
  id: number;
  type: string;
  title: string;
  bodyHtml: string;
  handle: string;
  updatedAt: string;
};
export type FakeDiscount = {
  id: number;
  type: 'DiscountCodeBasic' | 'DiscountCodeFreeShipping' | 'DiscountAutomaticBasic';
  title: string;
  code: string | null;
  summary: string;
  /** 0.1 is 10% off; or `amountOff` in the shop's currency. */
  percentage: number | null;
  amountOff: string | null;
  minimumSubtotal: string | null;
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
  status: 'ACTIVE' | 'EXPIRED' | 'SCHEDULED';
};
export type FakeCustomer = {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  ordersCount: number;
  amountSpent: string;
  state: 'ENABLED' | 'DISABLED' | 'INVITED';
  updatedAt: string;
};
export type FakeOrder = {
  id: number;
  /** 1001 is "#1001". */
  number: number;
  email: string | null;
  phone: string | null;
  customerId: number | null;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  financialStatus: 'PAID' | 'PENDING' | 'AUTHORIZED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'VOIDED';
  fulfillmentStatus: 'FULFILLED' | 'UNFULFILLED' | 'PARTIALLY_FULFILLED';
  lines: Array<{ title: string; quantity: number; price: string; sku: string | null }>;
  fulfillments: Array<{ company: string | null; number: string | null; url: string | null; status: string }>;
  total: string;
  refunds: Array<{ id: number; amount: string; note: string | null; notify: boolean }>;
  gateway: string;
};

/** A recurring app charge (Shopify's app billing), as appSubscriptionCreate makes it. */
export type FakeAppSubscription = {
  id: number;
  name: string;
  status: 'PENDING' | 'ACTIVE' | 'DECLINED' | 'EXPIRED' | 'FROZEN' | 'CANCELLED';
  returnUrl: string;
  test: boolean;
  /** A decimal string ("19.99"). */
  amount: string;
  currencyCode: string;
  interval: 'EVERY_30_DAYS' | 'ANNUAL';
  createdAt: string;
  updatedAt: string;
  /** Set when the merchant approves: a period from then. */
  currentPeriodEnd: string | null;
};

export type Bucket = { max: number; restoreRate: number };

export type FakeShop = {
  domain: string;
  name: string;
  currency: string;
  /** The storefront's address (primaryDomain.url). */
  primaryDomain: string;
  /** An offline access token that works without going through OAuth. */
  token: string;
  /** Products by id; change them through setProduct and removeProduct (their JSON is cached). */
  products: ReadonlyMap<number, FakeProduct>;
  /**
   * The other kinds are read on every request: tests change these arrays directly. (A product's
   * collections are part of its cached JSON: change collections before the products are read.)
   */
  collections: FakeCollection[];
  articles: FakeArticle[];
  policies: FakePolicy[];
  discounts: FakeDiscount[];
  customers: FakeCustomer[];
  orders: FakeOrder[];
  webhookSubscriptions: Array<{ id: string; topic: string; callbackUrl: string }>;
  /** The app's recurring charges to this shop; tests may change a status directly. */
  appSubscriptions: FakeAppSubscription[];
  /** `n` more generated products (deterministic titles, prices, variants, stock, tags, vendors). */
  addProducts(n: number): FakeProduct[];
  /** Adds or replaces a product (by id when given); its updatedAt moves to now. */
  setProduct(product: Partial<FakeProduct> & { title: string }): FakeProduct;
  removeProduct(id: number): void;
  order(number: number): FakeOrder | undefined;
  /** The app is uninstalled: every token of the shop answers 401 from now on. */
  revoke(): void;
};

export type ShopifyFake = {
  /** http://127.0.0.1:PORT */
  url: string;
  /** SHOPIFY_SHOP_URL for the server: `${url}/shops/{shop}`. */
  shopUrlTemplate: string;
  apiKey: string;
  apiSecret: string;
  /** Every request: method, path and the GraphQL root fields it asked for. */
  requests: Array<{ method: string; path: string; fields: string[] }>;
  /** GraphQL answers refused with THROTTLED: a client that paces itself keeps this at 0. */
  throttled: number;
  addShop(domain: string, options?: { name?: string; currency?: string; products?: number }): FakeShop;
  shop(domain: string): FakeShop;
  /** The merchant approves the app: the callback's query parameters (signed as Shopify signs them). */
  approve(
    shop: string,
    request: { redirectUri: string; state: string; scope?: string },
  ): Record<string, string>;
  /** POSTs a signed webhook delivery (Shopify's REST JSON) to Parley; `tamper` alters the body after signing. */
  sendWebhook(
    parleyUrl: string,
    topic: string,
    payload: unknown,
    options: { shop: string; eventId?: string; secret?: string; tamper?: boolean },
  ): Promise<Response>;
  /**
   * The merchant approves a charge (as the confirmation page's Approve button does): it becomes
   * ACTIVE for a period from now, and any other ACTIVE charge of the shop is CANCELLED (Shopify
   * replaces an app's subscription with the one approved). `id`: the number or the gid.
   */
  approveCharge(shop: string, id: number | string): FakeAppSubscription;
  /** The merchant declines a charge (the Decline button). */
  declineCharge(shop: string, id: number | string): FakeAppSubscription;
  /**
   * POSTs a signed app_subscriptions/update delivery for a charge, in Shopify's REST JSON, with its
   * current status (or `status`) and updated_at (or `updatedAt`).
   */
  sendAppSubscriptionUpdate(
    parleyUrl: string,
    shop: string,
    id: number | string,
    options?: {
      status?: FakeAppSubscription['status'];
      updatedAt?: string;
      eventId?: string;
      secret?: string;
      tamper?: boolean;
    },
  ): Promise<Response>;
  close(): Promise<void>;
};

type ShopState = FakeShop & {
  tokens: Set<string>;
  level: number;
  at: number;
  json: Map<number, string>;
  /** `${fake.url}/shops/{domain}`: where the shop's admin pages answer. */
  baseUrl: string;
};
type Args = Record<string, unknown>;
type Root = { alias: string; name: string; args: Args };
/** A root field's JSON and its actual cost. */
type Resolved = { json: string; cost: number };

const API_VERSION = /^\d{4}-\d{2}$/;
const MAX_PAGE = 250;
const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;
const idOf = (value: unknown) =>
  Number(
    String(value ?? '')
      .split('/')
      .pop(),
  );

/**
 * Shopify on loopback, under `/shops/{shop}/...`: OAuth (authorize, access_token), the GraphQL Admin
 * API (the root fields Parley's client asks for, Shopify's connections, search syntax for orders and
 * customers, userErrors) with its cost extensions and leaky bucket, app billing (recurring app
 * charges, their confirmation page with Approve and Decline, cancel, `node` look-up) and signed
 * webhook deliveries.
 *
 * Costs follow Shopify's rules for the root: a connection costs 2 + first (actual: 2 + returned), an
 * object 1, a mutation 10. Nested connections are free here (Shopify charges them); the client learns
 * the cost per node from requestedQueryCost, so it sizes pages correctly either way. Each root field
 * answers its full object, whatever the selection asks (Parley only ever reads what it selects).
 */
export async function startShopifyFake(
  options: { apiKey?: string; apiSecret?: string; bucket?: Bucket } = {},
): Promise<ShopifyFake> {
  const apiKey = options.apiKey ?? 'shopify-api-key';
  const apiSecret = options.apiSecret ?? 'shopify-api-secret';
  const bucket = options.bucket ?? { max: 1000, restoreRate: 50 };
  const shops = new Map<string, ShopState>();
  const codes = new Map<string, { shop: string; scope: string }>();

  const fake: ShopifyFake = {
    url: '',
    shopUrlTemplate: '',
    apiKey,
    apiSecret,
    requests: [],
    throttled: 0,
    addShop: (domain, shopOptions = {}) => {
      const shop = newShop(domain, shopOptions.name, shopOptions.currency, bucket.max);
      shop.baseUrl = `${fake.url}/shops/${domain}`;
      shops.set(domain, shop);
      if (shopOptions.products) shop.addProducts(shopOptions.products);
      return shop;
    },
    shop: (domain) => {
      const shop = shops.get(domain);
      if (!shop) throw new Error(`no fake shop ${domain}`);
      return shop;
    },
    approve: (domain, request) => {
      const code = randomBytes(16).toString('hex');
      codes.set(code, { shop: domain, scope: request.scope ?? 'read_products' });
      const params: Record<string, string> = {
        code,
        host: Buffer.from(`admin.shopify.com/store/${domain.split('.')[0]}`)
          .toString('base64')
          .replace(/=+$/, ''),
        shop: domain,
        state: request.state,
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
      return { ...params, hmac: oauthHmac(params, apiSecret) };
    },
    sendWebhook: (parleyUrl, topic, payload, webhook) => {
      const raw = JSON.stringify(payload);
      const hmac = createHmac('sha256', webhook.secret ?? apiSecret)
        .update(raw)
        .digest('base64');
      return fetch(parleyUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': webhook.shop,
          'x-shopify-hmac-sha256': hmac,
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-event-id': webhook.eventId ?? randomUUID(),
          'x-shopify-api-version': '2025-01',
          'x-shopify-triggered-at': new Date().toISOString(),
        },
        body: webhook.tamper ? raw.replace(/}$/, ',"tampered":true}') : raw,
      });
    },
    approveCharge: (domain, id) => decide(fake.shop(domain), idOf(id), 'ACTIVE'),
    declineCharge: (domain, id) => decide(fake.shop(domain), idOf(id), 'DECLINED'),
    sendAppSubscriptionUpdate: (parleyUrl, domain, id, update = {}) => {
      const shop = fake.shop(domain);
      const charge = chargeOf(shop, idOf(id));
      if (!charge) throw new Error(`no app subscription ${id} on ${domain}`);
      const payload = {
        app_subscription: {
          admin_graphql_api_id: gid('AppSubscription', charge.id),
          name: charge.name,
          status: update.status ?? charge.status,
          admin_graphql_api_shop_id: gid('Shop', shopNumber(domain)),
          created_at: charge.createdAt,
          updated_at: update.updatedAt ?? charge.updatedAt,
          currency: charge.currencyCode,
          capped_amount: null,
        },
      };
      return fake.sendWebhook(parleyUrl, 'app_subscriptions/update', payload, {
        shop: domain,
        eventId: update.eventId,
        secret: update.secret,
        tamper: update.tamper,
      });
    },
    close: async () => {},
  };

  /** The merchant's answer on the confirmation page; only a PENDING charge can be answered. */
  function decide(shop: FakeShop, id: number, status: 'ACTIVE' | 'DECLINED'): FakeAppSubscription {
    const charge = chargeOf(shop, id);
    if (!charge) throw new Error(`no app subscription ${id} on ${shop.domain}`);
    if (charge.status !== 'PENDING') throw new Error(`app subscription ${id} is ${charge.status}`);
    const now = new Date();
    if (status === 'ACTIVE') {
      for (const other of shop.appSubscriptions) {
        if (other.status === 'ACTIVE')
          Object.assign(other, { status: 'CANCELLED', updatedAt: now.toISOString() });
      }
      const days = charge.interval === 'ANNUAL' ? 365 : 30;
      charge.currentPeriodEnd = new Date(now.getTime() + days * 86_400_000).toISOString();
    }
    charge.status = status;
    charge.updatedAt = now.toISOString();
    return charge;
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { errors: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const match = /^\/shops\/([^/]+)(\/.*)$/.exec(url.pathname);
    const shop = match ? shops.get(match[1]!) : undefined;
    const rest = match?.[2] ?? '';
    if (!shop) return send(res, 404, { errors: 'Not Found' });
    if (req.method === 'GET' && rest === '/admin/oauth/authorize')
      return authorize(res, shop, url.searchParams);
    if (req.method === 'POST' && rest === '/admin/oauth/access_token') return accessToken(req, res, raw);
    const charge = /^\/admin\/charges\/(\d+)\/(confirm|approve|decline)$/.exec(rest);
    if (charge) return chargePage(req, res, shop, Number(charge[1]), charge[2]!);
    const api = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(rest);
    if (req.method !== 'POST' || !api || !API_VERSION.test(api[1]!)) {
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, fields: [] });
      return send(res, 404, { errors: 'Not Found' });
    }
    const token = req.headers['x-shopify-access-token'];
    if (typeof token !== 'string' || !shop.tokens.has(token)) {
      fake.requests.push({ method: 'POST', path: url.pathname, fields: [] });
      return send(res, 401, {
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      });
    }
    const body = parseJson(raw) as { query?: string; variables?: Args };
    const roots = rootFields(body.query ?? '', body.variables ?? {});
    fake.requests.push({ method: 'POST', path: url.pathname, fields: roots.map((r) => r.name) });
    return graphql(res, shop, body.query ?? '', roots);
  }

  function authorize(res: ServerResponse, shop: ShopState, query: URLSearchParams): void {
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== apiKey || !redirectUri) {
      send(res, 400, {
        errors: 'Oauth error invalid_request: The client_id or redirect_uri is invalid',
      });
      return;
    }
    const params = fake.approve(shop.domain, {
      redirectUri,
      state: query.get('state') ?? '',
      scope: query.get('scope') ?? '',
    });
    res.writeHead(302, { location: `${redirectUri}?${new URLSearchParams(params)}` });
    res.end();
  }

  /**
   * Shopify's page where the merchant approves a charge: GET shows it with Approve and Decline
   * buttons (forms posting here); either answer sends the browser to the returnUrl with charge_id.
   */
  function chargePage(
    req: IncomingMessage,
    res: ServerResponse,
    shop: ShopState,
    id: number,
    action: string,
  ) {
    fake.requests.push({ method: req.method ?? 'GET', path: req.url ?? '', fields: [] });
    const charge = chargeOf(shop, id);
    if (!charge) return send(res, 404, { errors: 'Not Found' });
    if (action === 'confirm' && req.method === 'GET') {
      const base = `/shops/${shop.domain}/admin/charges/${id}`;
      const every = charge.interval === 'ANNUAL' ? 'year' : '30 days';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Approve subscription</title></head><body>
<h1>${escapeHtml(charge.name)}</h1>
<p>${escapeHtml(shop.name)} will be charged ${escapeHtml(charge.currencyCode)} ${escapeHtml(charge.amount)} every ${every}${charge.test ? ' (test charge: nothing is billed)' : ''}.</p>
<p>Status: <span id="status">${charge.status}</span></p>
<form method="post" action="${base}/approve"><button type="submit" id="approve">Approve</button></form>
<form method="post" action="${base}/decline"><button type="submit" id="decline">Decline</button></form>
</body></html>`);
      return;
    }
    if (req.method !== 'POST' || action === 'confirm')
      return send(res, 405, { errors: 'Method Not Allowed' });
    if (charge.status !== 'PENDING') return send(res, 422, { errors: `This charge is ${charge.status}` });
    decide(shop, id, action === 'approve' ? 'ACTIVE' : 'DECLINED');
    const back = new URL(charge.returnUrl);
    back.searchParams.set('charge_id', String(id));
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  function accessToken(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = (req.headers['content-type'] ?? '').includes('json')
      ? (parseJson(raw) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(raw));
    const grant = codes.get(form.code ?? '');
    if (form.client_id !== apiKey || form.client_secret !== apiSecret || !grant) {
      send(res, 400, {
        error: 'invalid_request',
        error_description: 'The authorization code was not found or was already used',
      });
      return;
    }
    codes.delete(form.code!);
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    shops.get(grant.shop)?.tokens.add(token);
    send(res, 200, { access_token: token, scope: grant.scope });
  }

  function graphql(res: ServerResponse, shop: ShopState, query: string, roots: Root[]): void {
    const now = Date.now();
    shop.level = Math.min(bucket.max, shop.level + (bucket.restoreRate * (now - shop.at)) / 1000);
    shop.at = now;
    const mutation = /^\s*mutation\b/.test(query);
    if (roots.length === 0) {
      sendErrors(res, shop, 0, [{ message: 'Parse error: no operation found' }]);
      return;
    }
    const requested = roots.reduce((sum, root) => sum + requestedCost(root, mutation), 0);
    if (requested > bucket.max) {
      sendErrors(res, shop, requested, [
        {
          message: `Query cost is ${requested}, which exceeds the single query max cost limit (${bucket.max}).`,
          extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: bucket.max },
        },
      ]);
      return;
    }
    if (requested > shop.level) {
      fake.throttled += 1;
      sendErrors(res, shop, requested, [
        {
          message: 'Throttled',
          extensions: {
            code: 'THROTTLED',
            documentation: 'https://shopify.dev/api/usage/rate-limits',
          },
        },
      ]);
      return;
    }
    const parts: string[] = [];
    let actual = 0;
    for (const root of roots) {
      const resolved = resolve(shop, root, mutation);
      if ('error' in resolved) {
        sendErrors(res, shop, requested, [{ message: resolved.error }]);
        return;
      }
      parts.push(`${JSON.stringify(root.alias)}:${resolved.json}`);
      actual += resolved.cost;
    }
    shop.level -= actual;
    const cost = costJson(shop, requested, actual);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":{${parts.join(',')}},"extensions":{"cost":${cost}}}`);
  }

  function sendErrors(res: ServerResponse, shop: ShopState, requested: number, errors: unknown[]): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"errors":${JSON.stringify(errors)},"extensions":{"cost":${costJson(shop, requested, null)}}}`);
  }

  const costJson = (shop: ShopState, requested: number, actual: number | null) =>
    JSON.stringify({
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: {
        maximumAvailable: bucket.max,
        currentlyAvailable: Math.floor(shop.level),
        restoreRate: bucket.restoreRate,
      },
    });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}`;
  fake.shopUrlTemplate = `${fake.url}/shops/{shop}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

const requestedCost = (root: Root, mutation: boolean) => {
  if (mutation) return 10;
  const first = Number(root.args.first);
  return Number.isFinite(first) && first > 0 ? 2 + Math.min(first, MAX_PAGE) : 1;
};

// ------------------------------------------ resolvers ------------------------------------------

function resolve(shop: ShopState, root: Root, mutation: boolean): Resolved | { error: string } {
  const resolver = (mutation ? MUTATIONS : QUERIES)[root.name];
  if (!resolver)
    return { error: `Field '${root.name}' doesn't exist on type '${mutation ? 'Mutation' : 'QueryRoot'}'` };
  return resolver(shop, root.args);
}

const object = (value: unknown): Resolved => ({ json: JSON.stringify(value), cost: 1 });
const count = (n: number) => object({ count: n, precision: 'EXACT' });

const QUERIES: Record<string, (shop: ShopState, args: Args) => Resolved | { error: string }> = {
  shop: (shop) =>
    object({
      name: shop.name,
      currencyCode: shop.currency,
      myshopifyDomain: shop.domain,
      primaryDomain: { url: shop.primaryDomain, host: new URL(shop.primaryDomain).host },
      shopPolicies: shop.policies.map((p) => policyNode(shop, p)),
    }),
  products: (shop, args) => {
    const items = filtered([...shop.products.values()], args.query, (p) => ({
      title: p.title,
      tag: p.tags.join(' '),
    }));
    return connection(items, args, (p) => productJson(shop, p));
  },
  productsCount: (shop) => count(shop.products.size),
  collections: (shop, args) =>
    connection(shop.collections, args, (c) => JSON.stringify(collectionNode(shop, c))),
  collectionsCount: (shop) => count(shop.collections.length),
  articles: (shop, args) => connection(shop.articles, args, (a) => JSON.stringify(articleNode(a))),
  discountNodes: (shop, args) =>
    connection(shop.discounts, args, (d) => JSON.stringify(discountNode(shop, d))),
  discountNodesCount: (shop) => count(shop.discounts.length),
  customers: (shop, args) => {
    const items = filtered(shop.customers, args.query, (c) => ({
      email: c.email ?? '',
      phone: c.phone ?? '',
    }));
    return connection(items, args, (c) => JSON.stringify(customerNode(shop, c)));
  },
  customersCount: (shop) => count(shop.customers.length),
  orders: (shop, args) => {
    const items = filtered(shop.orders, args.query, (o) => ({ name: `#${o.number}`, email: o.email ?? '' }));
    return connection(items, args, (o) => JSON.stringify(orderNode(shop, o)));
  },
  ordersCount: (shop) => count(shop.orders.length),
  order: (shop, args) => {
    const order = shop.orders.find((o) => o.id === idOf(args.id));
    return object(order ? orderNode(shop, order) : null);
  },
  /** Only app subscriptions are looked up by node here; another type answers null, as an unknown id does. */
  node: (shop, args) => {
    const id = String(args.id ?? '');
    const charge = id.startsWith('gid://shopify/AppSubscription/') ? chargeOf(shop, idOf(id)) : undefined;
    return object(charge ? appSubscriptionNode(charge) : null);
  },
  currentAppInstallation: (shop) =>
    object({
      id: gid('AppInstallation', shopNumber(shop.domain)),
      activeSubscriptions: shop.appSubscriptions
        .filter((c) => c.status === 'ACTIVE' || c.status === 'FROZEN')
        .map(appSubscriptionNode),
    }),
};

const MUTATIONS: Record<string, (shop: ShopState, args: Args) => Resolved> = {
  appSubscriptionCreate: (shop, args) => {
    const refuse = (field: string[], message: string) =>
      mutation({ appSubscription: null, confirmationUrl: null, userErrors: [{ field, message }] });
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    if (!name) return refuse(['name'], "Name can't be blank");
    const returnUrl = typeof args.returnUrl === 'string' ? args.returnUrl : '';
    if (!URL.canParse(returnUrl) || !/^https?:$/.test(new URL(returnUrl).protocol))
      return refuse(['returnUrl'], 'Return url is invalid');
    const items = Array.isArray(args.lineItems) ? (args.lineItems as LineItemInput[]) : [];
    const recurring = items.map((item) => item.plan?.appRecurringPricingDetails).filter(Boolean);
    if (recurring.length !== 1) return refuse(['lineItems'], 'Exactly one recurring line item is required');
    const details = recurring[0]!;
    const amount = String(details.price?.amount ?? '');
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0)
      return refuse(
        ['lineItems', '0', 'plan', 'appRecurringPricingDetails', 'price'],
        'Price must be greater than 0',
      );
    const currencyCode = String(details.price?.currencyCode ?? '');
    if (!/^[A-Z]{3}$/.test(currencyCode))
      return refuse(
        ['lineItems', '0', 'plan', 'appRecurringPricingDetails', 'price'],
        'Currency code is invalid',
      );
    const interval = details.interval ?? 'EVERY_30_DAYS';
    if (interval !== 'EVERY_30_DAYS' && interval !== 'ANNUAL')
      return refuse(
        ['lineItems', '0', 'plan', 'appRecurringPricingDetails', 'interval'],
        'Interval is invalid',
      );
    const now = new Date().toISOString();
    const charge: FakeAppSubscription = {
      id: nextChargeId++,
      name,
      status: 'PENDING',
      returnUrl,
      test: args.test === true,
      amount,
      currencyCode,
      interval,
      createdAt: now,
      updatedAt: now,
      currentPeriodEnd: null,
    };
    shop.appSubscriptions.push(charge);
    return mutation({
      appSubscription: { id: gid('AppSubscription', charge.id), status: charge.status },
      confirmationUrl: `${shop.baseUrl}/admin/charges/${charge.id}/confirm`,
      userErrors: [],
    });
  },
  appSubscriptionCancel: (shop, args) => {
    const charge = chargeOf(shop, idOf(args.id));
    const refuse = (message: string) =>
      mutation({ appSubscription: null, userErrors: [{ field: ['id'], message }] });
    if (!charge) return refuse('Subscription not found');
    if (charge.status === 'CANCELLED' || charge.status === 'DECLINED' || charge.status === 'EXPIRED')
      return refuse(`Subscription is already ${charge.status.toLowerCase()}`);
    charge.status = 'CANCELLED';
    charge.updatedAt = new Date().toISOString();
    return mutation({
      appSubscription: { id: gid('AppSubscription', charge.id), status: charge.status },
      userErrors: [],
    });
  },
  webhookSubscriptionCreate: (shop, args) => {
    const input = args.webhookSubscription as { callbackUrl?: string } | undefined;
    const topic = String(args.topic ?? '');
    const callbackUrl = input?.callbackUrl ?? '';
    if (shop.webhookSubscriptions.some((w) => w.topic === topic && w.callbackUrl === callbackUrl)) {
      return mutation({
        webhookSubscription: null,
        userErrors: [
          {
            field: ['webhookSubscription', 'callbackUrl'],
            message: 'Address for this topic has already been taken',
          },
        ],
      });
    }
    const subscription = {
      id: gid('WebhookSubscription', randomBytes(6).readUIntBE(0, 6)),
      topic,
      callbackUrl,
    };
    shop.webhookSubscriptions.push(subscription);
    return mutation({ webhookSubscription: subscription, userErrors: [] });
  },
  orderCancel: (shop, args) => {
    const order = shop.orders.find((o) => o.id === idOf(args.orderId));
    const refuse = (message: string, code: string) =>
      mutation({ job: null, orderCancelUserErrors: [{ field: ['orderId'], message, code }], userErrors: [] });
    if (!order) return refuse('Order does not exist', 'NOT_FOUND');
    if (order.cancelledAt) return refuse('Order has already been cancelled', 'INVALID');
    order.cancelledAt = new Date().toISOString();
    order.cancelReason = String(args.reason ?? 'OTHER');
    order.updatedAt = order.cancelledAt;
    if (args.refund === true) refund(order, remaining(order), null, Boolean(args.notifyCustomer));
    return mutation({
      job: { id: gid('Job', randomUUID()), done: false },
      orderCancelUserErrors: [],
      userErrors: [],
    });
  },
  refundCreate: (shop, args) => {
    const input = (args.input ?? {}) as {
      orderId?: string;
      note?: string;
      notify?: boolean;
      transactions?: Array<{ amount?: string; parentId?: string; kind?: string }>;
    };
    const order = shop.orders.find((o) => o.id === idOf(input.orderId));
    const refuse = (field: string[], message: string) =>
      mutation({ refund: null, userErrors: [{ field, message }] });
    if (!order) return refuse(['orderId'], 'Order does not exist');
    const transaction = input.transactions?.[0];
    if (transaction?.kind !== 'REFUND' || idOf(transaction.parentId) !== order.id) {
      return refuse(['transactions', '0', 'parentId'], 'Parent transaction does not exist');
    }
    const amount = Number(transaction.amount);
    if (!(amount > 0) || amount > remaining(order) + 1e-9) {
      return refuse(
        ['transactions', '0', 'amount'],
        `Refund amount ${money(amount)} is greater than net payment received ${money(remaining(order))}`,
      );
    }
    const made = refund(order, amount, input.note ?? null, input.notify ?? false);
    return mutation({
      refund: { id: gid('Refund', made.id), totalRefundedSet: moneySet(made.amount, shop) },
      userErrors: [],
    });
  },
};

const mutation = (value: unknown): Resolved => ({ json: JSON.stringify(value), cost: 10 });

type LineItemInput = {
  plan?: {
    appRecurringPricingDetails?: {
      price?: { amount?: string | number; currencyCode?: string };
      interval?: string;
    };
  };
};

/** Shopify's ids are global, not per shop: two shops never share a charge id. */
let nextChargeId = 27_000_000_001;

const chargeOf = (shop: FakeShop, id: number) => shop.appSubscriptions.find((c) => c.id === id);

function appSubscriptionNode(c: FakeAppSubscription) {
  return {
    __typename: 'AppSubscription',
    id: gid('AppSubscription', c.id),
    name: c.name,
    status: c.status,
    test: c.test,
    createdAt: c.createdAt,
    currentPeriodEnd: c.currentPeriodEnd,
    returnUrl: c.returnUrl,
    trialDays: 0,
    lineItems: [
      {
        id: gid('AppSubscriptionLineItem', `${c.id}?v=1&index=0`),
        plan: {
          pricingDetails: {
            __typename: 'AppRecurringPricing',
            interval: c.interval,
            price: { amount: c.amount, currencyCode: c.currencyCode },
          },
        },
      },
    ],
  };
}

/** A stable number for a shop's gid. */
const shopNumber = (domain: string) => [...domain].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e9, 7);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (n: number) => n.toFixed(2);
const refunded = (order: FakeOrder) => order.refunds.reduce((sum, r) => sum + Number(r.amount), 0);
const remaining = (order: FakeOrder) => Math.round((Number(order.total) - refunded(order)) * 100) / 100;

function refund(order: FakeOrder, amount: number, note: string | null, notify: boolean) {
  const made = { id: order.id * 100 + order.refunds.length + 1, amount: money(amount), note, notify };
  order.refunds.push(made);
  order.financialStatus = remaining(order) <= 0 ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  order.updatedAt = new Date().toISOString();
  return made;
}

/** A connection over items sorted by id: cursors carry the last id, as Shopify's opaque ones do. */
function connection<T extends { id: number }>(items: T[], args: Args, json: (item: T) => string): Resolved {
  const first = Math.min(Number(args.first) || MAX_PAGE, MAX_PAGE);
  const afterId = args.after ? cursorId(String(args.after)) : 0;
  const sorted = isSorted(items) ? items : [...items].sort((a, b) => a.id - b.id);
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]!.id <= afterId) low = mid + 1;
    else high = mid;
  }
  const page = sorted.slice(low, low + first);
  const last = page.at(-1);
  const pageInfo = {
    hasNextPage: low + first < sorted.length,
    hasPreviousPage: low > 0,
    startCursor: page[0] ? cursorOf(page[0].id) : null,
    endCursor: last ? cursorOf(last.id) : null,
  };
  return {
    json: `{"nodes":[${page.map(json).join(',')}],"pageInfo":${JSON.stringify(pageInfo)}}`,
    cost: 2 + page.length,
  };
}

const isSorted = (items: Array<{ id: number }>) =>
  items.every((item, i) => i === 0 || items[i - 1]!.id < item.id);
const cursorOf = (id: number) =>
  Buffer.from(JSON.stringify({ last_id: id, last_value: String(id) })).toString('base64');
function cursorId(cursor: string): number {
  try {
    return (
      Number((JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { last_id?: number }).last_id) ||
      0
    );
  } catch {
    return 0;
  }
}

/**
 * Shopify's search syntax, as far as Parley uses it: `field:value` terms (quotes allowed, `#` kept
 * or not for order names), all of which must match; a bare word searches the first field.
 */
function filtered<T>(items: T[], query: unknown, fields: (item: T) => Record<string, string>): T[] {
  if (typeof query !== 'string' || !query.trim()) return items;
  const terms = [...query.matchAll(/(?:(\w+):)?(?:"([^"]*)"|(\S+))/g)].map((m) => ({
    field: m[1],
    value: (m[2] ?? m[3] ?? '').toLowerCase().replace(/^#/, ''),
  }));
  return items.filter((item) => {
    const values = fields(item);
    const firstField = Object.keys(values)[0]!;
    return terms.every(({ field, value }) => {
      const actual = (values[field ?? firstField] ?? '').toLowerCase().replace(/^#/, '');
      return field ? actual === value : actual.includes(value);
    });
  });
}

// ----------------------------------------- node shapes -----------------------------------------

function productJson(shop: ShopState, product: FakeProduct): string {
  let json = shop.json.get(product.id);
  if (json === undefined) {
    json = JSON.stringify(productNode(shop, product));
    shop.json.set(product.id, json);
  }
  return json;
}

function productNode(shop: ShopState, p: FakeProduct) {
  return {
    id: gid('Product', p.id),
    legacyResourceId: String(p.id),
    title: p.title,
    handle: p.handle,
    status: p.status,
    descriptionHtml: p.descriptionHtml,
    vendor: p.vendor,
    productType: p.productType,
    tags: p.tags,
    createdAt: p.updatedAt,
    updatedAt: p.updatedAt,
    onlineStoreUrl: p.status === 'ACTIVE' ? `${shop.primaryDomain}/products/${p.handle}` : null,
    tracksInventory: p.tracksInventory,
    totalInventory: p.variants.reduce((sum, v) => sum + v.inventoryQuantity, 0),
    featuredImage: p.imageUrl ? { url: p.imageUrl, altText: p.title } : null,
    options: p.options.map((o, i) => ({
      id: gid('ProductOption', p.id * 10 + i),
      name: o.name,
      position: i + 1,
      values: o.values,
    })),
    collections: {
      nodes: shop.collections
        .filter((c) => c.productIds.includes(p.id))
        .map((c) => ({ id: gid('Collection', c.id), title: c.title })),
    },
    variants: {
      nodes: p.variants.map((v) => ({
        id: gid('ProductVariant', v.id),
        title: v.title,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        sku: v.sku,
        inventoryQuantity: v.inventoryQuantity,
        availableForSale: p.status === 'ACTIVE' && (!p.tracksInventory || v.inventoryQuantity > 0),
        selectedOptions: p.options.map((o, i) => ({ name: o.name, value: v.options[i] ?? '' })),
      })),
    },
  };
}

const collectionNode = (shop: ShopState, c: FakeCollection) => ({
  id: gid('Collection', c.id),
  title: c.title,
  handle: c.handle,
  descriptionHtml: c.descriptionHtml,
  updatedAt: c.updatedAt,
  productsCount: { count: c.productIds.length, precision: 'EXACT' },
  products: {
    nodes: c.productIds.slice(0, 10).flatMap((id) => {
      const product = shop.products.get(id);
      return product ? [{ id: gid('Product', id), title: product.title }] : [];
    }),
  },
});

const articleNode = (a: FakeArticle) => ({
  id: gid('Article', a.id),
  title: a.title,
  handle: a.handle,
  body: a.bodyHtml,
  summary: null,
  tags: a.tags,
  publishedAt: a.publishedAt,
  updatedAt: a.updatedAt,
  isPublished: a.publishedAt !== null,
  author: { name: a.author },
  blog: { id: gid('Blog', 1), title: a.blog.title, handle: a.blog.handle },
});

const policyNode = (shop: ShopState, p: FakePolicy) => ({
  id: gid('ShopPolicy', p.id),
  title: p.title,
  body: p.bodyHtml,
  type: p.type,
  url: `${shop.primaryDomain}/policies/${p.handle}`,
  updatedAt: p.updatedAt,
});

function discountNode(shop: ShopState, d: FakeDiscount) {
  const value =
    d.percentage !== null
      ? { __typename: 'DiscountPercentage', percentage: d.percentage }
      : {
          __typename: 'DiscountAmount',
          amount: { amount: d.amountOff ?? '0.0', currencyCode: shop.currency },
        };
  const minimum = d.minimumSubtotal
    ? {
        __typename: 'DiscountMinimumSubtotal',
        greaterThanOrEqualToSubtotal: { amount: d.minimumSubtotal, currencyCode: shop.currency },
      }
    : null;
  const code = d.type.startsWith('DiscountCode');
  return {
    id: gid(code ? 'DiscountCodeNode' : 'DiscountAutomaticNode', d.id),
    discount: {
      __typename: d.type,
      title: d.title,
      status: d.status,
      summary: d.summary,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      ...(code ? { usageLimit: d.usageLimit, codes: { nodes: d.code ? [{ code: d.code }] : [] } } : {}),
      ...(d.type === 'DiscountCodeFreeShipping' ? {} : { customerGets: { value } }),
      minimumRequirement: minimum,
    },
  };
}

const customerNode = (shop: ShopState, c: FakeCustomer) => ({
  id: gid('Customer', c.id),
  firstName: c.firstName,
  lastName: c.lastName,
  displayName: `${c.firstName} ${c.lastName}`.trim(),
  email: c.email,
  phone: c.phone,
  numberOfOrders: String(c.ordersCount),
  amountSpent: { amount: c.amountSpent, currencyCode: shop.currency },
  state: c.state,
  updatedAt: c.updatedAt,
});

const moneySet = (amount: string, shop: ShopState) => ({
  shopMoney: { amount, currencyCode: shop.currency },
  presentmentMoney: { amount, currencyCode: shop.currency },
});

function orderNode(shop: ShopState, o: FakeOrder) {
  const customer = shop.customers.find((c) => c.id === o.customerId);
  return {
    id: gid('Order', o.id),
    legacyResourceId: String(o.id),
    name: `#${o.number}`,
    email: o.email,
    phone: o.phone,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    cancelledAt: o.cancelledAt,
    cancelReason: o.cancelReason,
    displayFinancialStatus: o.financialStatus,
    displayFulfillmentStatus: o.fulfillmentStatus,
    currencyCode: shop.currency,
    totalPriceSet: moneySet(o.total, shop),
    totalRefundedSet: moneySet(money(refunded(o)), shop),
    customer: customer
      ? { id: gid('Customer', customer.id), displayName: customerNode(shop, customer).displayName }
      : null,
    lineItems: {
      nodes: o.lines.map((line) => ({
        title: line.title,
        quantity: line.quantity,
        sku: line.sku,
        originalUnitPriceSet: moneySet(line.price, shop),
      })),
    },
    fulfillments: o.fulfillments.map((f, i) => ({
      id: gid('Fulfillment', o.id * 10 + i),
      status: 'SUCCESS',
      displayStatus: f.status,
      trackingInfo: f.number || f.company ? [{ company: f.company, number: f.number, url: f.url }] : [],
    })),
    transactions: [
      {
        id: gid('OrderTransaction', o.id),
        kind: 'SALE',
        status: o.financialStatus === 'PENDING' ? 'PENDING' : 'SUCCESS',
        gateway: o.gateway,
        amountSet: moneySet(o.total, shop),
      },
    ],
  };
}

/** Shopify's REST JSON of a product, as products/create and products/update deliver it. */
export function restProduct(p: FakeProduct) {
  return {
    id: p.id,
    admin_graphql_api_id: gid('Product', p.id),
    title: p.title,
    body_html: p.descriptionHtml,
    vendor: p.vendor,
    product_type: p.productType,
    handle: p.handle,
    status: p.status.toLowerCase(),
    tags: p.tags.join(', '),
    created_at: p.updatedAt,
    updated_at: p.updatedAt,
    published_scope: 'global',
    variants: p.variants.map((v, i) => ({
      id: v.id,
      admin_graphql_api_id: gid('ProductVariant', v.id),
      product_id: p.id,
      title: v.title,
      price: v.price,
      compare_at_price: v.compareAtPrice,
      sku: v.sku ?? '',
      position: i + 1,
      inventory_policy: 'deny',
      inventory_management: p.tracksInventory ? 'shopify' : null,
      inventory_quantity: v.inventoryQuantity,
      option1: v.options[0] ?? null,
      option2: v.options[1] ?? null,
      option3: v.options[2] ?? null,
    })),
    options: p.options.map((o, i) => ({
      id: p.id * 10 + i,
      product_id: p.id,
      name: o.name,
      position: i + 1,
      values: o.values,
    })),
    image: p.imageUrl ? { id: p.id, product_id: p.id, src: p.imageUrl } : null,
    images: p.imageUrl ? [{ id: p.id, product_id: p.id, src: p.imageUrl }] : [],
  };
}

/** Shopify's REST JSON of an order, as orders/create, orders/updated and orders/cancelled deliver it. */
export function restOrder(shop: FakeShop, o: FakeOrder) {
  const customer = shop.customers.find((c) => c.id === o.customerId);
  return {
    id: o.id,
    admin_graphql_api_id: gid('Order', o.id),
    name: `#${o.number}`,
    order_number: o.number,
    email: o.email,
    phone: o.phone,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    cancelled_at: o.cancelledAt,
    cancel_reason: o.cancelReason?.toLowerCase() ?? null,
    financial_status: o.financialStatus.toLowerCase(),
    fulfillment_status: { FULFILLED: 'fulfilled', PARTIALLY_FULFILLED: 'partial', UNFULFILLED: null }[
      o.fulfillmentStatus
    ],
    currency: shop.currency,
    total_price: o.total,
    customer: customer
      ? {
          id: customer.id,
          admin_graphql_api_id: gid('Customer', customer.id),
          email: customer.email,
          first_name: customer.firstName,
          last_name: customer.lastName,
        }
      : null,
    line_items: o.lines.map((line, i) => ({ id: o.id * 100 + i, ...line })),
    fulfillments: o.fulfillments.map((f, i) => ({
      id: o.id * 10 + i,
      status: 'success',
      shipment_status: f.status === 'FULFILLED' ? null : f.status.toLowerCase(),
      tracking_company: f.company,
      tracking_number: f.number,
      tracking_numbers: f.number ? [f.number] : [],
      tracking_url: f.url,
      tracking_urls: f.url ? [f.url] : [],
    })),
    refunds: o.refunds.map((r) => ({
      id: r.id,
      note: r.note,
      transactions: [{ kind: 'refund', status: 'success', amount: r.amount, gateway: o.gateway }],
    })),
  };
}

// --------------------------------------------- shops ---------------------------------------------

const ADJECTIVES = ['Classic', 'Organic', 'Vintage', 'Everyday', 'Premium', 'Lightweight', 'Cozy', 'Rugged'];
const NOUNS = [
  'Cotton T-Shirt',
  'Wool Sweater',
  'Denim Jacket',
  'Linen Shirt',
  'Canvas Tote',
  'Leather Belt',
  'Rain Coat',
];
const VENDORS = ['Acme Apparel', 'Northwind', 'Blue Fern'];
const TAGS = ['summer', 'winter', 'sale', 'new', 'bestseller', 'eco'];

/** Product number `i` of a shop: the same every run, so tests and benchmarks can name what they expect. */
function generated(i: number, id: number, at: string): FakeProduct {
  const noun = NOUNS[i % NOUNS.length]!;
  const title = `${ADJECTIVES[i % ADJECTIVES.length]} ${noun} ${i + 1}`;
  const price = `${10 + ((i * 7) % 90)}.99`;
  const sized = i % 2 === 0;
  const sizes = ['S', 'M', 'L'];
  const variants: FakeVariant[] = (sized ? sizes : ['Default Title']).map((size, v) => ({
    id: id * 10 + v,
    title: size,
    price,
    compareAtPrice: i % 5 === 0 ? `${20 + ((i * 7) % 90)}.99` : null,
    sku: `SKU-${i + 1}-${size.charAt(0)}`,
    inventoryQuantity: (i * 13 + v * 5) % 40,
    options: [size],
  }));
  return {
    id,
    title,
    handle: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    descriptionHtml: `<p>The <strong>${title}</strong> is made to last.</p><ul><li>Care: machine wash cold</li><li>Fit: regular</li></ul>`,
    vendor: VENDORS[i % VENDORS.length]!,
    productType: noun.split(' ').pop()!,
    tags: [TAGS[i % TAGS.length]!, TAGS[(i + 3) % TAGS.length]!],
    status: 'ACTIVE',
    tracksInventory: true,
    options: [{ name: sized ? 'Size' : 'Title', values: sized ? sizes : ['Default Title'] }],
    variants,
    imageUrl: `https://cdn.shopify.com/s/files/1/products/${id}.jpg`,
    updatedAt: at,
  };
}

function newShop(domain: string, name = 'Acme Outfitters', currency = 'USD', level: number): ShopState {
  const at = '2026-01-01T00:00:00Z';
  const products = new Map<number, FakeProduct>();
  const json = new Map<number, string>();
  let nextId = 8_000_000_000_001;
  const shop: ShopState = {
    domain,
    name,
    currency,
    primaryDomain: `https://${domain.split('.')[0]}.example`,
    token: `shpat_${randomBytes(16).toString('hex')}`,
    tokens: new Set(),
    level,
    at: Date.now(),
    json,
    products,
    webhookSubscriptions: [],
    appSubscriptions: [],
    baseUrl: '',
    collections: [
      {
        id: 4001,
        title: 'Summer',
        handle: 'summer',
        descriptionHtml: '<p>Light clothes for hot days.</p>',
        productIds: [],
        updatedAt: at,
      },
      {
        id: 4002,
        title: 'Sale',
        handle: 'sale',
        descriptionHtml: '<p>Last chance.</p>',
        productIds: [],
        updatedAt: at,
      },
    ],
    articles: [
      {
        id: 5001,
        title: 'How to choose your size',
        handle: 'how-to-choose-your-size',
        bodyHtml:
          '<h2>Measure</h2><p>Measure your chest at its widest.</p><h2>Compare</h2><p>Use our size chart.</p>',
        blog: { title: 'News', handle: 'news' },
        author: 'Ada Lovelace',
        tags: ['guide'],
        publishedAt: at,
        updatedAt: at,
      },
    ],
    policies: [
      policy(
        6001,
        'REFUND_POLICY',
        'Refund policy',
        'refund-policy',
        '<p>Returns are accepted within 30 days.</p>',
      ),
      policy(
        6002,
        'SHIPPING_POLICY',
        'Shipping policy',
        'shipping-policy',
        '<p>Orders ship within 2 business days.</p>',
      ),
      policy(6003, 'PRIVACY_POLICY', 'Privacy policy', 'privacy-policy', '<p>We keep your data safe.</p>'),
    ],
    discounts: [
      {
        id: 7001,
        type: 'DiscountCodeBasic',
        title: 'Summer 10',
        code: 'SUMMER10',
        summary: '10% off entire order • Minimum purchase of $50.00',
        percentage: 0.1,
        amountOff: null,
        minimumSubtotal: '50.0',
        startsAt: at,
        endsAt: null,
        usageLimit: 100,
        status: 'ACTIVE',
      },
      {
        id: 7002,
        type: 'DiscountCodeFreeShipping',
        title: 'Free shipping',
        code: 'FREESHIP',
        summary: 'Free shipping on all products',
        percentage: null,
        amountOff: null,
        minimumSubtotal: null,
        startsAt: at,
        endsAt: null,
        usageLimit: null,
        status: 'ACTIVE',
      },
    ],
    customers: [
      customer(9001, 'Jane', 'Doe', 'jane@example.com', '+14155550100', 1, '59.98'),
      customer(9002, 'John', 'Roe', 'john@example.com', null, 1, '24.99'),
    ],
    orders: [
      {
        id: 3001,
        number: 1001,
        email: 'jane@example.com',
        phone: '+14155550100',
        customerId: 9001,
        createdAt: '2026-01-05T10:00:00Z',
        updatedAt: '2026-01-06T09:00:00Z',
        cancelledAt: null,
        cancelReason: null,
        financialStatus: 'PAID',
        fulfillmentStatus: 'FULFILLED',
        lines: [{ title: 'Classic Cotton T-Shirt', quantity: 2, price: '29.99', sku: 'SKU-1-S' }],
        fulfillments: [
          {
            company: 'UPS',
            number: '1Z999AA10123456784',
            url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
            status: 'IN_TRANSIT',
          },
        ],
        total: '59.98',
        refunds: [],
        gateway: 'bogus',
      },
      {
        id: 3002,
        number: 1002,
        email: 'john@example.com',
        phone: null,
        customerId: 9002,
        createdAt: '2026-01-07T12:00:00Z',
        updatedAt: '2026-01-07T12:00:00Z',
        cancelledAt: null,
        cancelReason: null,
        financialStatus: 'PAID',
        fulfillmentStatus: 'UNFULFILLED',
        lines: [{ title: 'Canvas Tote', quantity: 1, price: '24.99', sku: 'SKU-5-D' }],
        fulfillments: [],
        total: '24.99',
        refunds: [],
        gateway: 'bogus',
      },
    ],
    addProducts: (n) => {
      const start = products.size;
      const added: FakeProduct[] = [];
      for (let i = start; i < start + n; i++) {
        const product = generated(i, nextId++, at);
        products.set(product.id, product);
        added.push(product);
      }
      // The first few are summer clothes, every tenth is on sale.
      shop.collections[0]!.productIds.push(
        ...added
          .filter((p) => p.tags.includes('summer'))
          .slice(0, 20)
          .map((p) => p.id),
      );
      shop.collections[1]!.productIds.push(
        ...added.filter((_, k) => (start + k) % 10 === 0).map((p) => p.id),
      );
      json.clear();
      return added;
    },
    setProduct: (input) => {
      const id = input.id ?? nextId++;
      const base = products.get(id) ?? generated(products.size, id, at);
      const product: FakeProduct = { ...base, ...input, id, updatedAt: new Date().toISOString() };
      if (!input.handle && input.title !== base.title)
        product.handle = input.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      products.set(id, product);
      json.delete(id);
      return product;
    },
    removeProduct: (id) => {
      products.delete(id);
      json.delete(id);
    },
    order: (number) => shop.orders.find((o) => o.number === number),
    revoke: () => shop.tokens.clear(),
  };
  shop.tokens.add(shop.token);
  return shop;
}

const policy = (id: number, type: string, title: string, handle: string, bodyHtml: string): FakePolicy => ({
  id,
  type,
  title,
  handle,
  bodyHtml,
  updatedAt: '2026-01-01T00:00:00Z',
});

const customer = (
  id: number,
  firstName: string,
  lastName: string,
  email: string,
  phone: string | null,
  ordersCount: number,
  amountSpent: string,
): FakeCustomer => ({
  id,
  firstName,
  lastName,
  email,
  phone,
  ordersCount,
  amountSpent,
  state: 'ENABLED',
  updatedAt: '2026-01-07T12:00:00Z',
});

// ------------------------------------------ GraphQL text ------------------------------------------

/**
 * The root fields of a GraphQL document's first operation, with their arguments (variables
 * substituted). A small scanner, not a GraphQL parser: enough for the documents Parley sends
 * (variables, literals, nested selections, fragments after the operation).
 */
function rootFields(query: string, variables: Args): Root[] {
  let i = openingBrace(query);
  if (i < 0) return [];
  const fields: Root[] = [];
  i += 1;
  while (i < query.length) {
    i = skipSpace(query, i);
    if (query[i] === '}' || i >= query.length) break;
    const name = /^([_A-Za-z]\w*)(?:\s*:\s*([_A-Za-z]\w*))?/.exec(query.slice(i));
    if (!name) break;
    i = skipSpace(query, i + name[0].length);
    let args: Args = {};
    if (query[i] === '(') {
      const end = closing(query, i);
      args = parseArgs(query.slice(i + 1, end), variables);
      i = skipSpace(query, end + 1);
    }
    if (query[i] === '{') i = closing(query, i) + 1;
    fields.push({ alias: name[1]!, name: name[2] ?? name[1]!, args });
  }
  return fields;
}

/** Where the operation's selection set opens: the first `{` outside its variable definitions. */
function openingBrace(query: string): number {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '{' && depth === 0) return i;
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  let at = i;
  while (at < text.length) {
    if (/[\s,]/.test(text[at]!)) at++;
    else if (text[at] === '#') at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    else break;
  }
  return at;
}

/** The index of the bracket closing the one at `start`, skipping strings. */
function closing(text: string, start: number): number {
  const open = text[start]!;
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
  }
  return text.length;
}

function parseArgs(text: string, variables: Args): Args {
  const args: Args = {};
  for (const m of text.matchAll(/(\w+)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|[-\w.]+)/g)) {
    const raw = m[2]!;
    args[m[1]!] = raw.startsWith('$')
      ? variables[raw.slice(1)]
      : raw.startsWith('"')
        ? (JSON.parse(raw) as string)
        : raw === 'null'
          ? null
          : raw === 'true' || raw === 'false'
            ? raw === 'true'
            : /^-?\d/.test(raw)
              ? Number(raw)
              : raw;
  }
  return args;
}

function oauthHmac(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
