import type {
  MessageResponse,
  NotionAuthorizeResponse,
  NotionConnectResponse,
  NotionContent,
  NotionStatus,
  NotionTaskResponse,
  NotionWorkspace,
  SyncScheduleBody,
  TrainingProgress,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/** Notion workspaces: connection, content, sync and training (section 7 Notion). */
export const notionApi = api.enhanceEndpoints({ addTagTypes: ['Notion'] }).injectEndpoints({
  endpoints: (build) => ({
    notionStatus: build.query<NotionStatus, void>({
      query: () => '/notion/status',
      providesTags: ['Notion'],
    }),
    notionContent: build.query<NotionContent, void>({
      query: () => '/notion/content',
      providesTags: ['Notion'],
    }),
    notionAuthorize: build.mutation<NotionAuthorizeResponse, void>({
      query: () => '/notion/authorize',
    }),
    connectNotion: build.mutation<NotionConnectResponse, string>({
      query: (token) => ({ url: '/notion/connect', method: 'POST', body: { token } }),
      invalidatesTags: ['Notion'],
    }),
    syncNotion: build.mutation<NotionTaskResponse, number>({
      query: (id) => ({ url: `/notion/sync/${id}`, method: 'POST' }),
    }),
    trainNotion: build.mutation<NotionTaskResponse, { botId: number; workspaceId: number }>({
      query: ({ botId, workspaceId }) => ({
        url: `/training/train/notion/${botId}/${workspaceId}`,
        method: 'POST',
      }),
    }),
    deleteNotionWorkspace: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/notion/workspaces/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Notion'],
    }),
    setNotionSchedule: build.mutation<NotionWorkspace, { workspaceId: number; body: SyncScheduleBody }>({
      query: ({ workspaceId, body }) => ({ url: `/notion/workspaces/${workspaceId}`, method: 'PATCH', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Notion'],
    }),
    deleteNotionPage: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/notion/pages/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Notion'],
    }),
    /** Progress of a sync or training task (GET /training/train/progress/{taskId}). */
    notionTaskProgress: build.query<TrainingProgress, string>({
      query: (taskId) => `/training/train/progress/${taskId}`,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useNotionStatusQuery,
  useNotionContentQuery,
  useNotionAuthorizeMutation,
  useConnectNotionMutation,
  useSyncNotionMutation,
  useTrainNotionMutation,
  useDeleteNotionWorkspaceMutation,
  useDeleteNotionPageMutation,
  useSetNotionScheduleMutation,
  useNotionTaskProgressQuery,
} = notionApi;
