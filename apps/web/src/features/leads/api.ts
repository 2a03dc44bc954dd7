import type { LeadList, MessageResponse } from '@parley/contracts';
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
    /** Erases one lead (a visitor's GDPR request, or spam). Silent: the panel tells how it went. */
    deleteLead: build.mutation<MessageResponse, { botId: number; leadId: number }>({
      query: ({ botId, leadId }) => ({ url: `/chat/bots/${botId}/leads/${leadId}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => [{ type: 'Leads', id: botId }],
    }),
  }),
});

export const { useLeadsQuery, useDeleteLeadMutation } = leadsApi;
