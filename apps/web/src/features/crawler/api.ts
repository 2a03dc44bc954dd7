import type {
  BulkDeletePagesBody,
  CrawlBody,
  CrawledPageList,
  CrawlStarted,
  CrawlStatus,
  MessageResponse,
  SyncScheduleBody,
  WebSource,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['WebSources', 'CrawledPages'] });

/**
 * The website crawler (integrations-and-billing.md section 7 Crawler). Mutations are silent: the
 * screen shows the spec's failure text, or the server's detail when it gives one.
 */
export const crawlerApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    webSources: build.query<WebSource[], number>({
      query: (tenantId) => `/crawler/tenant/${tenantId}/websources`,
      providesTags: ['WebSources'],
    }),
    webSourcePages: build.query<CrawledPageList, { sourceId: number; skip: number; limit: number }>({
      query: ({ sourceId, skip, limit }) => ({
        url: `/crawler/websource/${sourceId}/pages`,
        params: { skip, limit },
      }),
      extraOptions: { silent: true },
      providesTags: ['CrawledPages'],
    }),
    crawlStatus: build.query<CrawlStatus, string>({
      query: (taskId) => `/crawler/crawl/${taskId}/status`,
    }),
    startCrawl: build.mutation<CrawlStarted, CrawlBody>({
      query: (body) => ({ url: '/crawler/crawl', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['WebSources'],
    }),
    deletePage: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/crawler/page/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['WebSources', 'CrawledPages'],
    }),
    deletePages: build.mutation<MessageResponse, BulkDeletePagesBody>({
      query: (body) => ({ url: '/crawler/pages/bulk', method: 'DELETE', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['WebSources', 'CrawledPages'],
    }),
    setWebSourceSchedule: build.mutation<WebSource, { sourceId: number; body: SyncScheduleBody }>({
      query: ({ sourceId, body }) => ({ url: `/crawler/websource/${sourceId}`, method: 'PATCH', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['WebSources'],
    }),
    recrawl: build.mutation<CrawlStarted, number>({
      query: (sourceId) => ({ url: `/crawler/websource/${sourceId}/recrawl`, method: 'POST' }),
      extraOptions: { silent: true },
      invalidatesTags: ['WebSources'],
    }),
    deleteWebSource: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/crawler/websource/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      // Not 'CrawledPages': the open list of the source just deleted would be asked for again (a 404);
      // other sources' pages are as they were.
      invalidatesTags: ['WebSources'],
    }),
  }),
});

export const {
  useWebSourcesQuery,
  useWebSourcePagesQuery,
  useCrawlStatusQuery,
  useStartCrawlMutation,
  useDeletePageMutation,
  useDeletePagesMutation,
  useDeleteWebSourceMutation,
  useSetWebSourceScheduleMutation,
  useRecrawlMutation,
} = crawlerApi;

/** Invalidates the lists once a crawl ends (new pages appeared). */
export const refreshCrawlerLists = () => crawlerApi.util.invalidateTags(['WebSources', 'CrawledPages']);
