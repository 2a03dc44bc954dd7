import { z } from 'zod';
import { BodyId, inputText } from './common.js';
import { BOTS_SUBJECT, need, type RouteRule } from './rules.js';
import { SyncState } from './sync.js';

/** The website crawler (integrations-and-billing.md section 7 Crawler): each route and what it needs. */
export const CRAWLER_ROUTE_RULES = {
  'POST /crawler/crawl': need(BOTS_SUBJECT, 'create'),
  'GET /crawler/crawl/:id/status': need(BOTS_SUBJECT, 'read'),
  'GET /crawler/websource/:id/pages': need(BOTS_SUBJECT, 'read'),
  'GET /crawler/user/:id/pages': need(BOTS_SUBJECT, 'read'),
  'DELETE /crawler/page/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /crawler/pages/bulk': need(BOTS_SUBJECT, 'write'),
  'DELETE /crawler/websource/:id': need(BOTS_SUBJECT, 'write'),
  'PATCH /crawler/websource/:id': need(BOTS_SUBJECT, 'write'),
  'POST /crawler/websource/:id/recrawl': need(BOTS_SUBJECT, 'write'),
  'GET /crawler/tenant/:id/websources': need(BOTS_SUBJECT, 'read'),
} as const satisfies Record<string, RouteRule>;

/** Crawled pages page size and first offset (section 9). */
export const CRAWLED_PAGES_PAGE_SIZE = 20;

/** The syntax of include and exclude patterns, for the API docs; the server compiles each with RE2. */
export const CRAWL_PATTERN_SYNTAX =
  "Each pattern is matched against a page's path and query (/blog/post?id=1) and matches when it matches any part of it. " +
  'A glob: * matches any run of characters (slashes included), ? one character, anything else itself (/blog/*, *.html, /about). ' +
  'Written between slashes, a regular expression in RE2 syntax (linear time; no look-around or back-references), e.g. /^\\/docs\\/v\\d+$/. ' +
  'A pattern that cannot be compiled is refused with 400, naming it.';

const patterns = (purpose: string) =>
  z.array(inputText().min(1).max(500)).max(50).describe(`${purpose} ${CRAWL_PATTERN_SYNTAX}`);

/** Starts a crawl. Pattern syntax: CRAWL_PATTERN_SYNTAX. */
export const CrawlBody = z.object({
  /** Where the crawl starts; http or https only. */
  url: inputText()
    .trim()
    .min(1, 'URL is required')
    .max(2048)
    .refine((value) => {
      try {
        const parsed = new URL(value);
        return parsed.protocol === 'http:' || parsed.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'URL must be a valid http or https address'),
  /** Most pages to store. */
  max_pages: z.number().int().min(1).max(1000).default(50),
  /** Most links followed from the start page (0: the start page and the sitemap only). */
  max_depth: z.number().int().min(0).max(10).default(3),
  include_patterns: patterns(
    'Only pages matching one of these are stored (the start page is always fetched).',
  ).optional(),
  exclude_patterns: patterns('Pages matching one of these are neither fetched nor stored.').optional(),
  /** Read sitemap.xml (and the sitemaps robots.txt lists) for more pages. */
  use_sitemap: z.boolean().default(true),
  /** Name of the web source; the host by default. */
  name: inputText().trim().min(1).max(200).optional(),
  description: inputText().trim().max(2000).optional(),
});
export type CrawlBody = z.input<typeof CrawlBody>;

export const CrawlStarted = z.object({ task_id: z.string(), web_source_id: z.number().int() });
export type CrawlStarted = z.infer<typeof CrawlStarted>;

export const CrawlTaskParams = z.object({ id: z.uuid('must be a task id') });

/** A page a crawl found but could not store (a 404, a server error, too large, no text), and why. */
export const SkippedPage = z.object({ url: z.string(), reason: z.string() });
export type SkippedPage = z.infer<typeof SkippedPage>;

export const CrawlStatus = z.object({
  status: z.enum(['pending', 'running', 'completed', 'failed']),
  /** Pages stored by this crawl so far. */
  pages_crawled: z.number().int(),
  error_message: z.string().nullable(),
  current: z.number().int(),
  total: z.number().int(),
  percentage: z.number(),
  /** Pages the crawl could not store, once it has ended (at most 100); empty before. */
  skipped_pages: z.array(SkippedPage),
  /**
   * What the owner should know about the site as a whole, once the crawl has ended, in words: the
   * page limit left pages unread, or a menu built by JavaScript hid the site's other pages. Empty before.
   */
  notices: z.array(z.string()),
});
export type CrawlStatus = z.infer<typeof CrawlStatus>;

export const CrawledPage = z.object({
  page_id: z.number().int(),
  url: z.string(),
  title: z.string().nullable(),
  crawled_at: z.string(),
  web_source_id: z.number().int(),
  character_count: z.number().int(),
});
export type CrawledPage = z.infer<typeof CrawledPage>;

export const PagesQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(CRAWLED_PAGES_PAGE_SIZE),
});

export const CrawledPageList = z.object({ pages: z.array(CrawledPage), total: z.number().int() });
export type CrawledPageList = z.infer<typeof CrawledPageList>;

/** A web source with its re-crawl schedule and what its last crawl changed. */
export const WebSource = SyncState.extend({
  source_id: z.number().int(),
  base_url: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  page_count: z.number().int(),
  /** When its last crawl finished: every page kept was checked against the site then. */
  last_crawled_at: z.string().nullable(),
  /** Pages its last finished crawl could not store, and why (at most 100). */
  last_skipped_pages: z.array(SkippedPage),
  /** What its last finished crawl told of the site as a whole (CrawlStatus.notices). */
  last_notices: z.array(z.string()),
});
export type WebSource = z.infer<typeof WebSource>;

/** GET /crawler/user/{id}/pages: the pages that user crawled, grouped by web source. */
export const UserPages = z.array(
  z.object({
    source_id: z.number().int(),
    base_url: z.string(),
    name: z.string(),
    pages: z.array(CrawledPage),
  }),
);
export type UserPages = z.infer<typeof UserPages>;

export const BulkDeletePagesBody = z.object({
  page_ids: z.array(BodyId('Page id')).min(1, 'At least one page id is required').max(1000),
});
export type BulkDeletePagesBody = z.infer<typeof BulkDeletePagesBody>;
