import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';
import { syncScheduleColumns } from '../../core/jobs/schedule.js';

/** How a web source is crawled: what its last crawl request asked for, which a re-crawl repeats. */
export type CrawlSettings = {
  maxPages: number;
  maxDepth: number;
  includePatterns?: string[];
  excludePatterns?: string[];
  useSitemap: boolean;
};

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
    /** Null for sources crawled before settings were kept: a re-crawl uses the defaults. */
    crawlSettings: jsonb('crawl_settings').$type<CrawlSettings>(),
    /**
     * The site's furniture (blocks repeated across its pages) as its last crawls learnt it: a re-crawl
     * where most pages answer 304 reads too few pages to learn it again (html-sections.ts).
     */
    boilerplate: text('boilerplate').array(),
    ...syncScheduleColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('web_sources_tenant_url_key').on(t.tenantId, t.baseUrl),
    index('web_sources_next_sync_idx').on(t.nextSyncAt),
  ],
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
    /** The validators the site sent with the page, sent back on a re-crawl (a 304 keeps the page). */
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** The page's links as last read: a 304 carries no body, and the crawl goes on through these. */
    links: jsonb('links').$type<string[]>().notNull().default([]),
  },
  (t) => [
    uniqueIndex('crawled_pages_source_url_key').on(t.webSourceId, t.url),
    index('crawled_pages_tenant_idx').on(t.tenantId),
  ],
);
