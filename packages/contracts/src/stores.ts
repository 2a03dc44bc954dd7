import { z } from 'zod';
import { BodyId, Id, IdText, inputText } from './common.js';
import { SYNC } from './constants.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';

/**
 * Online stores (integrations-and-billing.md sections 2-9: Shopify and WooCommerce): one core of
 * stores, content items, sync runs and training, two platforms.
 */
export const STORE_PLATFORMS = ['shopify', 'woocommerce'] as const;
export type StorePlatform = (typeof STORE_PLATFORMS)[number];

/** Kinds of store records. Orders and customers are synced and listed, never trained. */
export const STORE_KINDS = [
  'product',
  'collection',
  'category',
  'page',
  'blog_article',
  'policy',
  'discount',
  'coupon',
  'order',
  'customer',
] as const;
export type StoreKind = (typeof STORE_KINDS)[number];
export const TRAINABLE_KINDS: ReadonlyArray<StoreKind> = [
  'product',
  'collection',
  'category',
  'page',
  'blog_article',
  'policy',
  'discount',
  'coupon',
];
export const isTrainable = (kind: StoreKind): boolean => TRAINABLE_KINDS.includes(kind);

/** The plural names the spec's paths and sync status use, per platform, in the spec's sync order. */
export const SHOPIFY_TYPES = {
  products: 'product',
  collections: 'collection',
  'blog-articles': 'blog_article',
  policies: 'policy',
  discounts: 'discount',
  orders: 'order',
  customers: 'customer',
} as const satisfies Record<string, StoreKind>;
export type ShopifyType = keyof typeof SHOPIFY_TYPES;
export const SHOPIFY_CONTENT_TYPES = [
  'products',
  'collections',
  'blog-articles',
  'policies',
  'discounts',
] as const;
export type ShopifyContentType = (typeof SHOPIFY_CONTENT_TYPES)[number];

/** Sync order: product, category, page, coupon, order, customer (section 9). */
export const WOO_TYPES = {
  products: 'product',
  categories: 'category',
  pages: 'page',
  coupons: 'coupon',
  orders: 'order',
  customers: 'customer',
} as const satisfies Record<string, StoreKind>;
export type WooType = keyof typeof WOO_TYPES;
/** What WooCommerce's global training covers (section 7: product, category, coupon, page). */
export const WOO_TRAINABLE_TYPES = ['products', 'categories', 'pages', 'coupons'] as const;
export type WooTrainableType = (typeof WOO_TRAINABLE_TYPES)[number];

export const pluralOf = (platform: StorePlatform, kind: StoreKind): string => {
  const table: Record<string, StoreKind> = platform === 'shopify' ? SHOPIFY_TYPES : WOO_TYPES;
  return Object.keys(table).find((plural) => table[plural] === kind) ?? kind;
};

export const SHOPIFY_ROUTE_RULES = {
  'POST /shopify/connect': need(BOTS_SUBJECT, 'create'),
  'POST /shopify/callback': need(BOTS_SUBJECT, 'create'),
  'GET /shopify/stores': need(BOTS_SUBJECT, 'read'),
  'DELETE /shopify/stores/:id': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/stores/:id/link-bot': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/stores/:id/unlink-bot': need(BOTS_SUBJECT, 'write'),
  'GET /shopify/orders': need(BOTS_SUBJECT, 'read'),
  'GET /shopify/orders/:id': need(BOTS_SUBJECT, 'read'),
  'POST /shopify/orders/:id/cancel': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/orders/:id/refund': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/orders/sync': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/customers/sync': need(BOTS_SUBJECT, 'write'),
  'GET /shopify/customers': need(BOTS_SUBJECT, 'read'),
  'GET /shopify/:type': need(BOTS_SUBJECT, 'read'),
  'POST /shopify/:type/sync': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/:type/train/:storeId': need(BOTS_SUBJECT, 'write'),
  'DELETE /shopify/:type/:id': need(BOTS_SUBJECT, 'write'),
  'POST /shopify/train/:storeId': need(BOTS_SUBJECT, 'write'),
  'POST /integrations/shopify/stores/:id/sync/global': need(BOTS_SUBJECT, 'write'),
  'GET /integrations/shopify/stores/:id/sync/status': need(BOTS_SUBJECT, 'read'),
  'POST /integrations/shopify/stores/:id/training/global': need(BOTS_SUBJECT, 'write'),
  'GET /shopify/stores/training/detailed-status/:storeId': need(BOTS_SUBJECT, 'read'),
  /** Shopify signs every delivery (X-Shopify-Hmac-Sha256); nothing is read before it checks. */
  'POST /shopify/webhooks': open,
} as const satisfies Record<string, RouteRule>;

export const WOO_ROUTE_RULES = {
  'GET /woocommerce/stores': need(BOTS_SUBJECT, 'read'),
  'POST /woocommerce/connect': need(BOTS_SUBJECT, 'create'),
  'POST /woocommerce/stores/:id/test': need(BOTS_SUBJECT, 'read'),
  'DELETE /woocommerce/stores/:id': need(BOTS_SUBJECT, 'write'),
  'GET /woocommerce/stores/:id': need(BOTS_SUBJECT, 'read'),
  'POST /woocommerce/stores/:id/link-bot': need(BOTS_SUBJECT, 'write'),
  'POST /woocommerce/stores/:id/unlink-bot': need(BOTS_SUBJECT, 'write'),
  'POST /woocommerce/stores/:id/:type/sync': need(BOTS_SUBJECT, 'write'),
  'POST /woocommerce/stores/:id/sync/global': need(BOTS_SUBJECT, 'write'),
  'GET /woocommerce/stores/:id/sync/status': need(BOTS_SUBJECT, 'read'),
  'GET /woocommerce/stores/:id/:type': need(BOTS_SUBJECT, 'read'),
  'GET /woocommerce/stores/:id/:type/:itemId': need(BOTS_SUBJECT, 'read'),
  'GET /woocommerce/stores/:id/orders/:itemId/tracking': need(BOTS_SUBJECT, 'read'),
  'DELETE /woocommerce/stores/:id/:type/:itemId': need(BOTS_SUBJECT, 'write'),
  'POST /woocommerce/stores/:id/content/train': need(BOTS_SUBJECT, 'write'),
  'DELETE /woocommerce/stores/:id/content/train/:type': need(BOTS_SUBJECT, 'write'),
  'POST /woocommerce/stores/:id/train': need(BOTS_SUBJECT, 'write'),
  'GET /woocommerce/stores/:id/training/status': need(BOTS_SUBJECT, 'read'),
  'GET /woocommerce/stores/training/detailed-status/:id': need(BOTS_SUBJECT, 'read'),
  /** WooCommerce signs every delivery (X-WC-Webhook-Signature) with the store's own secret. */
  'POST /woocommerce/webhooks/:id': open,
} as const satisfies Record<string, RouteRule>;

/** Texts of the store screens and server details (section 8 Shopify and WooCommerce). */
export const STORE_TEXTS = {
  shopifyConnected: 'Shopify store connected successfully',
  shopifyDisconnected: 'Shopify store disconnected successfully',
  wooConnected: 'WooCommerce store connected successfully',
  wooDisconnected: 'WooCommerce store disconnected successfully',
  globalSyncFailed: 'Global sync failed',
  globalTrainingFailed: 'Global training failed',
  unsupportedType: (type: string) => `Unsupported content type: ${type}`,
  /** Shopify's failure texts: 'Failed to {verb} {what}'. */
  shopifyFailed: (
    verb: 'connect' | 'fetch' | 'sync' | 'train' | 'delete' | 'cancel' | 'refund',
    what: string,
  ) => `Failed to ${verb} ${what}`,
  wooConnectFailed: 'Failed to connect WooCommerce store',
  wooFetchStoresFailed: 'Failed to fetch WooCommerce stores',
  wooFetchStoreFailed: 'Failed to fetch store details',
  wooTestFailed: 'Failed to test store connection',
  wooDisconnectFailed: 'Failed to disconnect store',
  wooSyncFailed: (plural: string) => `Failed to sync ${plural}`,
  wooFetchFailed: (plural: string) => `Failed to fetch ${plural}`,
  wooTrainFailed: 'Failed to train content',
  wooTrainingStatusFailed: 'Failed to fetch training status',
  wooGlobalTrainingFailed: 'Failed to start global training',
  wooDeleteFailed: (singular: string) => `Failed to delete ${singular}`,
  // Server details.
  shopDomainInvalid: 'Enter your store address as your-store.myshopify.com',
  shopifyNotConfigured: 'Shopify is not configured on this server (SHOPIFY_API_KEY and SHOPIFY_API_SECRET)',
  hmacInvalid: 'The Shopify sign-in could not be verified. Please connect again.',
  stateInvalid: 'The Shopify connection link is not valid. Please connect again.',
  stateExpired: 'The Shopify connection link has expired. Please connect again.',
  stateUsed: 'The Shopify connection link was already used. Please connect again.',
  shopMismatch: 'The store that answered is not the one you asked to connect. Please connect again.',
  storeUnreachable: 'The store could not be reached. Please try again.',
  wooKeysRefused: 'The store refused these API keys. Check the consumer key and secret (Read/Write).',
  wooNotWooCommerce: 'No WooCommerce REST API answers at this address',
  wooUrlInvalid: 'Enter the store address, like https://shop.example.com',
  storeNotFound: 'Store not found',
  itemNotFound: 'Not found',
  orderNotFound: 'Order not found',
  botNotFound: 'Bot not found',
  storeDisconnected: 'This store is disconnected. Connect it again to sync.',
  syncAlreadyRunning: 'A sync of this store is already running',
  connectionOk: 'Connection successful',
  syncStarted: 'Sync started',
  trainingStarted: 'Training started',
  trainingCleared: 'Training removed',
  deleted: 'Deleted',
  orderCancelled: 'Order cancelled',
  orderRefunded: 'Refund created',
  orderNotCancellable: 'This order can no longer be cancelled',
  refundTooLarge: 'The refund is larger than what is left to refund on this order',
  botLinked: 'Store connected to the bot',
  botUnlinked: 'Store disconnected from the bot',
  noTracking: 'No tracking information yet',
} as const;

// ---------------------------------------------------------------------------------------------
// Records as Parley keeps them: one normalised shape per kind, whichever platform they came from.
// ---------------------------------------------------------------------------------------------

/** Money as the store shows it: a decimal string in the store's currency ("19.99"). */
const Money = z.string();

export const ProductVariant = z.object({
  title: z.string(),
  sku: z.string().nullable(),
  price: Money,
  compare_at_price: Money.nullable(),
  /** null: the store does not track stock for it. */
  inventory: z.number().int().nullable(),
  available: z.boolean(),
  options: z.record(z.string(), z.string()),
});
export const ProductData = z.object({
  description: z.string(),
  vendor: z.string().nullable(),
  product_type: z.string().nullable(),
  tags: z.array(z.string()),
  options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  variants: z.array(ProductVariant),
  image_url: z.string().nullable(),
  /** Lowest variant price, for lists. */
  price: Money.nullable(),
  currency: z.string().nullable(),
  categories: z.array(z.string()),
});
export type ProductData = z.infer<typeof ProductData>;

export const CollectionData = z.object({
  description: z.string(),
  products_count: z.number().int().nullable(),
  /** A few of its products' titles, so "what do you sell in X" finds them. */
  product_titles: z.array(z.string()),
});
export type CollectionData = z.infer<typeof CollectionData>;

export const PageData = z.object({
  /** Plain text with its headings as Markdown (from the page's HTML). */
  body: z.string(),
  blog: z.string().nullable(),
  author: z.string().nullable(),
  tags: z.array(z.string()),
  published_at: z.string().nullable(),
});
export type PageData = z.infer<typeof PageData>;

export const DiscountData = z.object({
  code: z.string().nullable(),
  summary: z.string(),
  value: z.string().nullable(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  usage_limit: z.number().int().nullable(),
  minimum_amount: Money.nullable(),
});
export type DiscountData = z.infer<typeof DiscountData>;

export const OrderLine = z.object({
  title: z.string(),
  quantity: z.number().int(),
  price: Money,
  sku: z.string().nullable(),
});
export const Tracking = z.object({
  company: z.string().nullable(),
  number: z.string().nullable(),
  url: z.string().nullable(),
  status: z.string().nullable(),
});
export type Tracking = z.infer<typeof Tracking>;
export const OrderData = z.object({
  /** What the customer knows it by: "#1001" on Shopify, "1001" on WooCommerce. */
  number: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  customer_name: z.string().nullable(),
  financial_status: z.string().nullable(),
  fulfillment_status: z.string().nullable(),
  total: Money,
  refunded: Money,
  currency: z.string(),
  placed_at: z.string(),
  cancelled_at: z.string().nullable(),
  lines: z.array(OrderLine),
  tracking: z.array(Tracking),
  /** The store's id of the customer, for privacy requests. */
  customer_id: z.string().nullable(),
});
export type OrderData = z.infer<typeof OrderData>;

export const CustomerData = z.object({
  email: z.string().nullable(),
  phone: z.string().nullable(),
  orders_count: z.number().int(),
  total_spent: Money.nullable(),
  currency: z.string().nullable(),
});
export type CustomerData = z.infer<typeof CustomerData>;

export const StoreRecordData = {
  product: ProductData,
  collection: CollectionData,
  category: CollectionData,
  page: PageData,
  blog_article: PageData,
  policy: PageData,
  discount: DiscountData,
  coupon: DiscountData,
  order: OrderData,
  customer: CustomerData,
} as const satisfies Record<StoreKind, z.ZodType>;
export type StoreRecordDataOf<K extends StoreKind> = z.infer<(typeof StoreRecordData)[K]>;

export const TRAINING_STATUSES = ['training', 'completed', 'failed'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

/** One synced record, as every list answers it. */
export const StoreItem = z.object({
  id: z.number().int(),
  store_id: z.number().int(),
  kind: z.enum(STORE_KINDS),
  /** The platform's id ("gid://shopify/Product/1" on Shopify, "123" on WooCommerce). */
  external_id: z.string(),
  title: z.string(),
  /** The storefront page (citations link here); null for records without one (orders). */
  url: z.string().nullable(),
  /** The platform's own status (active, draft, publish, processing...). */
  status: z.string().nullable(),
  updated_at: z.string().nullable(),
  synced_at: z.string(),
  /** null: never trained. */
  training_status: z.enum(TRAINING_STATUSES).nullable(),
  /** true only when training_status is completed. */
  trained: z.boolean(),
  data: z.record(z.string(), z.unknown()),
});
export type StoreItem = z.infer<typeof StoreItem>;

export const StoreItemList = z.object({
  items: z.array(StoreItem),
  total: z.number().int(),
  total_filtered: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type StoreItemList = z.infer<typeof StoreItemList>;

export const SYNC_OVERALL = ['idle', 'syncing', 'completed', 'partial', 'error'] as const;
export const SYNC_TYPE_STATUSES = ['pending', 'syncing', 'completed', 'error'] as const;

/** The spec's global sync status (section 3), in its own field names. */
export const GlobalSyncStatus = z.object({
  storeId: z.number().int(),
  overallStatus: z.enum(SYNC_OVERALL),
  overallProgress: z.number(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  contentTypes: z.array(
    z.object({
      contentType: z.string(),
      status: z.enum(SYNC_TYPE_STATUSES),
      progress: z.number(),
      syncedCount: z.number().int(),
      totalCount: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
  totalSynced: z.number().int(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  /** The job running it (GET /jobs/{id}), or null. */
  task_id: z.string().nullable(),
});
export type GlobalSyncStatus = z.infer<typeof GlobalSyncStatus>;

/** Training state per content type and the global flags (active, starting, complete). */
export const TrainingStatusResponse = z.object({
  store_id: z.number().int(),
  active: z.boolean(),
  starting: z.boolean(),
  complete: z.boolean(),
  task_id: z.string().nullable(),
  progress: z.number(),
  content_types: z.array(
    z.object({
      content_type: z.string(),
      total: z.number().int(),
      trained: z.number().int(),
      training: z.number().int(),
      failed: z.number().int(),
      progress: z.number(),
    }),
  ),
});
export type TrainingStatusResponse = z.infer<typeof TrainingStatusResponse>;

export const Store = z.object({
  id: z.number().int(),
  platform: z.enum(STORE_PLATFORMS),
  name: z.string(),
  /** The shop domain (x.myshopify.com) or the WooCommerce site's address. */
  domain: z.string(),
  status: z.enum(['connected', 'disconnected']),
  currency: z.string().nullable(),
  connected_at: z.string(),
  last_synced_at: z.string().nullable(),
  /** Bots that answer from it. */
  bot_ids: z.array(z.number().int()),
  /** Synced records per plural content type. */
  counts: z.record(z.string(), z.number().int()),
  sync: GlobalSyncStatus,
});
export type Store = z.infer<typeof Store>;

export const StoreList = z.object({ stores: z.array(Store) });
export type StoreList = z.infer<typeof StoreList>;
export const StoreResponse = z.object({ message: z.string(), store: Store });
export type StoreResponse = z.infer<typeof StoreResponse>;
export const StoreTaskResponse = z.object({ message: z.string(), task_id: z.string() });
export type StoreTaskResponse = z.infer<typeof StoreTaskResponse>;

// ------------------------------------------ requests ------------------------------------------

const Limit = (fallback: number, max = 100_000) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback);
const Page = z.coerce.number().int().min(1, 'page must be at least 1').max(100_000).default(1);
const Flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .default(false);
const Search = inputText().trim().max(200).optional();

export const ShopDomain = inputText()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^https?:\/\//, '').replace(/\/.*$/, ''))
  .refine((value) => /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(value), STORE_TEXTS.shopDomainInvalid);

export const ShopifyConnectBody = z.object({
  shop_url: ShopDomain,
  bot_id: BodyId('Bot').optional(),
});
export const ShopifyConnectResponse = z.object({ authorization_url: z.string() });

/** Every query parameter Shopify sent back (all are covered by its HMAC), plus the console's own. */
export const ShopifyCallbackBody = z
  .object({
    shop: ShopDomain,
    code: inputText().min(1).max(500),
    state: inputText().min(1).max(2000),
    hmac: inputText().min(1).max(200),
    timestamp: inputText().max(50).optional(),
    host: inputText().max(500).optional(),
    platform: inputText().max(50).optional(),
    bot_id: z.union([BodyId('Bot'), IdText('Bot must be a positive whole number')]).optional(),
  })
  .catchall(inputText().max(2000));

export const StoreIdQuery = z.object({ store_id: IdText('store_id must be a positive whole number') });
export const ShopifyListQuery = StoreIdQuery.extend({
  query: Search,
  limit: Limit(SYNC.shopifyPageSize, 250),
  page: Page,
  force_refresh: Flag,
});
export const ShopifyCustomersQuery = ShopifyListQuery.extend({ limit: Limit(SYNC.shopifyCustomers, 1000) });
export const ShopifyOrdersQuery = StoreIdQuery.extend({
  status: inputText().trim().max(50).optional(),
  query: Search,
  limit: Limit(SYNC.shopifyPageSize, 250),
  page: Page,
});
export const ShopifyTypeParams = z.object({
  type: z.enum(SHOPIFY_CONTENT_TYPES, { error: 'Unknown content type' }),
});
export const ShopifySyncBody = z.object({
  store_id: BodyId('Store'),
  limit: Limit(SYNC.defaultLimit),
});
export const ShopifyDeleteQuery = StoreIdQuery.extend({ by_shopify_id: Flag });
export const ShopifyDeleteParams = ShopifyTypeParams.extend({ id: inputText().min(1).max(200) });
export const ShopifyTrainBody = z.object({
  content_types: z
    .array(z.enum(SHOPIFY_CONTENT_TYPES, { error: 'Unknown content type' }))
    .min(1)
    .max(10),
});
export const GlobalSyncBody = z.object({
  content_types: z.array(inputText().max(50)).max(10).optional(),
  limit: Limit(SYNC.defaultLimit),
  force_resync: z.boolean().default(false),
});
export const GlobalTrainingBody = z.object({
  content_types: z.array(inputText().max(50)).max(10).optional(),
  retrain: z.boolean().default(false),
});
export const CancelOrderBody = z.object({
  reason: z.enum(['customer', 'inventory', 'fraud', 'declined', 'other']).optional(),
});
export const RefundOrderBody = z.object({
  /** A decimal amount in the order's currency; the whole remaining amount when left out. */
  amount: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'Amount must be a positive number with at most two decimals')
    .optional(),
  note: inputText().max(500).optional(),
  notify: z.boolean().default(false),
});
export const StoreLinkBotBody = z.object({ bot_id: BodyId('Bot') });

export const WooConnectBody = z.object({
  store_url: inputText().trim().min(1, 'Store address is required').max(500),
  consumer_key: inputText().trim().min(1, 'Consumer key is required').max(200),
  consumer_secret: inputText().trim().min(1, 'Consumer secret is required').max(200),
  name: inputText().trim().max(100).optional(),
  bot_id: BodyId('Bot').optional(),
});
export const WooStoreParams = z.object({ id: Id });
export const WooTypeParams = WooStoreParams.extend({
  type: z.enum(Object.keys(WOO_TYPES) as [WooType, ...WooType[]], { error: 'Unknown content type' }),
});
export const WooItemParams = WooTypeParams.extend({ itemId: Id });
export const WooSyncBody = z.object({ limit: Limit(SYNC.defaultLimit) });
export const WooListQuery = z.object({
  search: Search,
  status: inputText().trim().max(50).optional(),
  featured: z.enum(['true', 'false']).optional(),
  customer: inputText().trim().max(200).optional(),
  per_page: Limit(SYNC.wooPageSize, 100),
  page: Page,
});
export const WooContentTrainBody = z.object({
  content_type: z.enum(WOO_TRAINABLE_TYPES, { error: 'Unknown content type' }),
});
export const WooTrainBody = z.object({
  content_types: z.array(inputText().max(50)).max(10).optional(),
  retrain: z.boolean().default(false),
});
export const WooTestResponse = z.object({
  ok: z.boolean(),
  message: z.string(),
  store_name: z.string().nullable(),
  currency: z.string().nullable(),
});
export const TrackingResponse = z.object({
  order_id: z.number().int(),
  number: z.string(),
  status: z.string().nullable(),
  tracking: z.array(Tracking),
  message: z.string().nullable(),
});
export type TrackingResponse = z.infer<typeof TrackingResponse>;
export type WooTestResponse = z.infer<typeof WooTestResponse>;
