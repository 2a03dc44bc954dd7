import {
  BulkDeletePagesBody,
  CrawlBody,
  CrawledPageList,
  CrawlStarted,
  CrawlStatus,
  CrawlTaskParams,
  IdParams,
  MESSAGES,
  MessageResponse,
  PagesQuery,
  SyncScheduleBody,
  UserPages,
  WebSource,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import { sameTenant } from '../../core/http/tenant.js';
import type { CrawlerService } from './crawler.service.js';

const tags = ['Crawler'];

export const crawlerRoutes =
  (crawler: CrawlerService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/crawler/crawl',
      {
        schema: {
          tags,
          summary: 'Start crawling a website into a web source (created or reused for its base URL)',
          body: CrawlBody,
          response: { 202: CrawlStarted },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await crawler.startCrawl(requireAuth(request), request.body)),
    );
    app.get(
      '/crawler/crawl/:id/status',
      {
        schema: {
          tags,
          summary: 'Progress of a crawl',
          params: CrawlTaskParams,
          response: { 200: CrawlStatus },
        },
      },
      async (request) => crawler.status(requireAuth(request), request.params.id),
    );
    app.get(
      '/crawler/websource/:id/pages',
      {
        schema: {
          tags,
          summary: 'Pages of a web source, by URL, skip/limit (20)',
          params: IdParams,
          querystring: PagesQuery,
          response: { 200: CrawledPageList },
        },
      },
      async (request) =>
        crawler.pagesOfSource(
          requireAuth(request),
          request.params.id,
          request.query.skip,
          request.query.limit,
        ),
    );
    app.get(
      '/crawler/user/:id/pages',
      {
        schema: {
          tags,
          summary: 'Pages a user of this workspace crawled, grouped by web source',
          params: IdParams,
          response: { 200: UserPages },
        },
      },
      async (request) => crawler.pagesOfUser(requireAuth(request), request.params.id),
    );
    app.delete(
      '/crawler/page/:id',
      {
        schema: {
          tags,
          summary: 'Delete a crawled page',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await crawler.deletePages(requireAuth(request), [request.params.id]);
        return { message: MESSAGES.crawler.pageDeleted };
      },
    );
    app.delete(
      '/crawler/pages/bulk',
      {
        schema: {
          tags,
          summary: 'Delete several crawled pages (all or none)',
          body: BulkDeletePagesBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await crawler.deletePages(requireAuth(request), request.body.page_ids);
        return { message: MESSAGES.crawler.pagesDeleted };
      },
    );
    app.delete(
      '/crawler/websource/:id',
      {
        schema: {
          tags,
          summary: 'Delete a web source with its pages',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await crawler.deleteWebSource(requireAuth(request), request.params.id);
        return { message: MESSAGES.crawler.sourceDeleted };
      },
    );
    app.patch(
      '/crawler/websource/:id',
      {
        schema: {
          tags,
          summary:
            'Set how often a web source is re-crawled: off, daily or weekly (Mondays), at an hour in UTC',
          params: IdParams,
          body: SyncScheduleBody,
          response: { 200: WebSource },
        },
      },
      async (request) => crawler.setSchedule(requireAuth(request), request.params.id, request.body),
    );
    app.post(
      '/crawler/websource/:id/recrawl',
      {
        schema: {
          tags,
          summary:
            'Re-crawl a web source now with its last settings (only changed pages are retrained); a crawl already queued or running answers instead',
          params: IdParams,
          response: { 202: CrawlStarted },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await crawler.recrawl(requireAuth(request), request.params.id)),
    );
    app.get(
      '/crawler/tenant/:id/websources',
      {
        schema: {
          tags,
          summary: "The workspace's web sources with page counts",
          params: IdParams,
          response: { 200: z.array(WebSource) },
        },
      },
      async (request) => crawler.webSources(sameTenant(requireAuth(request), request.params.id)),
    );
  };
