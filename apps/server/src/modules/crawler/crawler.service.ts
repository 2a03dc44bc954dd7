import type {
  CrawlBody,
  CrawledPage,
  CrawledPageList,
  CrawlStarted,
  CrawlStatus,
  SyncChanges,
  SyncScheduleBody,
  UserPages,
  WebSource,
} from '@parley/contracts';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import { type Clock, systemClock } from '../../core/clock.js';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { JobContext, JobQueue } from '../../core/jobs/queue.js';
import { DUE_BATCH, nextSyncAt, noChanges, toSyncState } from '../../core/jobs/schedule.js';
import { Entitlements } from '../billing/entitlements.js';
import { detectKind } from '../files/extract.js';
import type { ExtractorPool } from '../files/extract-pool.js';
import { ExtractionError } from '../files/extraction-error.js';
import type { Embedder } from '../knowledge/embeddings.js';
import { markDocumentsSynced, removeDocument, replaceDocuments } from '../knowledge/ingest.js';
import { type PreparedText, prepareText } from '../knowledge/prepare.js';
import {
  type CrawledContent,
  type CrawledDocument,
  crawlSite,
  type KnownPage,
  normalizeUrl,
} from './crawl.js';
import * as q from './crawler.queries.js';
import type { CrawlSettings } from './crawler.schema.js';
import { compilePattern, InvalidPatternError } from './patterns.js';
import { BlockedUrlError, checkUrl, type Resolver } from './safe-fetch.js';

export const CRAWL_JOB = 'crawler.crawl';

export type CrawlJobData = CrawlSettings & {
  webSourceId: number;
  /** Who asked (the pages are theirs); null for a scheduled re-crawl of a source whose user left. */
  userId: number | null;
  url: string;
};

type ParsedCrawlBody = z.output<typeof CrawlBody>;
type ParsedSchedule = z.output<typeof SyncScheduleBody>;

/** What a crawl request that predates kept settings asked for: CrawlBody's defaults. */
const DEFAULT_SETTINGS: CrawlSettings = { maxPages: 50, maxDepth: 3, useSitemap: true };

/** What happened to one page in a crawl (the page's row id and the tally it counts in). */
type PageOutcome = { id: number; change: Exclude<keyof SyncChanges, 'removed'> };

const STATUS: Record<string, CrawlStatus['status']> = {
  queued: 'pending',
  active: 'running',
  completed: 'completed',
  failed: 'failed',
};

const toWebSource = ({
  source,
  pageCount,
  runningTaskId,
  lastOutcome,
}: Awaited<ReturnType<typeof q.listWebSources>>[number]): WebSource => ({
  source_id: source.id,
  base_url: source.baseUrl,
  name: source.name,
  description: source.description,
  page_count: Number(pageCount),
  last_crawled_at: source.lastCrawledAt?.toISOString() ?? null,
  last_skipped_pages: lastOutcome?.skipped ?? [],
  last_notices: lastOutcome?.notices ?? [],
  ...toSyncState(source, runningTaskId),
});

/** A page's URL as served and in the normalized form earlier crawls stored it under. */
const urlsOf = (url: string) => [...new Set([url, normalizeUrl(url) ?? url])];

const toPage = (row: q.CrawledPageRow): CrawledPage => ({
  page_id: row.id,
  url: row.url,
  title: row.title,
  crawled_at: row.crawledAt.toISOString(),
  web_source_id: row.webSourceId,
  character_count: row.characterCount,
});

export class CrawlerService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly config: Config,
    /** Tests inject a fake DNS. */
    private readonly resolve?: Resolver,
    private readonly embedder: Embedder | null = null,
    private readonly clock: Clock = systemClock,
    /** Reads the documents a site links to (the crawl job's); without it a crawl leaves them alone. */
    private readonly extractor: ExtractorPool | null = null,
  ) {
    this.limits = new Entitlements(db, config);
  }

  /** The plan's trained characters per bot, for bots answering from the site (pages that grow it). */
  private readonly limits: Entitlements;

  private fetchOptions(signal?: AbortSignal) {
    return {
      allowPrivate: this.config.CRAWLER_ALLOW_PRIVATE,
      userAgent: this.config.CRAWLER_USER_AGENT,
      timeoutMs: this.config.CRAWLER_TIMEOUT_MS,
      maxBytes: this.config.CRAWLER_MAX_PAGE_BYTES,
      resolve: this.resolve,
      signal,
    };
  }

  /** Checks the patterns and the start URL (scheme, address), then queues the crawl. */
  async startCrawl(auth: AuthContext, input: ParsedCrawlBody): Promise<CrawlStarted> {
    try {
      for (const pattern of [...(input.include_patterns ?? []), ...(input.exclude_patterns ?? [])])
        compilePattern(pattern);
      await checkUrl(input.url, this.fetchOptions());
    } catch (error) {
      if (error instanceof BlockedUrlError || error instanceof InvalidPatternError)
        throw badRequest(error.message);
      throw error;
    }
    const baseUrl = normalizeUrl(input.url)!;
    return this.db.transaction(async (tx) => {
      const source = await q.upsertWebSource(tx, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        baseUrl,
        name: input.name,
        description: input.description,
        fallbackName: new URL(baseUrl).host,
        crawlSettings: {
          maxPages: input.max_pages,
          maxDepth: input.max_depth,
          includePatterns: input.include_patterns,
          excludePatterns: input.exclude_patterns,
          useSitemap: input.use_sitemap,
        },
      });
      const taskId = await this.enqueueCrawl(tx, { ...source, userId: auth.userId });
      return { task_id: taskId, web_source_id: source.id };
    });
  }

  /** Crawls the source again as last asked; a crawl already queued or running answers instead. */
  async recrawl(auth: AuthContext, id: number): Promise<CrawlStarted> {
    return this.db.transaction(async (tx) => {
      const row = await q.lockWebSource(tx, auth.tenantId, id);
      if (!row) throw notFound();
      const taskId = row.runningTaskId ?? (await this.enqueueCrawl(tx, row.source));
      return { task_id: taskId, web_source_id: id };
    });
  }

  async setSchedule(auth: AuthContext, id: number, input: ParsedSchedule): Promise<WebSource> {
    if (!(await q.findWebSource(this.db, auth.tenantId, id))) throw notFound();
    await q.updateWebSource(this.db, auth.tenantId, id, {
      schedule: input.schedule,
      scheduleHour: input.schedule_hour,
      nextSyncAt: nextSyncAt(input.schedule, input.schedule_hour, this.clock.now()),
    });
    const [row] = await q.listWebSources(this.db, auth.tenantId, id);
    return toWebSource(row!);
  }

  /**
   * The scheduler's task: enqueues the re-crawl of every source due at `now` and moves its next run
   * on, in the transaction that holds the source's row, so one process enqueues each run. A source
   * whose crawl is still queued or running skips this run.
   */
  async enqueueDue(now: Date): Promise<number> {
    let enqueued = 0;
    for (let claimed = DUE_BATCH; claimed === DUE_BATCH; ) {
      claimed = await this.db.transaction(async (tx) => {
        const due = await q.claimDueWebSources(tx, now, DUE_BATCH);
        for (const { source, runningTaskId } of due) {
          const next = nextSyncAt(source.schedule, source.scheduleHour, now);
          await q.updateWebSource(tx, source.tenantId, source.id, { nextSyncAt: next });
          if (runningTaskId) continue;
          await this.enqueueCrawl(tx, source);
          enqueued++;
        }
        return due.length;
      });
    }
    return enqueued;
  }

  /** Queues a crawl of the source with its kept settings and records it as the source's pending crawl. */
  private async enqueueCrawl(tx: DbOrTx, source: q.WebSourceRow): Promise<string> {
    const data: CrawlJobData = {
      ...(source.crawlSettings ?? DEFAULT_SETTINGS),
      webSourceId: source.id,
      userId: source.userId,
      url: source.baseUrl,
    };
    const taskId = await this.jobs.enqueue(CRAWL_JOB, data, { tenantId: source.tenantId, tx });
    await q.updateWebSource(tx, source.tenantId, source.id, { syncTaskId: taskId });
    return taskId;
  }

  async status(auth: AuthContext, taskId: string): Promise<CrawlStatus> {
    const job = await this.jobs.get(taskId, auth.tenantId);
    if (!job || job.name !== CRAWL_JOB) throw notFound();
    const outcome = job.status === 'completed' ? await q.crawlOutcome(this.db, taskId) : null;
    return {
      status: STATUS[job.status] ?? 'pending',
      pages_crawled: job.current,
      error_message: job.status === 'failed' ? (job.error ?? 'Crawling failed') : null,
      current: job.current,
      total: job.total,
      percentage: job.percentage,
      skipped_pages: outcome?.skipped ?? [],
      notices: outcome?.notices ?? [],
    };
  }

  async pagesOfSource(
    auth: AuthContext,
    webSourceId: number,
    skip: number,
    limit: number,
  ): Promise<CrawledPageList> {
    if (!(await q.findWebSource(this.db, auth.tenantId, webSourceId))) throw notFound();
    const { rows, total } = await q.listPages(this.db, auth.tenantId, webSourceId, skip, limit);
    return { pages: rows.map(toPage), total };
  }

  async pagesOfUser(auth: AuthContext, userId: number): Promise<UserPages> {
    if (!(await q.userInTenant(this.db, auth.tenantId, userId))) throw notFound();
    const groups = new Map<number, UserPages[number]>();
    for (const { page, source } of await q.listUserPages(this.db, auth.tenantId, userId)) {
      let group = groups.get(source.id);
      if (!group) {
        group = { source_id: source.id, base_url: source.baseUrl, name: source.name, pages: [] };
        groups.set(source.id, group);
      }
      group.pages.push(toPage(page));
    }
    return [...groups.values()];
  }

  async webSources(auth: AuthContext): Promise<WebSource[]> {
    return (await q.listWebSources(this.db, auth.tenantId)).map(toWebSource);
  }

  /** Deletes pages with their documents; any id not of this tenant makes it a 404 with nothing deleted. */
  async deletePages(auth: AuthContext, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const rows = await q.findPagesByIds(tx, auth.tenantId, unique);
      if (rows.length !== unique.length) throw notFound();
      for (const row of rows) await removeDocument(tx, auth.tenantId, 'web', row.id);
      await q.deletePages(tx, auth.tenantId, unique);
    });
  }

  async deleteWebSource(auth: AuthContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await q.findWebSource(tx, auth.tenantId, id))) throw notFound();
      for (const { id: pageId } of await q.pageIdsOfSource(tx, auth.tenantId, id))
        await removeDocument(tx, auth.tenantId, 'web', pageId);
      await q.deleteWebSource(tx, auth.tenantId, id);
    });
  }

  /**
   * The crawl job. Pages the source has are fetched conditionally (If-None-Match, If-Modified-Since):
   * a 304 keeps the page as it is, a page whose text is unchanged keeps its chunks, and only a new or
   * changed page is trained, each with its document and chunks in one transaction. At the end, pages
   * this crawl did not reach (gone, 404, no longer linked) are removed: a re-crawl is a snapshot.
   */
  async runCrawl(job: JobContext<CrawlJobData>): Promise<q.CrawlOutcome> {
    const tenantId = job.tenantId;
    if (tenantId === null) throw new Error('A crawl job needs a tenant');
    const { data } = job;
    const changes = noChanges();
    const source = await q.findWebSource(this.db, tenantId, data.webSourceId);
    if (!source) return changes;
    // By normalized URL: the crawl tells pages apart so (a page is stored as the site serves it).
    const known = new Map<string, KnownPage & { id: number }>(
      (await q.knownPages(this.db, tenantId, data.webSourceId)).map((page) => [
        normalizeUrl(page.url) ?? page.url,
        page,
      ]),
    );
    const kept: number[] = [];
    const checked: number[] = [];
    await job.progress(0, data.maxPages);
    const { stored, boilerplate, skipped, notices } = await crawlSite(
      {
        startUrl: data.url,
        maxPages: data.maxPages,
        maxDepth: data.maxDepth,
        includePatterns: data.includePatterns,
        excludePatterns: data.excludePatterns,
        useSitemap: data.useSitemap,
        concurrency: this.config.CRAWLER_CONCURRENCY,
        fetch: this.fetchOptions(job.signal),
        known: (url) => known.get(url),
        boilerplate: source.boilerplate ?? [],
        documents: this.extractor ? { maxBytes: this.config.FILE_MAX_BYTES } : undefined,
      },
      {
        onPage: async (page) => {
          const outcome = await this.storePage(tenantId, data, page);
          kept.push(outcome.id);
          checked.push(outcome.id);
          changes[outcome.change]++;
        },
        onDocument: async (document) => {
          const outcome = await this.storeDocument(tenantId, data, document);
          if (!outcome) return false;
          kept.push(outcome.id);
          checked.push(outcome.id);
          changes[outcome.change]++;
          return true;
        },
        onKept: async (url, notModified) => {
          const { id } = known.get(url)!;
          kept.push(id);
          if (notModified) checked.push(id);
          changes.unchanged++;
        },
        onProgress: (done, total) => job.progress(done, total),
      },
    );
    await this.db.transaction(async (tx) => {
      if (!(await q.findWebSource(tx, tenantId, data.webSourceId))) return;
      const gone = (await q.pagesNotIn(tx, tenantId, data.webSourceId, kept)).map((r) => r.id);
      for (const id of gone) await removeDocument(tx, tenantId, 'web', id);
      await q.deletePages(tx, tenantId, gone);
      changes.removed = gone.length;
      const now = this.clock.now();
      await q.markPagesChecked(tx, tenantId, checked, now);
      await markDocumentsSynced(tx, tenantId, 'web', checked, now);
      await q.finishCrawl(tx, tenantId, data.webSourceId, now, changes, boilerplate);
    });
    await job.progress(stored, stored);
    return { ...changes, skipped, notices };
  }

  /** Stores a page read in full: trained when new or its text changed, otherwise its chunks stay. */
  private storePage(tenantId: number, data: CrawlJobData, page: CrawledContent): Promise<PageOutcome> {
    // Chunked before the transaction, so the CPU work does not hold the database.
    const prepared = prepareText(page.title, page.url, page.sections);
    return this.store(tenantId, data, { ...page, characterCount: page.text.length }, prepared);
  }

  /**
   * Stores a linked document (PDF, Word, Excel): read in the extraction pool (a child process with
   * memory and time limits; a scanned PDF is read by OCR there) unless the same file was stored and
   * trained at this address before. Null when it holds no text (blank pages, a locked file), or its
   * bytes are not what its address says: it is not kept.
   */
  private async storeDocument(
    tenantId: number,
    data: CrawlJobData,
    document: CrawledDocument,
  ): Promise<PageOutcome | null> {
    const existing = await q.findPageByUrl(this.db, tenantId, data.webSourceId, urlsOf(document.url));
    if (existing?.contentHash === document.contentHash && existing.trained) {
      const { etag, lastModified } = document;
      const values = { url: document.url, crawledAt: this.clock.now(), etag, lastModified };
      await q.updatePage(this.db, tenantId, existing.id, values);
      return { id: existing.id, change: 'unchanged' };
    }
    // The bytes must be what the address says (a zip named .docx may be anything).
    if ((await detectKind(new URL(document.url).pathname, document.bytes)) !== document.kind) return null;
    let prepared: PreparedText;
    try {
      prepared = await this.extractor!.prepare(document.kind, document.bytes, document.title);
    } catch (error) {
      if (error instanceof ExtractionError) return null;
      throw error;
    }
    const row = { ...document, characterCount: prepared.characterCount, links: [] };
    return this.store(tenantId, data, row, prepared);
  }

  /** A page's row and, when new or changed, its document and chunks, in one transaction. */
  private async store(
    tenantId: number,
    data: CrawlJobData,
    page: Pick<CrawledContent, 'url' | 'title' | 'contentHash' | 'etag' | 'lastModified' | 'links'> & {
      characterCount: number;
    },
    prepared: PreparedText,
  ): Promise<PageOutcome> {
    return this.db.transaction(async (tx) => {
      const values = {
        url: page.url,
        title: page.title,
        contentHash: page.contentHash,
        characterCount: page.characterCount,
        crawledAt: this.clock.now(),
        userId: data.userId,
        etag: page.etag,
        lastModified: page.lastModified,
        links: page.links,
      };
      const existing = await q.findPageByUrl(tx, tenantId, data.webSourceId, urlsOf(page.url));
      let id: number;
      if (existing) {
        id = existing.id;
        await q.updatePage(tx, tenantId, id, values);
        if (existing.contentHash === page.contentHash && existing.trained) return { id, change: 'unchanged' };
      } else {
        id = (await q.insertPage(tx, { ...values, tenantId, webSourceId: data.webSourceId })).id;
      }
      await this.limits.requireRoomFor(
        tx,
        tenantId,
        { type: 'web', collectionId: data.webSourceId },
        [id],
        prepared.characterCount,
      );
      const [ingested] = await replaceDocuments(
        tx,
        [
          {
            tenantId,
            sourceType: 'web',
            sourceId: id,
            collectionId: data.webSourceId,
            title: page.title,
            url: page.url,
            sections: [],
          },
        ],
        this.embedder,
        [prepared],
      );
      await q.updatePage(tx, tenantId, id, { trained: true });
      if (!existing) return { id, change: 'added' };
      return { id, change: ingested!.unchanged ? 'unchanged' : 'changed' };
    });
  }
}
