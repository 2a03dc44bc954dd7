import {
  GlobalSyncBody,
  GlobalSyncStatus,
  IdParams,
  MessageResponse,
  STORE_TEXTS,
  type StoreKind,
  StoreLinkBotBody,
  type StorePlatform,
  StoreTaskResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../../core/http/request-context.js';
import type { StoreCore } from './store-core.js';

export type SharedRouteOptions = {
  platform: StorePlatform;
  core: StoreCore;
  tags: string[];
  /** Where a store's own routes live: /shopify/stores/:id, /woocommerce/stores/:id. */
  storePath: string;
  /** Where its global sync lives: /integrations/shopify/stores/:id, /woocommerce/stores/:id. */
  syncPath: string;
  /** The spec's plural names checked and turned into kinds (every kind when none are given). */
  kindsOf: (types: string[] | undefined) => StoreKind[];
};

export const taskReply = (message: string, taskId: string) => ({ message, task_id: taskId });

/**
 * The routes both platforms have in the same shape: which bots answer from a store, and the global
 * sync with its status (integrations-and-billing.md sections 4 and 7).
 */
export const sharedStoreRoutes =
  ({ platform, core, tags, storePath, syncPath, kindsOf }: SharedRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    for (const [path, unlink] of [
      ['link-bot', false],
      ['unlink-bot', true],
    ] as const) {
      app.post(
        `${storePath}/${path}`,
        {
          schema: {
            tags,
            summary: unlink ? 'The bot stops answering from the store' : 'The bot answers from the store',
            params: IdParams,
            body: StoreLinkBotBody,
            response: { 200: MessageResponse },
          },
        },
        async (request) => {
          const { tenantId } = requireAuth(request);
          await core.linkBot(tenantId, platform, request.params.id, request.body.bot_id, unlink);
          return { message: unlink ? STORE_TEXTS.botUnlinked : STORE_TEXTS.botLinked };
        },
      );
    }
    app.post(
      `${syncPath}/sync/global`,
      {
        schema: {
          tags,
          summary: "Sync content types one after another (the spec's global sync; a job)",
          params: IdParams,
          body: GlobalSyncBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const { content_types, limit, force_resync } = request.body;
        const taskId = await core.startSync(
          tenantId,
          platform,
          request.params.id,
          kindsOf(content_types),
          limit,
          force_resync,
        );
        return reply.status(202).send(taskReply(STORE_TEXTS.syncStarted, taskId));
      },
    );
    app.get(
      `${syncPath}/sync/status`,
      {
        schema: {
          tags,
          summary: 'The global sync status',
          params: IdParams,
          response: { 200: GlobalSyncStatus },
        },
      },
      async (request) =>
        core.syncStatus(await core.own(requireAuth(request).tenantId, platform, request.params.id)),
    );
  };
