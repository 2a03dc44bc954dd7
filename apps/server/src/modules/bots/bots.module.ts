import fastifyMultipart from '@fastify/multipart';
import {
  AssignBotsBody,
  AssignedParams,
  BOT_IMAGE_MAX_BYTES,
  Bot,
  BotImageParams,
  BotsByRoleBody,
  BotUuidParams,
  DeleteBotConflict,
  IdParams,
  MESSAGES,
  MessageResponse,
  PublicBot,
} from '@parley/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMultipart } from '../../core/http/multipart.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { AUTHZ_CHANGED, type AuthzChanged } from '../auth/sessions.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { botCacheOf } from './bot-cache.js';
import { BotInUseError, BotsService } from './bots.service.js';

const tags = ['Bots'];
const publicTags = ['Public bots'];

/** Multipart fields and at most one image part, within the image limit (larger: 413). */
const partsOf = (request: FastifyRequest) => {
  requireMultipart(request, 'The bot must be sent as multipart/form-data');
  return request.parts({
    limits: { fileSize: BOT_IMAGE_MAX_BYTES, files: 1, fields: 30, fieldSize: 64 * 1024, parts: 31 },
  });
};

const FIELDS =
  'multipart: bot_name, description, temperature, prompt, llm_model, internet, max_citations (1-5), human_button (always, after_miss, never), visitor_language (auto, english, spanish, french, german, italian, portuguese, dutch, danish, swedish, norwegian, finnish, russian, hungarian, turkish), handoff_confidence (0-1), analytics, is_public, brand_color, welcome_message, suggestion_questions (JSON), lead_form_config (JSON), file_group_ids, web_source_ids, notion_workspace_ids, role_ids (JSON lists), profile_image (PNG, JPEG, WebP or GIF, at most 2 MB)';

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new BotsService(
      deps.db,
      deps.config.DATA_DIR,
      botCacheOf(deps),
      entitlementsOf(deps),
      (tenantId) => deps.events.publish<AuthzChanged>(AUTHZ_CHANGED, { tenantId }),
    );
    await app.register(fastifyMultipart);

    app.post(
      '/chat/bots',
      { schema: { tags, summary: `Create a bot (${FIELDS})`, response: { 201: Bot } } },
      async (request, reply) =>
        reply.status(201).send(await service.create(requireAuth(request), partsOf(request))),
    );
    app.put(
      '/chat/bots/:id',
      {
        schema: {
          tags,
          summary: 'Update a bot: only the fields sent change; a list sent replaces the whole list',
          params: IdParams,
          response: { 200: Bot },
        },
      },
      async (request) => service.update(requireAuth(request), request.params.id, partsOf(request)),
    );
    app.get(
      '/chat/bots/:id',
      {
        schema: {
          tags,
          summary: 'A bot with its sources and roles',
          params: IdParams,
          response: { 200: Bot },
        },
      },
      async (request) => service.get(requireAuth(request), request.params.id),
    );
    app.get(
      '/chat/bots/user/:id',
      {
        schema: {
          tags,
          summary: "The bots a user works with (an owner's: all of the workspace)",
          params: IdParams,
          response: { 200: z.array(Bot) },
        },
      },
      async (request) => service.ofUser(requireAuth(request), request.params.id),
    );
    app.post(
      '/chat/bots/role',
      {
        schema: {
          tags,
          summary: 'The bots carrying a role',
          body: BotsByRoleBody,
          response: { 200: z.array(Bot) },
        },
      },
      async (request) => service.ofRole(requireAuth(request), request.body.role_id),
    );
    app.delete(
      '/chat/bots/:id',
      {
        schema: {
          tags,
          summary: 'Delete a bot (refused while it has conversations or assigned users)',
          params: IdParams,
          response: { 200: MessageResponse, 409: DeleteBotConflict },
        },
      },
      async (request, reply) => {
        try {
          await service.remove(requireAuth(request), request.params.id);
          return reply.send({ message: MESSAGES.bots.deleted });
        } catch (error) {
          if (!(error instanceof BotInUseError)) throw error;
          return reply.status(409).send({ detail: error.message, ...error.usage });
        }
      },
    );
    app.get(
      '/chat/bots/images/:name',
      {
        schema: {
          tags: publicTags,
          summary: "A bot's profile image (no login: the widget shows it)",
          params: BotImageParams,
        },
      },
      async (request, reply) => {
        const image = await service.image(request.params.name);
        return reply
          .type(image.mime)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('content-security-policy', "default-src 'none'")
          .send(image.bytes);
      },
    );
    app.get(
      '/auth/bots-assigned/:userId/tenant/:tenantId',
      {
        schema: {
          tags,
          summary: "A user's assigned bots (your own, or anyone's with read on Roles)",
          params: AssignedParams,
          response: { 200: z.array(Bot) },
        },
      },
      async (request) =>
        service.assigned(requireAuth(request), request.params.userId, request.params.tenantId),
    );
    app.put(
      '/auth/bots-assigned/:userId',
      {
        schema: {
          tags,
          summary: 'Set the bots assigned to a user (replaces the list)',
          params: z.object({ userId: IdParams.shape.id }),
          body: AssignBotsBody,
          response: { 200: z.array(Bot) },
        },
      },
      async (request) =>
        service.assign(
          requireAuth(request),
          request.params.userId,
          request.body.bot_ids,
          request.body.all_bots,
        ),
    );
    app.get(
      '/auth/public-bots',
      {
        schema: {
          tags: publicTags,
          summary: 'Bots their owners list publicly',
          response: { 200: z.array(PublicBot) },
        },
      },
      async (request, reply) => {
        reply.header('vary', 'Accept-Language');
        return service.publicBots(request.headers['accept-language']);
      },
    );
    app.get(
      '/auth/bot/:id',
      {
        schema: {
          tags: publicTags,
          summary: 'A publicly listed bot, for visitors',
          params: IdParams,
          response: { 200: PublicBot },
        },
      },
      async (request, reply) => {
        reply.header('vary', 'Accept-Language');
        return service.publicBot({ id: request.params.id }, request.headers['accept-language']);
      },
    );
    app.get(
      '/auth/bot/uuid/:uuid',
      {
        schema: {
          tags: publicTags,
          summary: 'A bot by its uuid, for its website widget',
          params: BotUuidParams,
          response: { 200: PublicBot },
        },
      },
      async (request, reply) => {
        reply.header('vary', 'Accept-Language');
        return service.publicBot({ uuid: request.params.uuid }, request.headers['accept-language']);
      },
    );
  };

/** Bots: their settings, sources, roles, assignment and public view. */
export const botsModule: FeatureModule = { routes };
