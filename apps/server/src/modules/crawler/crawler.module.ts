import type { JobContext } from '../../core/jobs/queue.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { type ExtractorPool, extractorFromConfig } from '../files/extract-pool.js';
import { embedderOf } from '../knowledge/vectors.js';
import { notifyingSyncFailure } from '../notifications/notifications.service.js';
import { crawlerRoutes } from './crawler.routes.js';
import { CRAWL_JOB, CrawlerService, type CrawlJobData } from './crawler.service.js';

const crawlerOf = (deps: ModuleDeps, extractor: ExtractorPool | null = null) =>
  new CrawlerService(deps.db, deps.jobs, deps.config, undefined, embedderOf(deps), deps.clock, extractor);

/**
 * Crawler: routes, the crawl job (at most 2 runs: a worker lost mid-crawl is retried once) and the
 * scheduled re-crawls.
 */
export const crawlerModule: FeatureModule = {
  routes: (deps) => crawlerRoutes(crawlerOf(deps)),
  jobs: (deps) => {
    const crawler = crawlerOf(deps, extractorFromConfig(deps.config));
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
