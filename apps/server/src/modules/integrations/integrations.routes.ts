import { AdminIntegrationList, IntegrationStatusList } from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { IntegrationsService } from './integrations.service.js';

const tags = ['Integrations'];

/** Whether this install is set up for each integration: for the Integrations page and for admins. */
export const integrationsRoutes =
  (integrations: IntegrationsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/integrations/status',
      {
        schema: {
          tags,
          summary: "Each integration: set up on this install, included in the caller's plan, its guide",
          response: { 200: IntegrationStatusList },
        },
      },
      async (request) => ({ integrations: await integrations.statusFor(requireAuth(request).tenantId) }),
    );
    app.get(
      '/admin/integrations',
      {
        schema: {
          tags,
          summary:
            'Each integration: its configuration (set or not, never values) and the addresses to register',
          response: { 200: AdminIntegrationList },
        },
      },
      async () => integrations.forAdmins(),
    );
  };
