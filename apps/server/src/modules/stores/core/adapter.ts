import type { StoreKind, StorePlatform, StoreRecordDataOf, Tracking } from '@parley/contracts';

/**
 * What the store core needs of a platform (Shopify, WooCommerce). The core owns stores, records,
 * sync runs, training and order look-up; an adapter only speaks its platform's API and turns its
 * objects into Parley's normalised records (contracts `StoreRecordData`).
 */

/** A record as an adapter hands it over: the platform's object, normalised. */
export type RemoteRecord<K extends StoreKind = StoreKind> = {
  kind: K;
  /** The platform's own id, as text. */
  externalId: string;
  title: string;
  /** The storefront page; null when it has none (orders, customers, coupons). */
  url: string | null;
  /** The platform's status (active, draft, publish, processing...). */
  status: string | null;
  /** When the platform last changed it (ISO), if it says. */
  updatedAt: string | null;
  /**
   * Orders: the order number without '#', lower case; customers: the email, lower case. What the
   * order check and the privacy webhooks look records up by.
   */
  lookupKey: string | null;
  data: StoreRecordDataOf<K>;
};

/** The store's decrypted connection, as the core hands it to its adapter. */
export type StoreConnection = {
  storeId: number;
  tenantId: number;
  /** Shopify: the shop domain (x.myshopify.com); WooCommerce: the site's base URL. */
  domain: string;
  /** Shopify: { accessToken }; WooCommerce: { consumerKey, consumerSecret }. */
  credentials: Record<string, string>;
};

export type FetchOptions = {
  /** At most this many records. */
  limit: number;
  signal: AbortSignal;
  /** Called once the platform tells how many there are (may be more than `limit`). */
  onTotal?: (total: number) => void;
};

export type StoreAdapter = {
  platform: StorePlatform;
  /** Kinds this platform has, in its sync order. */
  kinds: ReadonlyArray<StoreKind>;
  /** Pages of records of one kind, oldest first, at most `limit` in all; pacing is the adapter's. */
  fetch(connection: StoreConnection, kind: StoreKind, options: FetchOptions): AsyncIterable<RemoteRecord[]>;
  /** One order by its number (without '#'), fresh from the platform; null when there is none. */
  findOrder?(connection: StoreConnection, number: string): Promise<RemoteRecord<'order'> | null>;
  /** Extra tracking for an order beyond what the order record holds (WooCommerce notes). */
  tracking?(connection: StoreConnection, externalId: string): Promise<Tracking[]>;
};
