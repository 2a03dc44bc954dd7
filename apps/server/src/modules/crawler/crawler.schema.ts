import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';

/** A crawled website (integrations-and-billing.md section 3 Crawl: web source). */
export const webSources = pgTable(
  'web_sources',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    baseUrl: text('base_url').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    lastCrawledAt: timestamp('last_crawled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('web_sources_tenant_url_key').on(t.tenantId, t.baseUrl)],
);

/** A page of a web source; its text lives in documents (source_type 'web'). */
export const crawledPages = pgTable(
  'crawled_pages',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    webSourceId: integer('web_source_id')
      .notNull()
      .references(() => webSources.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    title: text('title'),
    contentHash: text('content_hash').notNull(),
    characterCount: integer('character_count').notNull().default(0),
    trained: boolean('trained').notNull().default(false),
    crawledAt: timestamp('crawled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('crawled_pages_source_url_key').on(t.webSourceId, t.url),
    index('crawled_pages_tenant_idx').on(t.tenantId),
  ],
);
