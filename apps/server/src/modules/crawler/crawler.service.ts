import type {
  CrawlBody,
  CrawledPage,
  CrawledPageList,
  CrawlStarted,
  CrawlStatus,
  UserPages,
  WebSource,
} from '@parley/contracts';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { JobContext, JobQueue } from '../../core/jobs/queue.js';
import type { Embedder } from '../knowledge/embeddings.js';
import { removeDocument, replaceDocument } from '../knowledge/ingest.js';
import { type CrawledContent, crawlSite, normalizeUrl } from './crawl.js';
import * as q from './crawler.queries.js';
import { compilePattern, InvalidPatternError } from './patterns.js';
import { BlockedUrlError, checkUrl, type Resolver } from './safe-fetch.js';

export const CRAWL_JOB = 'crawler.crawl';

export type CrawlJobData = {
  webSourceId: number;
  userId: number;
  url: string;
  maxPages: number;
  maxDepth: number;
  includePatterns?: string[];
  excludePatterns?: string[];
  useSitemap: boolean;
};

type ParsedCrawlBody = z.output<typeof CrawlBody>;

const STATUS: Record<string, CrawlStatus['status']> = {
  queued: 'pending',
  active: 'running',
  completed: 'completed',
  failed: 'failed',
};

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
  ) {}

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
      });
      const data: CrawlJobData = {
        webSourceId: source.id,
        userId: auth.userId,
        url: baseUrl,
        maxPages: input.max_pages ?? 50,
        maxDepth: input.max_depth ?? 3,
        includePatterns: input.include_patterns,
        excludePatterns: input.exclude_patterns,
        useSitemap: input.use_sitemap ?? true,
      };
      const taskId = await this.jobs.enqueue(CRAWL_JOB, data, { tenantId: auth.tenantId, tx });
      return { task_id: taskId, web_source_id: source.id };
    });
  }

  async status(auth: AuthContext, taskId: string): Promise<CrawlStatus> {
    const job = await this.jobs.get(taskId, auth.tenantId);
    if (!job || job.name !== CRAWL_JOB) throw notFound();
    return {
      status: STATUS[job.status] ?? 'pending',
      pages_crawled: job.current,
      error_message: job.status === 'failed' ? (job.error ?? 'Crawling failed') : null,
      current: job.current,
      total: job.total,
      percentage: job.percentage,
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
    const rows = await q.listWebSources(this.db, auth.tenantId);
    return rows.map(({ source, pageCount }) => ({
      source_id: source.id,
      base_url: source.baseUrl,
      name: source.name,
      description: source.description,
      page_count: Number(pageCount),
      last_crawled_at: source.lastCrawledAt?.toISOString() ?? null,
    }));
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
   * The crawl job. Each stored page is upserted with its document and chunks in one transaction;
   * at the end, pages of the source this crawl did not reach are removed (a re-crawl is a snapshot).
   */
  async runCrawl(job: JobContext<CrawlJobData>): Promise<{ pages: number }> {
    const tenantId = job.tenantId;
    if (tenantId === null) throw new Error('A crawl job needs a tenant');
    const { data } = job;
    const source = await q.findWebSource(this.db, tenantId, data.webSourceId);
    if (!source) return { pages: 0 };
    const kept: number[] = [];
    await job.progress(0, data.maxPages);
    const stored = await crawlSite(
      {
        startUrl: data.url,
        maxPages: data.maxPages,
        maxDepth: data.maxDepth,
        includePatterns: data.includePatterns,
        excludePatterns: data.excludePatterns,
        useSitemap: data.useSitemap,
        concurrency: this.config.CRAWLER_CONCURRENCY,
        fetch: this.fetchOptions(job.signal),
      },
      {
        onPage: async (page) => {
          kept.push(await this.storePage(tenantId, data, page));
        },
        onProgress: (done, total) => job.progress(done, total),
      },
    );
    await this.db.transaction(async (tx) => {
      if (!(await q.findWebSource(tx, tenantId, data.webSourceId))) return;
      const gone = (await q.pagesNotIn(tx, tenantId, data.webSourceId, kept)).map((r) => r.id);
      for (const id of gone) await removeDocument(tx, tenantId, 'web', id);
      await q.deletePages(tx, tenantId, gone);
      await q.touchWebSource(tx, tenantId, data.webSourceId);
    });
    await job.progress(stored, stored);
    return { pages: stored };
  }

  private async storePage(tenantId: number, data: CrawlJobData, page: CrawledContent): Promise<number> {
    return this.db.transaction(async (tx) => {
      const values = {
        title: page.title,
        contentHash: page.contentHash,
        characterCount: page.text.length,
        crawledAt: new Date(),
        userId: data.userId,
      };
      const existing = await q.findPageByUrl(tx, tenantId, data.webSourceId, page.url);
      let id: number;
      if (existing) {
        id = existing.id;
        await q.updatePage(tx, tenantId, id, values);
        if (existing.contentHash === page.contentHash && existing.trained) return id;
      } else {
        id = (await q.insertPage(tx, { ...values, tenantId, webSourceId: data.webSourceId, url: page.url }))
          .id;
      }
      await replaceDocument(
        tx,
        {
          tenantId,
          sourceType: 'web',
          sourceId: id,
          collectionId: data.webSourceId,
          title: page.title,
          url: page.url,
          sections: [{ text: page.text }],
        },
        this.embedder,
      );
      await q.updatePage(tx, tenantId, id, { trained: true });
      return id;
    });
  }
}
