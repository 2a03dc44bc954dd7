import type { HomeSummary } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/** Home's one call: everything the landing page shows, narrowed by the server to the caller's permissions. */
export const homeApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Silent: Home shows its own failure in place of the panels.
    homeSummary: build.query<HomeSummary, void>({
      query: () => '/home/summary',
      extraOptions: { silent: true },
    }),
  }),
});

export const { useHomeSummaryQuery } = homeApi;
