import type { SearchBody, SearchResult } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/** What retrieval finds for a question in a bot's sources, with scores (the playground's preview). */
export const knowledgeApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchKnowledge: build.mutation<SearchResult, { botId: number; body: SearchBody }>({
      query: ({ botId, body }) => ({ url: `/knowledge/search/${botId}`, method: 'POST', body }),
    }),
  }),
});

export const { useSearchKnowledgeMutation } = knowledgeApi;
