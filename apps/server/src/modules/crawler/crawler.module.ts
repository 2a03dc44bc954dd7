import type { JobContext } from '../../core/jobs/queue.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { ExtractorPool } from '../files/extract-pool.js';
import { embedderOf } from '../knowledge/vectors.js';
import { notifyingSyncFailure } from '../notifications/notifications.service.js';
import { crawlerRoutes } from './crawler.routes.js';
import { CRAWL_JOB, CrawlerService, type CrawlJobData } from './crawler.service.js';

const crawlerOf = (deps: ModuleDeps, extractor: ExtractorPool | null = null) =>
  new CrawlerService(deps.db, deps.jobs, deps.config, undefined, embedderOf(deps), deps.clock, extractor);

/** The crawl job's reader of linked PDFs: child processes with the uploads' memory and time limits. */
const extractorOf = ({ config }: ModuleDeps) =>
  new ExtractorPool({
    maxUnpackedBytes: config.EXTRACT_MAX_UNPACKED_BYTES,
    maxEntries: config.EXTRACT_MAX_ARCHIVE_ENTRIES,
    timeoutMs: config.EXTRACT_TIMEOUT_MS,
    workerMemoryMb: config.EXTRACT_WORKER_MEMORY_MB,
    workers: config.EXTRACT_WORKERS,
  });

/**
 * Crawler: routes, the crawl job (at most 2 runs: a worker lost mid-crawl is retried once) and the
 * scheduled re-crawls.
 */
export const crawlerModule: FeatureModule = {
  routes: (deps) => crawlerRoutes(crawlerOf(deps)),
  jobs: (deps) => {
    const crawler = crawlerOf(deps, extractorOf(deps));
    const crawl = notifyingSyncFailure(
      deps.db,
      2,
      (job: JobContext<CrawlJobData>) => ({
        what: `website ${job.data.url}`,
        link: '/bot/knowledge/websites',
      }),
      (job) => crawler.runCrawl(job),
    );
    deps.jobs.register<CrawlJobData>(CRAWL_JOB, crawl, {
      maxAttempts: 2,
      backoffBaseMs: 1000,
    });
    deps.scheduler.register('crawler.recrawl', (now) => crawler.enqueueDue(now));
  },
};
