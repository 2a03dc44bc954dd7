import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../../config.js';

/**
 * Shopify's GraphQL Admin API as Parley uses it, on native fetch. `SHOPIFY_SHOP_URL` says where a
 * shop answers (`https://{shop}`; tests: the fake on loopback). The official `@shopify/shopify-api`
 * is not used: its Admin client (`@shopify/admin-api-client`) rebuilds the store URL as
 * `https://` + host and keeps only the origin, so it cannot reach an http fake under a path prefix.
 */
export type ShopifySettings = Pick<Config, 'SHOPIFY_SHOP_URL' | 'SHOPIFY_API_VERSION'>;

export class ShopifyError extends Error {
  constructor(
    message: string,
    /**
     * HTTP status; GraphQL errors: 200, 429 when still throttled, 403 for ACCESS_DENIED; refused
     * mutations (userErrors): 422; 0 when Shopify could not be reached.
     */
    readonly status: number,
    /** GraphQL error code (THROTTLED, MAX_COST_EXCEEDED, ACCESS_DENIED...) when Shopify gave one. */
    readonly code: string | null = null,
    /** MAX_COST_EXCEEDED: what the query would have cost. */
    readonly cost: number | null = null,
  ) {
    super(message);
    this.name = 'ShopifyError';
  }

  /** The shop refused the token (uninstalled, revoked, scope withdrawn): reconnecting is the cure. */
  get authRefused(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export const shopUrl = (settings: ShopifySettings, shop: string) =>
  settings.SHOPIFY_SHOP_URL.replace('{shop}', shop).replace(/\/+$/, '');

export function authorizeUrl(
  settings: ShopifySettings,
  shop: string,
  app: { apiKey: string; scopes: string; redirectUri: string; state: string },
): string {
  const query = new URLSearchParams({
    client_id: app.apiKey,
    scope: app.scopes,
    redirect_uri: app.redirectUri,
    state: app.state,
  });
  return `${shopUrl(settings, shop)}/admin/oauth/authorize?${query}`;
}

/** The OAuth code → an offline access token and the scopes granted. */
export async function exchangeCode(
  settings: ShopifySettings,
  shop: string,
  code: string,
  app: { apiKey: string; secret: string },
): Promise<{ accessToken: string; scope: string }> {
  const response = await send(`${shopUrl(settings, shop)}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ client_id: app.apiKey, client_secret: app.secret, code }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; scope?: string };
  if (!response.ok || !body.access_token) {
    throw new ShopifyError(
      `Shopify refused the authorization code (HTTP ${response.status})`,
      response.status,
    );
  }
  return { accessToken: body.access_token, scope: body.scope ?? '' };
}

type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
export type QueryCost = {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
};
type GraphqlError = { message: string; extensions?: { code?: string; cost?: number } };
type GraphqlBody<T> = { data?: T; errors?: GraphqlError[] | string; extensions?: { cost?: QueryCost } };
type UserError = { field?: string[] | null; message: string };
type Connection<N> = { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

/** Shopify rejects any single query above this cost, whatever the bucket's size (Plus has 2000). */
const MAX_QUERY_COST = 1000;
const MAX_PAGE = 250;
const THROTTLE_RETRIES = 5;
const TIMEOUT_MS = 30_000;

/**
 * Shopify's leaky bucket for one shop, as its last answer described it and refilled since. Taking
 * points before sending makes concurrent callers of the same shop queue behind each other.
 */
class Bucket {
  max = 1000;
  private rate = 50;
  private level = 1000;
  private at = Date.now();

  /** Milliseconds until a query of `cost` fits; its points are taken now. */
  reserve(cost: number): number {
    const now = Date.now();
    const available = Math.min(this.max, this.level + (this.rate * (now - this.at)) / 1000);
    const wait = Math.max(0, Math.min(cost, this.max) - available) / this.rate;
    this.level = available - cost;
    this.at = now;
    return Math.ceil(wait * 1000);
  }

  observe(status: ThrottleStatus): void {
    this.max = status.maximumAvailable;
    this.rate = status.restoreRate;
    this.level = status.currentlyAvailable;
    this.at = Date.now();
  }
}

/** One bucket per shop address, shared by every client of the process (Shopify counts per app and shop). */
const buckets = new Map<string, Bucket>();

export type ShopInfo = { name: string; currency: string; domain: string };
export type PageOptions = { limit: number; signal?: AbortSignal; variables?: Record<string, unknown> };

export class ShopifyClient {
  private readonly endpoint: string;
  private readonly bucket: Bucket;
  /** The last requested cost of each query text: the estimate for its next run. */
  private readonly costs = new Map<string, number>();
  /** Paged queries: what one node costs, learnt from the last page. */
  private readonly nodeCosts = new Map<string, number>();

  constructor(
    settings: ShopifySettings,
    readonly shop: string,
    private readonly accessToken: string,
  ) {
    const base = shopUrl(settings, shop);
    this.endpoint = `${base}/admin/api/${settings.SHOPIFY_API_VERSION}/graphql.json`;
    this.bucket = buckets.get(base) ?? new Bucket();
    buckets.set(base, this.bucket);
  }

  /**
   * One GraphQL call, paced by the bucket: it waits until the expected cost is available, and on a
   * THROTTLED answer (another client spent the points) waits for them and tries again, a few times.
   */
  async graphql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    options: { signal?: AbortSignal; expectedCost?: number } = {},
  ): Promise<{ data: T; cost: QueryCost | null }> {
    let expected = options.expectedCost ?? this.costs.get(query) ?? 10;
    for (let attempt = 0; ; attempt++) {
      const wait = this.bucket.reserve(expected);
      if (wait > 0) await sleep(wait, undefined, { signal: options.signal });
      const body = await this.post<T>(query, variables, options.signal);
      const cost = body.extensions?.cost ?? null;
      if (cost) {
        this.bucket.observe(cost.throttleStatus);
        this.costs.set(query, cost.requestedQueryCost);
        expected = cost.requestedQueryCost;
      }
      const errors = typeof body.errors === 'string' ? [{ message: body.errors }] : (body.errors ?? []);
      const throttled = errors.some((e) => e.extensions?.code === 'THROTTLED');
      if (throttled && attempt < THROTTLE_RETRIES) continue;
      if (errors.length > 0) throw graphqlError(errors);
      return { data: body.data as T, cost };
    }
  }

  private async post<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    const response = await send(this.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-shopify-access-token': this.accessToken,
      },
      body: JSON.stringify({ query, variables }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const body = (await response.json().catch(() => ({}))) as GraphqlBody<T>;
    if (!response.ok) {
      const detail = typeof body.errors === 'string' ? body.errors : (body.errors?.[0]?.message ?? '');
      throw new ShopifyError(`Shopify answered HTTP ${response.status} ${detail}`.trim(), response.status);
    }
    return body;
  }

  /**
   * The nodes of one connection (`data[root]`), page by page, at most `limit` in all. Each page is as
   * large as fits one query: the cost per node is learnt from Shopify's requestedQueryCost (nested
   * connections multiply it), and a MAX_COST_EXCEEDED answer shrinks the page instead of failing.
   */
  async *pages<N>(query: string, root: string, options: PageOptions): AsyncGenerator<N[]> {
    let remaining = options.limit;
    let after: string | null = null;
    while (remaining > 0) {
      const nodeCost = this.nodeCosts.get(query) ?? 1;
      const ceiling = Math.min(this.bucket.max, MAX_QUERY_COST);
      const first = Math.max(1, Math.min(MAX_PAGE, remaining, Math.floor((ceiling - 2) / nodeCost)));
      let answer: { data: Record<string, Connection<N>>; cost: QueryCost | null };
      try {
        answer = await this.graphql(
          query,
          { ...options.variables, first, after },
          { signal: options.signal, expectedCost: 2 + first * nodeCost },
        );
      } catch (error) {
        const tooCostly = error instanceof ShopifyError && error.code === 'MAX_COST_EXCEEDED' && error.cost;
        if (!tooCostly || first === 1) throw error;
        this.nodeCosts.set(query, ((error.cost ?? 0) - 2) / first);
        continue;
      }
      if (answer.cost) this.nodeCosts.set(query, (answer.cost.requestedQueryCost - 2) / first || 1);
      const connection = answer.data[root]!;
      yield connection.nodes;
      remaining -= connection.nodes.length;
      if (!connection.pageInfo.hasNextPage || connection.nodes.length === 0) return;
      after = connection.pageInfo.endCursor;
    }
  }

  /** A `…Count` root field's count, or null when the shop does not say. */
  async count(query: string, root: string, signal?: AbortSignal): Promise<number | null> {
    const { data } = await this.graphql<Record<string, { count: number } | null>>(query, {}, { signal });
    return data[root]?.count ?? null;
  }

  async shopInfo(signal?: AbortSignal): Promise<ShopInfo> {
    const { data } = await this.graphql<{
      shop: { name: string; currencyCode: string; primaryDomain: { url: string } };
    }>(SHOP_QUERY, {}, { signal });
    return { name: data.shop.name, currency: data.shop.currencyCode, domain: data.shop.primaryDomain.url };
  }

  /** Subscribes each topic to `callbackUrl`; a subscription that already exists is fine. */
  async registerWebhooks(callbackUrl: string, topics: readonly string[] = WEBHOOK_TOPICS): Promise<void> {
    for (const topic of topics) {
      const { data } = await this.graphql<{ webhookSubscriptionCreate: { userErrors: UserError[] } }>(
        WEBHOOK_CREATE,
        { topic, webhookSubscription: { callbackUrl, format: 'JSON' } },
      );
      const errors = data.webhookSubscriptionCreate.userErrors.filter(
        (e) => !/already.*taken/i.test(e.message),
      );
      if (errors.length > 0) throw userError(`register the ${topic} webhook`, errors);
    }
  }

  /**
   * Cancels an order. Shopify runs the cancellation as a job; its id is returned. A refund is a
   * separate step (`refundOrder`), so cancelling never pays back money by surprise.
   */
  async cancelOrder(
    orderGid: string,
    options: { reason?: string; refund?: boolean; restock?: boolean; notify?: boolean } = {},
  ): Promise<{ jobId: string | null }> {
    const { data } = await this.graphql<{
      orderCancel: { job: { id: string } | null; orderCancelUserErrors: UserError[] };
    }>(ORDER_CANCEL, {
      orderId: orderGid,
      reason: (options.reason ?? 'other').toUpperCase(),
      refund: options.refund ?? false,
      restock: options.restock ?? true,
      notifyCustomer: options.notify ?? true,
    });
    const errors = data.orderCancel.orderCancelUserErrors;
    if (errors.length > 0) throw userError('cancel the order', errors);
    return { jobId: data.orderCancel.job?.id ?? null };
  }

  /**
   * Refunds `amount` (a decimal in the order's currency) or, without one, all that is left, against
   * the order's captured payment.
   */
  async refundOrder(
    orderGid: string,
    options: { amount?: string; note?: string; notify: boolean },
  ): Promise<{ refundId: string; amount: string }> {
    const { data } = await this.graphql<{ order: RefundableOrder | null }>(ORDER_PAYMENTS, { id: orderGid });
    if (!data.order) throw new ShopifyError('The order does not exist on Shopify', 404);
    const payment = data.order.transactions.find(
      (t) => (t.kind === 'SALE' || t.kind === 'CAPTURE') && t.status === 'SUCCESS',
    );
    if (!payment) throw new ShopifyError('The order has no captured payment to refund', 422);
    const amount = options.amount ?? remainingAmount(data.order);
    const { data: result } = await this.graphql<{
      refundCreate: { refund: { id: string } | null; userErrors: UserError[] };
    }>(REFUND_CREATE, {
      input: {
        orderId: orderGid,
        note: options.note,
        notify: options.notify,
        transactions: [
          { orderId: orderGid, parentId: payment.id, amount, gateway: payment.gateway, kind: 'REFUND' },
        ],
      },
    });
    const errors = result.refundCreate.userErrors;
    if (errors.length > 0 || !result.refundCreate.refund) throw userError('refund the order', errors);
    return { refundId: result.refundCreate.refund.id, amount };
  }

  // ------------------------------------------- app billing -------------------------------------------

  /**
   * A recurring app charge to the shop (Shopify's app billing): PENDING until the merchant approves
   * it at `confirmationUrl`, after which Shopify sends them to `returnUrl` with `charge_id` added.
   * `amount` is a decimal string in `currencyCode` ("19.99"); `test` charges bill nothing.
   */
  async createAppSubscription(input: {
    name: string;
    returnUrl: string;
    amount: string;
    currencyCode: string;
    interval: AppPricingInterval;
    test: boolean;
  }): Promise<{ subscription: Pick<AppSubscription, 'id' | 'status'>; confirmationUrl: string }> {
    const { data } = await this.graphql<{
      appSubscriptionCreate: {
        appSubscription: Pick<AppSubscription, 'id' | 'status'> | null;
        confirmationUrl: string | null;
        userErrors: UserError[];
      };
    }>(APP_SUBSCRIPTION_CREATE, {
      name: input.name,
      returnUrl: input.returnUrl,
      test: input.test,
      lineItems: [
        {
          plan: {
            appRecurringPricingDetails: {
              price: { amount: input.amount, currencyCode: input.currencyCode },
              interval: input.interval,
            },
          },
        },
      ],
    });
    const made = data.appSubscriptionCreate;
    if (made.userErrors.length > 0 || !made.appSubscription || !made.confirmationUrl)
      throw userError('create the app subscription', made.userErrors);
    return { subscription: made.appSubscription, confirmationUrl: made.confirmationUrl };
  }

  /** The app subscription as Shopify holds it now, or null when this shop has none by that id. */
  async appSubscription(id: string): Promise<AppSubscription | null> {
    const { data } = await this.graphql<{ node: (AppSubscription & { __typename?: string }) | null }>(
      APP_SUBSCRIPTION_NODE,
      { id },
    );
    return data.node?.id ? data.node : null;
  }

  /** Cancels the app subscription at once (Shopify has no "at the end of the period"). */
  async cancelAppSubscription(id: string): Promise<Pick<AppSubscription, 'id' | 'status'>> {
    const { data } = await this.graphql<{
      appSubscriptionCancel: {
        appSubscription: Pick<AppSubscription, 'id' | 'status'> | null;
        userErrors: UserError[];
      };
    }>(APP_SUBSCRIPTION_CANCEL, { id });
    const answer = data.appSubscriptionCancel;
    if (answer.userErrors.length > 0 || !answer.appSubscription)
      throw userError('cancel the app subscription', answer.userErrors);
    return answer.appSubscription;
  }
}

export type AppPricingInterval = 'EVERY_30_DAYS' | 'ANNUAL';
export type AppSubscriptionStatus =
  | 'PENDING'
  | 'ACCEPTED'
  | 'ACTIVE'
  | 'DECLINED'
  | 'EXPIRED'
  | 'FROZEN'
  | 'CANCELLED';
export type AppSubscription = {
  id: string;
  name: string;
  status: AppSubscriptionStatus;
  test: boolean;
  createdAt: string;
  /** The end of the period paid for; null until the merchant approves. */
  currentPeriodEnd: string | null;
  lineItems: Array<{
    plan: {
      pricingDetails: {
        __typename: string;
        interval?: AppPricingInterval;
        price?: { amount: string; currencyCode: string };
      };
    };
  }>;
};

type RefundableOrder = {
  totalPriceSet: { shopMoney: { amount: string } };
  totalRefundedSet: { shopMoney: { amount: string } };
  transactions: Array<{ id: string; kind: string; status: string; gateway: string }>;
};

/** Total less what was refunded, in cents so 0.1 + 0.2 stays exact. */
function remainingAmount(order: RefundableOrder): string {
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const left = cents(order.totalPriceSet.shopMoney.amount) - cents(order.totalRefundedSet.shopMoney.amount);
  return (Math.max(0, left) / 100).toFixed(2);
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) throw error;
    throw new ShopifyError(`Shopify could not be reached: ${(error as Error).message}`, 0);
  }
}

function graphqlError(errors: GraphqlError[]): ShopifyError {
  const first = errors[0]!;
  const code = first.extensions?.code ?? null;
  // Still throttled after the retries reads as a busy service; a missing scope as a refusal.
  const status = code === 'THROTTLED' ? 429 : code === 'ACCESS_DENIED' ? 403 : 200;
  return new ShopifyError(
    errors.map((e) => e.message).join('; '),
    status,
    code,
    first.extensions?.cost ?? null,
  );
}

function userError(what: string, errors: UserError[]): ShopifyError {
  const text = errors.map((e) => e.message).join('; ') || 'no reason given';
  return new ShopifyError(`Shopify could not ${what}: ${text}`, 422, 'USER_ERROR');
}

export const WEBHOOK_TOPICS = [
  'PRODUCTS_CREATE',
  'PRODUCTS_UPDATE',
  'PRODUCTS_DELETE',
  'COLLECTIONS_CREATE',
  'COLLECTIONS_UPDATE',
  'COLLECTIONS_DELETE',
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'APP_UNINSTALLED',
  'APP_SUBSCRIPTIONS_UPDATE',
] as const;

const SHOP_QUERY = `query Shop {
  shop { name currencyCode myshopifyDomain primaryDomain { url } }
}`;

const WEBHOOK_CREATE = `mutation WebhookCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic }
    userErrors { field message }
  }
}`;

const APP_SUBSCRIPTION_CREATE = `mutation AppSubscriptionCreate($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $test: Boolean) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, test: $test) {
    appSubscription { id status }
    confirmationUrl
    userErrors { field message }
  }
}`;

const APP_SUBSCRIPTION_NODE = `query AppSubscription($id: ID!) {
  node(id: $id) {
    __typename
    ... on AppSubscription {
      id name status test createdAt currentPeriodEnd
      lineItems {
        plan {
          pricingDetails {
            __typename
            ... on AppRecurringPricing { interval price { amount currencyCode } }
          }
        }
      }
    }
  }
}`;

const APP_SUBSCRIPTION_CANCEL = `mutation AppSubscriptionCancel($id: ID!) {
  appSubscriptionCancel(id: $id) {
    appSubscription { id status }
    userErrors { field message }
  }
}`;

const ORDER_CANCEL = `mutation OrderCancel($orderId: ID!, $reason: OrderCancelReason!, $refund: Boolean!, $restock: Boolean!, $notifyCustomer: Boolean) {
  orderCancel(orderId: $orderId, reason: $reason, refund: $refund, restock: $restock, notifyCustomer: $notifyCustomer) {
    job { id done }
    orderCancelUserErrors { field message code }
  }
}`;

const ORDER_PAYMENTS = `query OrderPayments($id: ID!) {
  order(id: $id) {
    id
    totalPriceSet { shopMoney { amount currencyCode } }
    totalRefundedSet { shopMoney { amount currencyCode } }
    transactions(first: 20) { id kind status gateway amountSet { shopMoney { amount } } }
  }
}`;

const REFUND_CREATE = `mutation RefundCreate($input: RefundInput!) {
  refundCreate(input: $input) {
    refund { id totalRefundedSet { shopMoney { amount currencyCode } } }
    userErrors { field message }
  }
}`;

// ------------------------------- what the adapter reads, per kind -------------------------------

type MoneySet = { shopMoney: { amount: string } };

export type ProductNode = {
  id: string;
  title: string;
  handle: string;
  status: string;
  descriptionHtml: string;
  vendor: string | null;
  productType: string | null;
  tags: string[];
  updatedAt: string;
  onlineStoreUrl: string | null;
  tracksInventory: boolean;
  featuredImage: { url: string } | null;
  options: Array<{ name: string; values: string[] }>;
  collections: { nodes: Array<{ title: string }> };
  variants: {
    nodes: Array<{
      title: string;
      price: string;
      compareAtPrice: string | null;
      sku: string | null;
      inventoryQuantity: number | null;
      availableForSale: boolean;
      selectedOptions: Array<{ name: string; value: string }>;
    }>;
  };
};

export type CollectionNode = {
  id: string;
  title: string;
  handle: string;
  descriptionHtml: string;
  updatedAt: string;
  productsCount: { count: number } | null;
  products: { nodes: Array<{ title: string }> };
};

export type ArticleNode = {
  id: string;
  title: string;
  handle: string;
  body: string;
  tags: string[];
  publishedAt: string | null;
  updatedAt: string | null;
  isPublished: boolean;
  author: { name: string } | null;
  blog: { title: string; handle: string };
};

export type PolicyNode = {
  id: string;
  title: string;
  body: string;
  type: string;
  url: string;
  updatedAt: string;
};

export type DiscountNode = {
  id: string;
  discount: {
    __typename: string;
    title: string;
    status: string;
    summary?: string;
    startsAt: string | null;
    endsAt: string | null;
    usageLimit?: number | null;
    codes?: { nodes: Array<{ code: string }> };
    customerGets?: {
      value:
        | { __typename: 'DiscountPercentage'; percentage: number }
        | { __typename: 'DiscountAmount'; amount: { amount: string; currencyCode: string } }
        | { __typename: string };
    };
    minimumRequirement?: { __typename: string; greaterThanOrEqualToSubtotal?: { amount: string } } | null;
  };
};

export type CustomerNode = {
  id: string;
  displayName: string;
  email: string | null;
  phone: string | null;
  numberOfOrders: string | number;
  amountSpent: { amount: string; currencyCode: string } | null;
  updatedAt: string;
  state: string;
};

export type OrderNode = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  currencyCode: string;
  totalPriceSet: MoneySet;
  totalRefundedSet: MoneySet;
  customer: { id: string; displayName: string } | null;
  lineItems: {
    nodes: Array<{ title: string; quantity: number; sku: string | null; originalUnitPriceSet: MoneySet }>;
  };
  fulfillments: Array<{
    displayStatus: string | null;
    trackingInfo: Array<{ company: string | null; number: string | null; url: string | null }>;
  }>;
};

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';

/** Each paged kind: its query (oldest first), the connection's root field and its count query. */
export const KIND_QUERIES = {
  product: {
    root: 'products',
    count: 'query ProductsCount { productsCount { count precision } }',
    query: `query Products($first: Int!, $after: String) {
  products(first: $first, after: $after, sortKey: ID) {
    nodes {
      id title handle status descriptionHtml vendor productType tags updatedAt onlineStoreUrl tracksInventory
      featuredImage { url }
      options { name values }
      collections(first: 5) { nodes { title } }
      variants(first: 25) {
        nodes { title price compareAtPrice sku inventoryQuantity availableForSale selectedOptions { name value } }
      }
    }
    ${PAGE_INFO}
  }
}`,
  },
  collection: {
    root: 'collections',
    count: 'query CollectionsCount { collectionsCount { count precision } }',
    query: `query Collections($first: Int!, $after: String) {
  collections(first: $first, after: $after, sortKey: ID) {
    nodes {
      id title handle descriptionHtml updatedAt
      productsCount { count }
      products(first: 10) { nodes { title } }
    }
    ${PAGE_INFO}
  }
}`,
  },
  blog_article: {
    root: 'articles',
    count: null,
    query: `query Articles($first: Int!, $after: String) {
  articles(first: $first, after: $after, sortKey: ID) {
    nodes { id title handle body tags publishedAt updatedAt isPublished author { name } blog { title handle } }
    ${PAGE_INFO}
  }
}`,
  },
  discount: {
    root: 'discountNodes',
    count: 'query DiscountsCount { discountNodesCount { count precision } }',
    query: `query Discounts($first: Int!, $after: String) {
  discountNodes(first: $first, after: $after, sortKey: ID) {
    nodes {
      id
      discount {
        __typename
        ... on DiscountCodeBasic {
          title status summary startsAt endsAt usageLimit codes(first: 1) { nodes { code } }
          customerGets { value { ...Value } } minimumRequirement { ...Minimum }
        }
        ... on DiscountCodeBxgy { title status summary startsAt endsAt usageLimit codes(first: 1) { nodes { code } } }
        ... on DiscountCodeFreeShipping {
          title status summary startsAt endsAt usageLimit codes(first: 1) { nodes { code } }
          minimumRequirement { ...Minimum }
        }
        ... on DiscountCodeApp { title status startsAt endsAt usageLimit codes(first: 1) { nodes { code } } }
        ... on DiscountAutomaticBasic {
          title status summary startsAt endsAt customerGets { value { ...Value } } minimumRequirement { ...Minimum }
        }
        ... on DiscountAutomaticBxgy { title status summary startsAt endsAt }
        ... on DiscountAutomaticFreeShipping { title status summary startsAt endsAt minimumRequirement { ...Minimum } }
        ... on DiscountAutomaticApp { title status startsAt endsAt }
      }
    }
    ${PAGE_INFO}
  }
}
fragment Value on DiscountCustomerGetsValue {
  __typename
  ... on DiscountPercentage { percentage }
  ... on DiscountAmount { amount { amount currencyCode } }
}
fragment Minimum on DiscountMinimumRequirement {
  __typename
  ... on DiscountMinimumSubtotal { greaterThanOrEqualToSubtotal { amount } }
}`,
  },
  customer: {
    root: 'customers',
    count: 'query CustomersCount { customersCount { count precision } }',
    query: `query Customers($first: Int!, $after: String) {
  customers(first: $first, after: $after, sortKey: ID) {
    nodes { id displayName email phone numberOfOrders amountSpent { amount currencyCode } updatedAt state }
    ${PAGE_INFO}
  }
}`,
  },
  order: {
    root: 'orders',
    count: 'query OrdersCount { ordersCount(limit: null) { count precision } }',
    query: `query Orders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: ID) {
    nodes {
      id name email phone createdAt updatedAt cancelledAt displayFinancialStatus displayFulfillmentStatus currencyCode
      totalPriceSet { shopMoney { amount currencyCode } }
      totalRefundedSet { shopMoney { amount currencyCode } }
      customer { id displayName }
      lineItems(first: 50) { nodes { title quantity sku originalUnitPriceSet { shopMoney { amount } } } }
      fulfillments(first: 10) { displayStatus trackingInfo(first: 5) { company number url } }
    }
    ${PAGE_INFO}
  }
}`,
  },
} as const;

export const POLICIES_QUERY = `query Policies {
  shop { shopPolicies { id title body type url updatedAt } }
}`;
