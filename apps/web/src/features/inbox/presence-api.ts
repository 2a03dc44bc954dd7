import type { Presence } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/**
 * Whether a human agent of the workspace is online (the top bar's 'Helpdesk Online' / 'Offline',
 * console.md sections 2 and 4 Agent indicator). Kept apart from the inbox calls so the layout loads
 * only this.
 */
export const presenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    helpdeskPresence: build.query<Presence, number>({
      query: (tenantId) => `/chat/helpdesk/presence/${tenantId}`,
      // A poll every 5 s: a failure shows as Offline, not as a toast every 5 s.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useHelpdeskPresenceQuery } = presenceApi;
