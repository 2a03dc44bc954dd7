import { Health } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../core/db/database.js';

export const healthRoutes =
  (database: Database, version: string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['Health'],
          summary: 'Liveness and database reachability',
          response: { 200: Health, 503: Health },
        },
      },
      async (_request, reply) => {
        const started = performance.now();
        const ok = await database.db.execute(sql`SELECT 1`).then(
          () => true,
          () => false,
        );
        const latency_ms = Math.round((performance.now() - started) * 100) / 100;
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          database: { kind: database.kind, ok, latency_ms },
          version,
        });
      },
    );
  };
