import {
  Id,
  IdParams,
  MessageResponse,
  NOTION_TEXTS,
  NotionAuthorizeResponse,
  NotionCallbackQuery,
  NotionConnectBody,
  NotionConnectResponse,
  NotionContent,
  NotionStatus,
  NotionTaskResponse,
  NotionWorkspace,
  SyncScheduleBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { NotionService } from './notion.service.js';

const tags = ['Notion'];

export const notionRoutes =
  (notion: NotionService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/notion/status',
      {
        schema: { tags, summary: 'Connected Notion workspaces', response: { 200: NotionStatus } },
      },
      async (request) => notion.status(requireAuth(request)),
    );
    app.get(
      '/notion/content',
      {
        schema: { tags, summary: 'Workspaces with their synced pages', response: { 200: NotionContent } },
      },
      async (request) => notion.content(requireAuth(request)),
    );
    app.get(
      '/notion/authorize',
      {
        schema: {
          tags,
          summary: "Notion's consent page, with a signed single-use state",
          response: { 200: NotionAuthorizeResponse },
        },
      },
      async (request) => ({ url: await notion.authorizeUrl(requireAuth(request)) }),
    );
    app.get(
      '/notion/callback',
      {
        schema: {
          tags,
          summary: 'Where Notion returns the browser; redirects to the Notion screen with the outcome',
          querystring: NotionCallbackQuery,
        },
      },
      async (request, reply) => reply.redirect(await notion.callback(request.query), 302),
    );
    app.post(
      '/notion/connect',
      {
        schema: {
          tags,
          summary: 'Connect with an internal integration token',
          body: NotionConnectBody,
          response: { 201: NotionConnectResponse },
        },
      },
      async (request, reply) => {
        const workspace = await notion.connectToken(requireAuth(request), request.body.token);
        return reply.status(201).send({ message: NOTION_TEXTS.connected, workspace });
      },
    );
    app.post(
      '/notion/sync/:id',
      {
        schema: {
          tags,
          summary:
            "Sync a workspace's pages (a job with progress); a sync or training already queued or running answers instead",
          params: IdParams,
          response: { 202: NotionTaskResponse },
        },
      },
      async (request, reply) =>
        reply.status(202).send({ task_id: await notion.startSync(requireAuth(request), request.params.id) }),
    );
    app.post(
      '/training/train/notion/:botId/:workspaceId',
      {
        schema: {
          tags,
          summary: 'Train a workspace into a bot (a job with progress)',
          params: z.object({ botId: Id, workspaceId: Id }),
          response: { 202: NotionTaskResponse },
        },
      },
      async (request, reply) =>
        reply.status(202).send({
          task_id: await notion.startTraining(
            requireAuth(request),
            request.params.botId,
            request.params.workspaceId,
          ),
        }),
    );
    app.delete(
      '/notion/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'Delete a workspace, its pages and their knowledge',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await notion.deleteWorkspace(requireAuth(request), request.params.id);
        return { message: NOTION_TEXTS.workspaceDeleted };
      },
    );
    app.patch(
      '/notion/workspaces/:id',
      {
        schema: {
          tags,
          summary:
            'Set how often a workspace is re-synced: off, daily or weekly (Mondays), at an hour in UTC',
          params: IdParams,
          body: SyncScheduleBody,
          response: { 200: NotionWorkspace },
        },
      },
      async (request) => notion.setSchedule(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      '/notion/pages/:id',
      {
        schema: {
          tags,
          summary: 'Delete a page and its knowledge',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await notion.deletePage(requireAuth(request), request.params.id);
        return { message: NOTION_TEXTS.pageDeleted };
      },
    );
  };
