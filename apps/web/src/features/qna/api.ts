import type {
  AnswerUnansweredBody,
  CreateQnABody,
  LinkUnansweredBody,
  MessageResponse,
  QnA,
  TaskResponse,
  TrainingProgress,
  UnansweredGroup,
  UnansweredIdsBody,
  UpdateQnABody,
} from '@parley/contracts';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['QnA', 'Unanswered'] });

/** A bot's queue as listed (the most asked first, at most 200) and how many questions are open in all. */
export type UnansweredQueue = { groups: UnansweredGroup[]; total: number };

/**
 * Q&A pairs of a bot and their training (console.md section 7 Q&A). Every call is silent: the page
 * shows the spec's failure texts (section 8 QnA), or the server's detail when it gives one.
 */
export const qnaApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    qnas: build.query<QnA[], number>({
      query: (botId) => ({ url: '/qna/', params: { bot_id: botId } }),
      extraOptions: { silent: true },
      providesTags: (_result, _error, botId) => [{ type: 'QnA', id: botId }],
    }),
    createQna: build.mutation<QnA, CreateQnABody>({
      query: (body) => ({ url: '/qna/', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { bot_id }) => [{ type: 'QnA', id: bot_id }],
    }),
    updateQna: build.mutation<QnA, { id: number; botId: number; body: UpdateQnABody }>({
      query: ({ id, body }) => ({ url: `/qna/${id}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'QnA', id: botId }],
    }),
    deleteQna: build.mutation<MessageResponse, { id: number; botId: number }>({
      query: ({ id }) => ({ url: `/qna/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'QnA', id: botId }],
    }),
    /** Every pair of one bot (the server refuses a delete-all that names no scope). */
    deleteAllQnas: build.mutation<MessageResponse, number>({
      query: (botId) => ({ url: '/qna/', method: 'DELETE', params: { bot_id: botId } }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, botId) => [{ type: 'QnA', id: botId }],
    }),
    trainQna: build.mutation<TaskResponse, number>({
      query: (botId) => ({ url: `/training/train/qna/${botId}`, method: 'POST' }),
      extraOptions: { silent: true },
    }),
    /** The bot's questions it could not answer, grouped (issue 15 item 4); the header counts them all. */
    unanswered: build.query<UnansweredQueue, number>({
      query: (botId) => `/unanswered/bot/${botId}`,
      transformResponse: (groups: UnansweredGroup[], meta) => ({
        groups,
        // The shared base query passes fetchBaseQuery's meta (request and response) through.
        total:
          Number((meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('x-total-count')) ||
          groups.length,
      }),
      extraOptions: { silent: true },
      providesTags: (_result, _error, botId) => [{ type: 'Unanswered', id: botId }],
    }),
    answerUnanswered: build.mutation<QnA, { id: number; botId: number; body: AnswerUnansweredBody }>({
      query: ({ id, body }) => ({ url: `/unanswered/${id}/answer`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [
        { type: 'Unanswered', id: botId },
        { type: 'QnA', id: botId },
      ],
    }),
    /** "Same as an existing answer": the group's wordings join a pair's other wordings. */
    linkUnanswered: build.mutation<QnA, { id: number; botId: number; body: LinkUnansweredBody }>({
      query: ({ id, body }) => ({ url: `/unanswered/${id}/link`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [
        { type: 'Unanswered', id: botId },
        { type: 'QnA', id: botId },
      ],
    }),
    dismissUnanswered: build.mutation<MessageResponse, { id: number; botId: number }>({
      query: ({ id }) => ({ url: `/unanswered/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'Unanswered', id: botId }],
    }),
    /** Several groups dismissed at once ("Dismiss selected"). */
    dismissManyUnanswered: build.mutation<MessageResponse, { botId: number; body: UnansweredIdsBody }>({
      query: ({ body }) => ({ url: '/unanswered/dismiss', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'Unanswered', id: botId }],
    }),
    /** "Undo": dismissed groups back in the queue as they were. */
    restoreUnanswered: build.mutation<MessageResponse, { botId: number; body: UnansweredIdsBody }>({
      query: ({ body }) => ({ url: '/unanswered/restore', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'Unanswered', id: botId }],
    }),
    trainingProgress: build.query<TrainingProgress, string>({
      query: (taskId) => `/training/train/progress/${taskId}`,
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useQnasQuery,
  useCreateQnaMutation,
  useUpdateQnaMutation,
  useDeleteQnaMutation,
  useDeleteAllQnasMutation,
  useTrainQnaMutation,
  useTrainingProgressQuery,
  useUnansweredQuery,
  useAnswerUnansweredMutation,
  useDismissUnansweredMutation,
  useDismissManyUnansweredMutation,
  useRestoreUnansweredMutation,
  useLinkUnansweredMutation,
} = qnaApi;

/** Refetches a bot's pairs (after training, each shows trained). */
export const refreshQnas = (botId: number) => qnaApi.util.invalidateTags([{ type: 'QnA', id: botId }]);
