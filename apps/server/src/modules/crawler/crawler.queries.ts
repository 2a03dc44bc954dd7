import type { SyncChanges } from '@parley/contracts';
import { and, asc, count, desc, eq, inArray, lte, ne, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../core/db/database.js';
import { jobs, users } from '../../core/db/schema.js';
import { pendingJob } from '../../core/jobs/queue.js';
import { type CrawlSettings, crawledPages, webSources } from './crawler.schema.js';

export type WebSourceRow = typeof webSources.$inferSelect;
export type CrawledPageRow = typeof crawledPages.$inferSelect;

/**
 * The tenant's web source for a base URL, created when missing (name and description updated when
 * given); its crawl settings become this request's, which scheduled re-crawls repeat.
 */
export async function upsertWebSource(
  db: DbOrTx,
  values: {
    tenantId: number;
    userId: number;
    baseUrl: string;
    name?: string;
    description?: string;
    fallbackName: string;
    crawlSettings: CrawlSettings;
  },
): Promise<WebSourceRow> {
  const { fallbackName, ...rest } = values;
  const [row] = await db
    .insert(webSources)
    .values({ ...rest, name: values.name ?? fallbackName })
    .onConflictDoUpdate({
      target: [webSources.tenantId, webSources.baseUrl],
      set: {
        name: sql`coalesce(${values.name ?? null}, ${webSources.name})`,
        description: sql`coalesce(${values.description ?? null}, ${webSources.description})`,
        userId: values.userId,
        crawlSettings: values.crawlSettings,
      },
    })
    .returning();
  return row!;
}

export async function findWebSource(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<WebSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(webSources)
    .where(and(eq(webSources.tenantId, tenantId), eq(webSources.id, id)));
  return row;
}

/** What a crawl job answers when it ends (crawler.service.ts runCrawl): its tally and the pages it skipped. */
export type CrawlOutcome = SyncChanges & { skipped?: { url: string; reason: string }[]; notices?: string[] };

const lastCrawl = alias(jobs, 'last_crawl');

/**
 * The tenant's web sources (or one of them) with page counts, the crawl queued or running, if any,
 * and what the source's latest crawl answered (null while it runs, or when it failed).
 */
export async function listWebSources(db: DbOrTx, tenantId: number, id?: number) {
  return db
    .select({
      source: webSources,
      pageCount: count(crawledPages.id),
      runningTaskId: jobs.id,
      lastOutcome: sql<CrawlOutcome | null>`${lastCrawl.result}`,
    })
    .from(webSources)
    .leftJoin(crawledPages, eq(crawledPages.webSourceId, webSources.id))
    .leftJoin(jobs, pendingJob(webSources.syncTaskId))
    .leftJoin(lastCrawl, eq(lastCrawl.id, webSources.syncTaskId))
    .where(and(eq(webSources.tenantId, tenantId), id === undefined ? undefined : eq(webSources.id, id)))
    .groupBy(webSources.id, jobs.id, lastCrawl.id)
    .orderBy(asc(webSources.baseUrl));
}

/** What a crawl job answered, once it has ended (null before, or when it failed). */
export async function crawlOutcome(db: DbOrTx, taskId: string): Promise<CrawlOutcome | null> {
  const [row] = await db.select({ result: jobs.result }).from(jobs).where(eq(jobs.id, taskId));
  return (row?.result as CrawlOutcome | null | undefined) ?? null;
}

/** Locks the source (a re-crawl request and the scheduler take turns) and answers its pending crawl. */
export async function lockWebSource(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select({ source: webSources, runningTaskId: jobs.id })
    .from(webSources)
    .leftJoin(jobs, pendingJob(webSources.syncTaskId))
    .where(and(eq(webSources.tenantId, tenantId), eq(webSources.id, id)))
    .for('update', { of: webSources });
  return row;
}

/**
 * Scheduled sources whose re-crawl is due at `now`, locked for this transaction; a source another
 * process holds is skipped (it enqueues that one). Each comes with its crawl queued or running, if any.
 */
export async function claimDueWebSources(db: DbOrTx, now: Date, limit: number) {
  return db
    .select({ source: webSources, runningTaskId: jobs.id })
    .from(webSources)
    .leftJoin(jobs, pendingJob(webSources.syncTaskId))
    .where(and(ne(webSources.schedule, 'off'), lte(webSources.nextSyncAt, now)))
    .orderBy(asc(webSources.nextSyncAt))
    .limit(limit)
    .for('update', { of: webSources, skipLocked: true });
}

export async function updateWebSource(
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: Partial<Pick<WebSourceRow, 'schedule' | 'scheduleHour' | 'nextSyncAt' | 'syncTaskId'>>,
): Promise<void> {
  await db
    .update(webSources)
    .set(values)
    .where(and(eq(webSources.tenantId, tenantId), eq(webSources.id, id)));
}

export async function listPages(
  db: DbOrTx,
  tenantId: number,
  webSourceId: number,
  skip: number,
  limit: number,
) {
  const where = and(eq(crawledPages.tenantId, tenantId), eq(crawledPages.webSourceId, webSourceId));
  const [rows, [total]] = await Promise.all([
    db.select().from(crawledPages).where(where).orderBy(asc(crawledPages.url)).limit(limit).offset(skip),
    db.select({ n: count() }).from(crawledPages).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function listUserPages(db: DbOrTx, tenantId: number, userId: number) {
  return db
    .select({ page: crawledPages, source: webSources })
    .from(crawledPages)
    .innerJoin(webSources, eq(webSources.id, crawledPages.webSourceId))
    .where(and(eq(crawledPages.tenantId, tenantId), eq(crawledPages.userId, userId)))
    .orderBy(asc(webSources.baseUrl), desc(crawledPages.crawledAt), asc(crawledPages.url));
}

export async function userInTenant(db: DbOrTx, tenantId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row !== undefined;
}

export async function findPagesByIds(db: DbOrTx, tenantId: number, ids: number[]): Promise<CrawledPageRow[]> {
  return db
    .select()
    .from(crawledPages)
    .where(and(eq(crawledPages.tenantId, tenantId), inArray(crawledPages.id, ids)))
    .for('update');
}

/**
 * The page stored at any of `urls` (a page's URL as the site serves it, and its normalized form,
 * which pages stored by earlier versions of the crawler have).
 */
export async function findPageByUrl(
  db: DbOrTx,
  tenantId: number,
  webSourceId: number,
  urls: string[],
): Promise<CrawledPageRow | undefined> {
  const [row] = await db
    .select()
    .from(crawledPages)
    .where(
      and(
        eq(crawledPages.tenantId, tenantId),
        eq(crawledPages.webSourceId, webSourceId),
        inArray(crawledPages.url, urls),
      ),
    )
    .orderBy(asc(crawledPages.id))
    .for('update');
  return row;
}

export async function insertPage(
  db: DbOrTx,
  values: typeof crawledPages.$inferInsert,
): Promise<CrawledPageRow> {
  const [row] = await db.insert(crawledPages).values(values).returning();
  return row!;
}

export async function updatePage(
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: Partial<typeof crawledPages.$inferInsert>,
): Promise<void> {
  await db
    .update(crawledPages)
    .set(values)
    .where(and(eq(crawledPages.tenantId, tenantId), eq(crawledPages.id, id)));
}

/** Pages of a web source whose ids are not in `keep`. */
export async function pagesNotIn(db: DbOrTx, tenantId: number, webSourceId: number, keep: number[]) {
  const conditions = [eq(crawledPages.tenantId, tenantId), eq(crawledPages.webSourceId, webSourceId)];
  if (keep.length > 0) conditions.push(notInArray(crawledPages.id, keep));
  return db
    .select({ id: crawledPages.id })
    .from(crawledPages)
    .where(and(...conditions));
}

export async function pageIdsOfSource(db: DbOrTx, tenantId: number, webSourceId: number) {
  return db
    .select({ id: crawledPages.id })
    .from(crawledPages)
    .where(and(eq(crawledPages.tenantId, tenantId), eq(crawledPages.webSourceId, webSourceId)));
}

export async function deletePages(db: DbOrTx, tenantId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .delete(crawledPages)
    .where(and(eq(crawledPages.tenantId, tenantId), inArray(crawledPages.id, ids)));
}

export async function deleteWebSource(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db.delete(webSources).where(and(eq(webSources.tenantId, tenantId), eq(webSources.id, id)));
}

/** A finished crawl: when, and what it changed. */
export async function finishCrawl(
  db: DbOrTx,
  tenantId: number,
  id: number,
  at: Date,
  changes: SyncChanges,
  boilerplate: string[],
): Promise<void> {
  await db
    .update(webSources)
    .set({ lastCrawledAt: at, lastChanges: changes, boilerplate })
    .where(and(eq(webSources.tenantId, tenantId), eq(webSources.id, id)));
}

/** What a re-crawl needs of the pages it has: validators, fingerprint and links, by URL. */
export async function knownPages(db: DbOrTx, tenantId: number, webSourceId: number) {
  return db
    .select({
      id: crawledPages.id,
      url: crawledPages.url,
      etag: crawledPages.etag,
      lastModified: crawledPages.lastModified,
      contentHash: crawledPages.contentHash,
      links: crawledPages.links,
    })
    .from(crawledPages)
    .where(and(eq(crawledPages.tenantId, tenantId), eq(crawledPages.webSourceId, webSourceId)));
}

/** Pages the crawl found as they were: checked at `at`. */
export async function markPagesChecked(db: DbOrTx, tenantId: number, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(crawledPages)
    .set({ crawledAt: at })
    .where(and(eq(crawledPages.tenantId, tenantId), inArray(crawledPages.id, ids)));
}
