import {
  SHOPIFY_CONTENT_TYPES,
  SHOPIFY_TYPES,
  STORE_TEXTS,
  type StoreItem,
  type StoreKind,
  type StorePlatform,
  type TrainingStatusResponse,
  WOO_TRAINABLE_TYPES,
  WOO_TYPES,
} from '@parley/contracts';
import { serverDetail } from '../../shared/api/errors';

/**
 * Pure helpers of the store screens (integrations-and-billing.md sections 3, 4, 8, 9): content-type
 * labels and abilities per platform, colours of statuses, money and dates, error texts.
 */

export const PLATFORM_LABELS: Record<StorePlatform, string> = {
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
};

export function parsePlatform(value: string | undefined): StorePlatform | null {
  return value === 'shopify' || value === 'woocommerce' ? value : null;
}

/** The store's own page in the console. */
export function storePath(store: { platform: StorePlatform; id: number }): string {
  return `/integrations/stores/${store.platform}/${store.id}`;
}

/** A tab of the store page: the plural path name, its record kind and what it may do. */
export type ContentTab = {
  type: string;
  kind: StoreKind;
  label: string;
  trainable: boolean;
  deletable: boolean;
};

const LABELS: Record<string, string> = {
  products: 'Products',
  collections: 'Collections',
  categories: 'Categories',
  pages: 'Pages',
  'blog-articles': 'Blog articles',
  blog_articles: 'Blog articles',
  policies: 'Policies',
  discounts: 'Discounts',
  coupons: 'Coupons',
  orders: 'Orders',
  customers: 'Customers',
};

/** "blog-articles" → "Blog articles"; unknown names get their first letter capitalised. */
export function typeLabel(type: string): string {
  const known = LABELS[type];
  if (known) return known;
  const words = type.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The tabs of a store, in the spec's order (section 9 for WooCommerce). */
export function contentTabs(platform: StorePlatform): ContentTab[] {
  if (platform === 'shopify') {
    return Object.entries(SHOPIFY_TYPES).map(([type, kind]) => {
      const content = (SHOPIFY_CONTENT_TYPES as readonly string[]).includes(type);
      return { type, kind, label: typeLabel(type), trainable: content, deletable: content };
    });
  }
  return Object.entries(WOO_TYPES).map(([type, kind]) => {
    const trainable = (WOO_TRAINABLE_TYPES as readonly string[]).includes(type);
    return { type, kind, label: typeLabel(type), trainable, deletable: trainable };
  });
}

/** The singular of a WooCommerce plural, as its delete failure names it ('Failed to delete category'). */
export function singularOf(type: string): string {
  const table: Record<string, string> = {
    products: 'product',
    categories: 'category',
    pages: 'page',
    coupons: 'coupon',
    collections: 'collection',
    'blog-articles': 'blog article',
    policies: 'policy',
    discounts: 'discount',
    orders: 'order',
    customers: 'customer',
  };
  return table[type] ?? type;
}

/** The lower-case words a Shopify failure names: 'Failed to sync blog articles'. */
function words(type: string): string {
  return typeLabel(type).toLowerCase();
}

export type StoreAction = 'fetch' | 'sync' | 'train' | 'delete';

/** The spec's default text of a failed action on a content type (section 8), per platform. */
export function actionFailText(platform: StorePlatform, action: StoreAction, type: string): string {
  if (platform === 'shopify') {
    return STORE_TEXTS.shopifyFailed(action, action === 'delete' ? singularOf(type) : words(type));
  }
  switch (action) {
    case 'fetch':
      return STORE_TEXTS.wooFetchFailed(type);
    case 'sync':
      return STORE_TEXTS.wooSyncFailed(type);
    case 'train':
      return STORE_TEXTS.wooTrainFailed;
    case 'delete':
      return STORE_TEXTS.wooDeleteFailed(singularOf(type));
  }
}

/** What the store-level actions say when the server gives no detail. */
export function storeFailText(
  platform: StorePlatform,
  action:
    | 'connect'
    | 'fetchStores'
    | 'fetchStore'
    | 'disconnect'
    | 'test'
    | 'globalTraining'
    | 'trainingStatus',
): string {
  if (platform === 'woocommerce') {
    switch (action) {
      case 'connect':
        return STORE_TEXTS.wooConnectFailed;
      case 'fetchStores':
        return STORE_TEXTS.wooFetchStoresFailed;
      case 'fetchStore':
        return STORE_TEXTS.wooFetchStoreFailed;
      case 'disconnect':
        return STORE_TEXTS.wooDisconnectFailed;
      case 'test':
        return STORE_TEXTS.wooTestFailed;
      case 'globalTraining':
        return STORE_TEXTS.wooGlobalTrainingFailed;
      case 'trainingStatus':
        return STORE_TEXTS.wooTrainingStatusFailed;
    }
  }
  switch (action) {
    case 'connect':
      return STORE_TEXTS.shopifyFailed('connect', 'store');
    case 'fetchStores':
      return STORE_TEXTS.shopifyFailed('fetch', 'stores');
    case 'fetchStore':
      return STORE_TEXTS.shopifyFailed('fetch', 'store');
    case 'disconnect':
      return STORE_TEXTS.shopifyFailed('delete', 'store');
    case 'test':
      return STORE_TEXTS.shopifyFailed('connect', 'store');
    case 'globalTraining':
      return STORE_TEXTS.globalTrainingFailed;
    case 'trainingStatus':
      return STORE_TEXTS.shopifyFailed('fetch', 'training status');
  }
}

/** The server's detail when it sent one (section 8: preferred), else the given default. */
export function failText(error: unknown, fallback: string): string {
  return serverDetail(error) ?? fallback;
}

export const connectedText = (platform: StorePlatform) =>
  platform === 'shopify' ? STORE_TEXTS.shopifyConnected : STORE_TEXTS.wooConnected;
export const disconnectedText = (platform: StorePlatform) =>
  platform === 'shopify' ? STORE_TEXTS.shopifyDisconnected : STORE_TEXTS.wooDisconnected;

type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error';

/** Colour of a sync status (overall or per type). */
export function syncStatusColor(status: string): ChipColor {
  switch (status) {
    case 'completed':
      return 'success';
    case 'syncing':
      return 'info';
    case 'partial':
      return 'warning';
    case 'error':
      return 'error';
    default:
      return 'default';
  }
}

/** Label and colour of an item's training state (null: never trained). */
export function trainingChip(status: StoreItem['training_status']): { label: string; color: ChipColor } {
  switch (status) {
    case 'completed':
      return { label: 'Trained', color: 'success' };
    case 'training':
      return { label: 'Training', color: 'info' };
    case 'failed':
      return { label: 'Failed', color: 'error' };
    default:
      return { label: 'Not trained', color: 'default' };
  }
}

/** Colour of a platform status (an order's payment, a product's state...). */
export function recordStatusColor(status: string | null | undefined): ChipColor {
  const value = (status ?? '').toLowerCase();
  if (['active', 'publish', 'paid', 'completed', 'fulfilled', 'enabled'].includes(value)) return 'success';
  if (
    ['pending', 'processing', 'on-hold', 'partially_paid', 'partially_refunded', 'unfulfilled'].includes(
      value,
    )
  )
    return 'warning';
  if (['cancelled', 'failed', 'refunded', 'voided', 'trash', 'expired'].includes(value)) return 'error';
  if (['draft', 'archived', 'private'].includes(value)) return 'default';
  return 'default';
}

/** "19.9" in USD → "$19.90"; an unknown currency keeps its code; no amount gives an en dash. */
export function formatMoney(amount: string | number | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === '') return '–';
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  if (currency) {
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
    } catch {
      return `${value.toFixed(2)} ${currency}`;
    }
  }
  return value.toFixed(2);
}

/** A date and time in the reader's locale; null or unreadable gives the fallback. */
export function formatDateTime(value: string | null | undefined, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : date.toLocaleString();
}

/** Total stock of a product's variants; null when no variant tracks stock. */
export function stockOf(data: Record<string, unknown>): number | null {
  const variants = Array.isArray(data.variants) ? (data.variants as Array<{ inventory?: unknown }>) : [];
  let total: number | null = null;
  for (const variant of variants) {
    if (typeof variant.inventory === 'number') total = (total ?? 0) + variant.inventory;
  }
  return total;
}

/** A percentage kept within 0-100 for a progress bar. */
export function clampPercent(value: number | null | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** trained of total as a percentage (0 when there is nothing). */
export function trainedPercent(trained: number, total: number): number {
  return total > 0 ? clampPercent((trained / total) * 100) : 0;
}

/** Training runs (or is about to) while either flag says so, or any item is still training. */
export function isTrainingActive(status: TrainingStatusResponse | undefined): boolean {
  if (!status) return false;
  return status.active || status.starting || status.content_types.some((type) => type.training > 0);
}

/** Every query parameter Shopify sent back, plus the bot chosen before leaving (if any). */
export function callbackBody(params: URLSearchParams, botId: string | null): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [key, value] of params) body[key] = value;
  if (botId && /^\d+$/.test(botId)) body.bot_id = botId;
  return body;
}

/** What the merchant typed as the shop, as the server expects it: "x.myshopify.com". */
export function shopDomainOf(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
}

export function isShopDomain(input: string): boolean {
  return /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shopDomainOf(input));
}

/** A refund amount: empty (the whole remainder) or a positive decimal with at most two places. */
export function refundAmountError(amount: string): string | null {
  const value = amount.trim();
  if (!value) return null;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value) || Number(value) <= 0)
    return 'Amount must be a positive number with at most two decimals';
  return null;
}

/** What is left to refund on an order, in its currency's decimals (never below 0). */
export function refundable(total: string, refunded: string): string {
  const left = Math.max(0, Number(total) - Number(refunded || 0));
  return Number.isFinite(left) ? left.toFixed(2) : '0.00';
}

/** The query of a list page, in each platform's parameter names (section 7). */
export function listParams(
  platform: StorePlatform,
  storeId: number,
  args: { search: string; page: number; limit: number },
): Record<string, string> {
  const search = args.search.trim();
  if (platform === 'shopify') {
    const params: Record<string, string> = {
      store_id: String(storeId),
      limit: String(args.limit),
      page: String(args.page),
    };
    if (search) params.query = search;
    return params;
  }
  const params: Record<string, string> = { per_page: String(args.limit), page: String(args.page) };
  if (search) params.search = search;
  return params;
}

/** The names of the linked bots, in the order of the store's ids; unknown ids read "Bot {id}". */
export function botNames(
  ids: readonly number[],
  bots: readonly { bot_id: number; bot_name: string }[],
): Array<{ id: number; name: string }> {
  return ids.map((id) => ({ id, name: bots.find((b) => b.bot_id === id)?.bot_name ?? `Bot ${id}` }));
}

export const CANCEL_REASONS = [
  { value: 'customer', label: 'Customer changed or cancelled the order' },
  { value: 'inventory', label: 'Items unavailable' },
  { value: 'fraud', label: 'Fraudulent order' },
  { value: 'declined', label: 'Payment declined' },
  { value: 'other', label: 'Other' },
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number]['value'];

/** Where the Shopify connect dialog keeps the chosen bot for the callback page (sessionStorage). */
export const SHOPIFY_BOT_KEY = 'parley.shopify.connectBotId';
