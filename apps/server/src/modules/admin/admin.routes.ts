import {
  AdminHealth,
  AdminJob,
  AdminJobsPage,
  AdminJobsQuery,
  AdminMail,
  AdminMailPage,
  AdminMailQuery,
  AdminWorkspaceDetail,
  AdminWorkspacePage,
  AdminWorkspacesQuery,
  Demo,
  DemoList,
  DemoParams,
  IdParams,
  JobIdParams,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminService } from './admin.service.js';
import type { DemosService } from './demos.service.js';

const tags = ['Admin console'];
const pageOf = (query: { page: number; page_size: number }) => ({
  page: query.page,
  pageSize: query.page_size,
});

/**
 * The platform admins' console (console.md /admin and /capability). Every route is guarded by the
 * `Admin` subject in ROUTE_RULES, checked before the request is read: anyone else gets 403.
 */
export const adminRoutes =
  (admin: AdminService, demos: DemosService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/admin/workspaces',
      {
        schema: {
          tags,
          summary: 'Every workspace with its plan, usage and last activity, newest first',
          querystring: AdminWorkspacesQuery,
          response: { 200: AdminWorkspacePage },
        },
      },
      async (request) => admin.workspaces(pageOf(request.query), request.query.search || undefined),
    );
    app.get(
      '/admin/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'One workspace: plan and limits, usage, members and bots',
          params: IdParams,
          response: { 200: AdminWorkspaceDetail },
        },
      },
      async (request) => admin.workspace(request.params.id),
    );
    app.get(
      '/admin/jobs',
      {
        schema: {
          tags,
          summary: 'Jobs of the durable queue, newest first, with counts by state',
          querystring: AdminJobsQuery,
          response: { 200: AdminJobsPage },
        },
      },
      async (request) =>
        admin.jobs(pageOf(request.query), {
          status: request.query.status,
          name: request.query.name || undefined,
        }),
    );
    app.post(
      '/admin/jobs/:id/retry',
      {
        schema: {
          tags,
          summary: 'Run a failed job again, with its full number of attempts',
          params: JobIdParams,
          response: { 200: AdminJob },
        },
      },
      async (request) => admin.retryJob(request.params.id),
    );
    app.get(
      '/admin/mail',
      {
        schema: {
          tags,
          summary: 'The mail outbox, newest first, with each delivery status',
          querystring: AdminMailQuery,
          response: { 200: AdminMailPage },
        },
      },
      async (request) => admin.mail(pageOf(request.query), request.query.status),
    );
    app.post(
      '/admin/mail/:id/resend',
      {
        schema: {
          tags,
          summary: 'Send a failed mail again',
          params: IdParams,
          response: { 200: AdminMail },
        },
      },
      async (request) => admin.resendMail(request.params.id),
    );
    app.get(
      '/admin/health',
      {
        schema: {
          tags,
          summary: 'Database, workers, sockets and this process',
          response: { 200: AdminHealth },
        },
      },
      async () => admin.health(),
    );
    app.get(
      '/admin/demos',
      {
        schema: {
          tags,
          summary: 'The Capability Demos and how far their training is',
          response: { 200: DemoList },
        },
      },
      async () => demos.list(),
    );
    app.post(
      '/admin/demos/:kind',
      {
        schema: {
          tags,
          summary: 'Set up one demo bot (does nothing when it is already set up)',
          params: DemoParams,
          response: { 200: Demo },
        },
      },
      async (request) => demos.setUp(request.params.kind),
    );
  };
