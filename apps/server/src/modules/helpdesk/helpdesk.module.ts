import {
  BotUuidParams,
  BulkControlBody,
  ChatMessage,
  DisconnectBody,
  GroupedChat,
  GroupedQuery,
  HELPDESK_THREAD_PAGE,
  HelpdeskConflict,
  HelpdeskControlBody,
  HelpdeskControlStatus,
  HelpdeskConversation,
  HelpdeskConversationQuery,
  HelpdeskSocketQuery,
  IdParams,
  MessageResponse,
  NewChatBody,
  Presence,
  ReplyBody,
  TenantIdParams,
  TenantQuery,
  UnreadConversations,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { RaterKeys } from '../analytics/rater.js';
import { botCacheOf } from '../bots/bot-cache.js';
import { chatServices } from '../chat/chat.module.js';
import { handoffRoutes } from '../handoff/handoff.routes.js';
import { InboxService } from '../handoff/inbox.service.js';
import { listenForUser } from '../notifications/notifications.service.js';
import { HeldByAnother, HelpdeskService } from './helpdesk.service.js';
import { helpdeskSocketHandler } from './helpdesk.socket.js';
import { HEARTBEAT_MS } from './presence.queries.js';

const tags = ['Help desk'];

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { hub, chat, guard, handoff, visitorActor } = chatServices(deps);
    const helpdesk = new HelpdeskService(deps.db, hub, handoff, {
      awaySeconds: deps.config.HELPDESK_AWAY_SECONDS,
    });
    // The reader's own thumbs on each answer, keyed as the chat keys them.
    const raterKeys = new RaterKeys(deps.config.appSecret);
    const nodeId = deps.events.origin;
    const warn = (message: string) => (error: unknown) => deps.log.warn({ err: error }, message);

    // Every node keeps its agents' presence fresh and sweeps for agents gone too long.
    const heartbeat = setInterval(() => {
      helpdesk.heartbeat(nodeId).catch(warn('help desk: presence heartbeat failed'));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    let sweeping = false;
    const sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      helpdesk
        .sweep()
        .catch(warn('help desk: away sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, deps.config.HELPDESK_SWEEP_MS);
    sweeper.unref();
    await app.register(handoffRoutes(new InboxService(deps.db, handoff), chat, visitorActor));
    app.addHook('onClose', async () => {
      clearInterval(heartbeat);
      clearInterval(sweeper);
      await helpdesk.nodeStopped(nodeId).catch(warn('help desk: presence not cleared at shutdown'));
    });

    app.patch(
      '/chat/conversations/:id/helpdesk-control',
      {
        schema: {
          tags,
          summary: 'Take a conversation over from the bot, or hand it back (409: another agent holds it)',
          params: IdParams,
          body: HelpdeskControlBody,
          response: { 200: HelpdeskControlStatus, 409: HelpdeskConflict },
        },
      },
      async (request, reply) => {
        try {
          return await helpdesk.setControl(requireAuth(request), request.params.id, request.body);
        } catch (error) {
          if (!(error instanceof HeldByAnother)) throw error;
          return reply
            .status(409)
            .send({ detail: error.detail, admin_id: error.adminId, admin_name: error.adminName });
        }
      },
    );
    app.get(
      '/chat/conversations/:id/helpdesk-control-status',
      {
        schema: {
          tags,
          summary: 'Who holds a conversation: the bot or an agent',
          params: IdParams,
          querystring: TenantQuery,
          response: { 200: HelpdeskControlStatus },
        },
      },
      async (request) =>
        helpdesk.controlStatus(requireAuth(request), request.query.tenant_id, request.params.id),
    );
    app.post(
      '/chat/conversations/bulk-helpdesk-control-status',
      {
        schema: {
          tags,
          summary: 'Who holds each of these conversations (ids of other workspaces are left out)',
          body: BulkControlBody,
          response: { 200: z.array(HelpdeskControlStatus) },
        },
      },
      async (request) =>
        helpdesk.bulkStatus(requireAuth(request), request.body.tenant_id, request.body.conversation_ids),
    );
    app.get(
      '/chat/helpdesk/unread-conversations/:tenantId',
      {
        schema: {
          tags,
          summary: 'Unread counts per conversation and per bot, and the total',
          params: TenantIdParams,
          response: { 200: UnreadConversations },
        },
      },
      async (request) => helpdesk.unread(requireAuth(request), request.params.tenantId),
    );
    app.post(
      '/chat/helpdesk/mark-conversation-read/:id',
      {
        schema: {
          tags,
          summary: "Reset a conversation's unread count (announced to the workspace's agents)",
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await helpdesk.markRead(requireAuth(request), request.params.id);
        return { message: 'Conversation marked as read' };
      },
    );
    app.get(
      '/chat/helpdesk/grouped/:tenantId',
      {
        schema: {
          tags,
          summary:
            'Conversations per bot, most recent first (channel, holder bot|human, search over names and messages, limit per bot)',
          params: TenantIdParams,
          querystring: GroupedQuery,
          response: { 200: z.array(GroupedChat) },
        },
      },
      async (request) => helpdesk.grouped(requireAuth(request), request.params.tenantId, request.query),
    );
    app.get(
      '/chat/helpdesk/conversations/:id',
      {
        schema: {
          tags,
          summary:
            'A conversation with its messages: all of them, or with limit the newest (before before_seq) and has_earlier',
          params: IdParams,
          querystring: HelpdeskConversationQuery,
          response: { 200: HelpdeskConversation },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const { before_seq: beforeSeq, limit } = request.query;
        if (beforeSeq === undefined && limit === undefined) {
          // The call as it always was: every message.
          await helpdesk.requireVisible(auth, request.params.id);
          return chat.get(auth, request.params.id);
        }
        const page = { beforeSeq, limit: limit ?? HELPDESK_THREAD_PAGE };
        return helpdesk.thread(
          auth,
          request.params.id,
          page,
          raterKeys.keyOf({ kind: 'user', userId: auth.userId }),
        );
      },
    );
    app.post(
      '/chat/helpdesk/conversations/:id/reply',
      {
        schema: {
          tags,
          summary: "An agent's message (409 unless the caller holds the conversation)",
          params: IdParams,
          body: ReplyBody,
          response: { 201: ChatMessage },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await helpdesk.reply(requireAuth(request), request.params.id, request.body.message)),
    );
    app.delete(
      '/chat/helpdesk/conversations/:id',
      {
        schema: {
          tags,
          summary: 'Delete a conversation and its messages',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        await helpdesk.requireVisible(auth, request.params.id);
        await chat.remove(auth, request.params.id);
        return { message: 'Conversation deleted successfully' };
      },
    );
    app.post(
      '/chat/helpdesk/new-chat',
      {
        schema: {
          tags,
          summary: "A conversation named 'New Chat' with a bot, seeded with its welcome message",
          body: NewChatBody,
          response: { 201: HelpdeskConversation },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await helpdesk.newChat(requireAuth(request), request.body.bot_id)),
    );
    app.post(
      '/chat/websocket/disconnect',
      {
        schema: {
          tags,
          summary: 'The caller closes their real-time connection: with is_admin, offline on every node now',
          body: DisconnectBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await helpdesk.disconnect(requireAuth(request), request.body);
        return { message: 'Disconnected' };
      },
    );
    app.get(
      '/chat/helpdesk/presence/:tenantId',
      {
        schema: {
          tags,
          summary: 'Whether an agent of the workspace is online (Helpdesk Online / Offline)',
          params: TenantIdParams,
          response: { 200: Presence },
        },
      },
      async (request) => helpdesk.ownPresence(requireAuth(request), request.params.tenantId),
    );
    app.get(
      '/auth/bot/uuid/:uuid/presence',
      {
        schema: {
          tags: ['Public bots'],
          summary: "Whether a human agent of the bot's workspace is online (the widget)",
          params: BotUuidParams,
          response: { 200: Presence },
        },
      },
      async (request) => {
        const bot = await botCacheOf(deps).byUuid(request.params.uuid);
        if (!bot) throw notFound('Bot not found');
        return helpdesk.presence(bot.tenantId);
      },
    );

    const onSocket = helpdeskSocketHandler({
      hub,
      helpdesk,
      authenticate: deps.authenticate,
      nodeId,
      guard,
      log: deps.log,
      listenNotifications: (tenantId, userId, listener) =>
        listenForUser(deps.events, tenantId, userId, listener),
    });
    app.get(
      '/chat/helpdesk',
      {
        websocket: true,
        schema: {
          tags,
          summary:
            'WebSocket: the help-desk channel (?token=<access token>&tenant_id=&user_id=); see docs/realtime.md',
          querystring: HelpdeskSocketQuery,
        },
      },
      (socket, request) => {
        onSocket(socket, request.query as z.infer<typeof HelpdeskSocketQuery>, request.ip);
      },
    );
  };

/** The support inbox: control, agent replies, unread state, presence and the help-desk socket. */
export const helpdeskModule: FeatureModule = { routes };
