import type { StoreKind } from '@parley/contracts';

/**
 * Whether shoppers may be told about a record. A draft, archived or unpublished product, a hidden
 * article or page, and a discount or coupon that is not active (scheduled, expired, a draft) are
 * kept in the console's lists but never reach a bot's knowledge: the store itself would not sell
 * them, so a bot quoting them would promise what the shopper cannot buy.
 */

/** The statuses each platform gives what its storefront shows (Shopify lower-cased, WooCommerce's `publish`). */
const LIVE_STATUSES = new Set(['active', 'publish', 'published']);
/** Kinds with a status that decides visibility; collections, categories, orders and customers have none. */
const STATUS_KINDS = new Set<StoreKind>(['product', 'page', 'blog_article', 'policy', 'discount', 'coupon']);

type Visible = { kind: StoreKind; status: string | null; data: Record<string, unknown> };

/** Hidden by what the platform says of it (not by time): part of a record's content hash. */
export function hiddenByStatus(record: Pick<Visible, 'kind' | 'status'>): boolean {
  return STATUS_KINDS.has(record.kind) && record.status !== null && !LIVE_STATUSES.has(record.status);
}

/**
 * A discount or coupon whose end has passed: the platform may still call it active (WooCommerce
 * keeps an expired coupon published), and no webhook comes when the date passes.
 */
export function expired(record: Visible, now: Date): boolean {
  if (record.kind !== 'discount' && record.kind !== 'coupon') return false;
  const endsAt = record.data.ends_at;
  return typeof endsAt === 'string' && Date.parse(endsAt) <= now.getTime();
}

export const shownToShoppers = (record: Visible, now: Date): boolean =>
  !hiddenByStatus(record) && !expired(record, now);
