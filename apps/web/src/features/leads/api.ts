import type { LeadList } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Leads'] });

export type LeadsPage = { botId: number; skip: number; limit: number };

/** A bot's leads, a page at a time, newest first. Silent: the panel shows its own failure. */
export const leadsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    leads: build.query<LeadList, LeadsPage>({
      query: ({ botId, skip, limit }) => ({ url: `/chat/bots/${botId}/leads`, params: { skip, limit } }),
      extraOptions: { silent: true },
      providesTags: (_result, _error, { botId }) => [{ type: 'Leads', id: botId }],
    }),
  }),
});

export const { useLeadsQuery } = leadsApi;
