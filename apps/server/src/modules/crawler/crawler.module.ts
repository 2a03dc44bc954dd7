import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { embedderOf } from '../knowledge/vectors.js';
import { crawlerRoutes } from './crawler.routes.js';
import { CRAWL_JOB, CrawlerService, type CrawlJobData } from './crawler.service.js';

const crawlerOf = (deps: ModuleDeps) =>
  new CrawlerService(deps.db, deps.jobs, deps.config, undefined, embedderOf(deps), deps.clock);

/**
 * Crawler: routes, the crawl job (at most 2 runs: a worker lost mid-crawl is retried once) and the
 * scheduled re-crawls.
 */
export const crawlerModule: FeatureModule = {
  routes: (deps) => crawlerRoutes(crawlerOf(deps)),
  jobs: (deps) => {
    const crawler = crawlerOf(deps);
    deps.jobs.register<CrawlJobData>(CRAWL_JOB, (job) => crawler.runCrawl(job), {
      maxAttempts: 2,
      backoffBaseMs: 1000,
    });
    deps.scheduler.register('crawler.recrawl', (now) => crawler.enqueueDue(now));
  },
};
