import { JobProgress } from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { JobQueue } from '../../core/jobs/queue.js';

export const jobsRoutes =
  (jobs: JobQueue): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/jobs/:id',
      {
        schema: {
          tags: ['Jobs'],
          summary: 'Progress of a background job of your workspace',
          params: z.object({ id: z.uuid('must be a job id') }),
          response: { 200: JobProgress },
        },
      },
      async (request) => {
        const job = await jobs.get(request.params.id, requireAuth(request).tenantId);
        if (!job) throw notFound('Job not found');
        return job;
      },
    );
  };
