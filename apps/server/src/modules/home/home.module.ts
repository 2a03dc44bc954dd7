import { HomeSummary } from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { analyticsOf } from '../analytics/analytics.module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { HomeService } from './home.service.js';

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const analytics = analyticsOf(deps);
    const home = new HomeService(
      deps.db,
      (tenantId) => entitlementsOf(deps).monthlyMessages(tenantId),
      (auth) => analytics.home(auth),
    );
    app.get(
      '/home/summary',
      {
        schema: {
          tags: ['Home'],
          summary:
            "Home in one call: the caller's bots, recent conversations (Inbox), this month's usage (Manage Bots), the getting-started checklist, the last 30 days' analytics (Analytics) and new leads (Leads)",
          response: { 200: HomeSummary },
        },
      },
      async (request, reply) => {
        // Per person and changing with every message: never kept by a cache between them.
        reply.header('cache-control', 'no-store');
        return home.summary(requireAuth(request));
      },
    );
  };

/** Home: the landing page's summary, as far as the caller's permissions reach. */
export const homeModule: FeatureModule = { routes };
