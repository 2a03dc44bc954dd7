import type { GlobalSyncStatus, StoreKind, StorePlatform, TrainingStatus } from '@parley/contracts';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';

/**
 * A connected online store (Shopify or WooCommerce). One table for both platforms, so a store id
 * names one store whichever platform it is on: it is the knowledge collection its trained records
 * live in (documents with source_type 'store').
 */
export const stores = pgTable(
  'stores',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    platform: text('platform').$type<StorePlatform>().notNull(),
    /** Shopify: the shop domain (x.myshopify.com); WooCommerce: the site's base URL. */
    domain: text('domain').notNull(),
    name: text('name').notNull(),
    /** The storefront's public address, for links in answers. */
    storefrontUrl: text('storefront_url').notNull(),
    currency: text('currency'),
    /** Access token or API keys as JSON, sealed with APP_SECRET (core/crypto.ts); never returned. */
    credentialsSealed: text('credentials_sealed').notNull(),
    /** WooCommerce: the secret its webhooks are signed with, sealed. */
    webhookSecretSealed: text('webhook_secret_sealed'),
    status: text('status').$type<'connected' | 'disconnected'>().notNull().default('connected'),
    /** The last global sync's status (the spec's shape), kept while it runs and after. */
    syncStatus: jsonb('sync_status').$type<GlobalSyncStatus | null>(),
    syncTaskId: uuid('sync_task_id'),
    trainTaskId: uuid('train_task_id'),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('stores_tenant_domain_key').on(t.tenantId, t.platform, t.domain),
    index('stores_domain_idx').on(t.platform, t.domain),
  ],
);

/**
 * A synced record of a store: a product, collection or category, page, blog article, policy,
 * discount or coupon (trainable), or an order or customer (never trained). `data` is the normalised
 * shape of its kind (contracts StoreRecordData); its text, when trained, is a document.
 */
export const storeRecords = pgTable(
  'store_records',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<StoreKind>().notNull(),
    externalId: text('external_id').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    status: text('status'),
    /** Orders: the number without '#', lower case; customers: the email, lower case. */
    lookupKey: text('lookup_key'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Hash of what training reads: a record whose text is unchanged is not retrained. */
    contentHash: text('content_hash').notNull(),
    remoteUpdatedAt: timestamp('remote_updated_at', { withTimezone: true }),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
    trainingStatus: text('training_status').$type<TrainingStatus>(),
    /** The content hash that was last trained; differs from content_hash when it needs retraining. */
    trainedHash: text('trained_hash'),
  },
  (t) => [
    uniqueIndex('store_records_key').on(t.storeId, t.kind, t.externalId),
    index('store_records_list_idx').on(t.tenantId, t.storeId, t.kind, t.id),
    index('store_records_lookup_idx').on(t.storeId, t.kind, t.lookupKey),
  ],
);

/** Webhook deliveries already taken in, by the platform's event id: a redelivery changes nothing. */
export const storeWebhookEvents = pgTable(
  'store_webhook_events',
  {
    platform: text('platform').$type<StorePlatform>().notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.platform, t.eventId] }),
    index('store_webhook_events_received_idx').on(t.receivedAt),
  ],
);

/** Issued Shopify OAuth states, by nonce: a callback consumes its row, so a state works once. */
export const storeOauthStates = pgTable(
  'store_oauth_states',
  {
    nonce: text('nonce').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    shop: text('shop').notNull(),
    botId: integer('bot_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('store_oauth_states_expires_idx').on(t.expiresAt)],
);
