import type { AdminIntegrationList, IntegrationStatusList } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/** Whether this install is set up for each integration (contracts integrations.ts). */
export const integrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    integrationStatus: build.query<IntegrationStatusList, void>({ query: () => '/integrations/status' }),
    adminIntegrations: build.query<AdminIntegrationList, void>({ query: () => '/admin/integrations' }),
  }),
});

export const { useIntegrationStatusQuery, useAdminIntegrationsQuery } = integrationsApi;
