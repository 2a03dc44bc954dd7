import fastifyMultipart from '@fastify/multipart';
import {
  AfterSeqQuery,
  Attachment,
  CHAT_ATTACHMENT_NAME,
  ChatExchange,
  ChatMessage,
  ChatRequest,
  Conversation,
  ConversationListQuery,
  ConversationWithMessages,
  IdParams,
  MessageLimit,
  MessageResponse,
  type StreamEvent,
  TenantIdParams,
  UserBotParams,
  VisitorIdentity,
  VisitorRequest,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../core/errors.js';
import { requireMultipart } from '../../core/http/multipart.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { RaterKeys } from '../analytics/rater.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { usageNotices } from '../billing/usage-notices.js';
import { botCacheOf } from '../bots/bot-cache.js';
import { HandoffService } from '../handoff/handoff.service.js';
import { presenceOf } from '../helpdesk/presence.queries.js';
import { retrievalOf } from '../knowledge/retrieval.service.js';
import { LlmService } from '../llm/llm.service.js';
import { QnaService } from '../qna/qna.service.js';
import { orderReply } from '../stores/core/order-reply.js';
import { storeServices } from '../stores/stores.services.js';
import { type UnansweredInput, UnansweredService } from '../unanswered/unanswered.service.js';
import { AnswerService } from './answer.service.js';
import { readAttachment, receiveAttachment } from './attachments.js';
import { ChatHub } from './chat.hub.js';
import { claimLeftOverQuestions } from './chat.queries.js';
import { type Actor, ChatService } from './chat.service.js';
import { chatSocketHandler } from './chat.socket.js';
import { SocketGuard } from './socket-guard.js';
import { VisitorTokens } from './visitor.js';
import { requireOrigin } from './widget-origins.js';

const tags = ['Chat'];

/**
 * How long a stopping server waits for the answers under way: most take seconds, and a platform
 * ends a stopping process after its grace period (often 30 s).
 */
const ANSWER_DRAIN_MS = 20_000;
/** How long after it starts a process looks for questions a crashed one left (longer if the model timeout is). */
const LEFT_OVER_GRACE_MS = 120_000;
/** How far back, before it started, it looks: older questions' visitors are gone. */
const LEFT_OVER_WINDOW_MS = 30 * 60_000;
const LEFT_OVER_BATCH = 20;

export type ChatServices = {
  hub: ChatHub;
  chat: ChatService;
  handoff: HandoffService;
  visitors: VisitorTokens;
  /** A widget visitor as the chat's actor, from their token and the page's Origin (null: not a valid token). */
  visitorActor: (token: string, origin: string | undefined) => Promise<Actor | null>;
  guard: SocketGuard;
};
const made = new WeakMap<ModuleDeps, ChatServices>();

/**
 * Each process's chat services, shared by the chat and help-desk modules (one hub per process: it
 * holds the open sockets' listeners).
 */
export function chatServices(deps: ModuleDeps): ChatServices {
  let services = made.get(deps);
  if (!services) {
    services = makeServices(deps);
    made.set(deps, services);
  }
  return services;
}

function makeServices(deps: ModuleDeps): ChatServices {
  const hub = new ChatHub(deps.db, deps.events, (tenantId) => presenceOf(deps.db, tenantId));
  const retrieval = retrievalOf(deps);
  const answers = new AnswerService(retrieval, new LlmService(deps.db, deps.config.appSecret), {
    timeoutMs: deps.config.LLM_TIMEOUT_MS,
    log: (error, message) => deps.log.warn({ err: error }, message),
    orderReply: (input) => orderReply(storeServices(deps).orders, input),
  });
  const agentOnline = async (tenantId: number) => (await presenceOf(deps.db, tenantId)).agents_online;
  const onUnanswered = (input: UnansweredInput) =>
    new UnansweredService(deps.db, new QnaService(deps.db, deps.jobs, null, entitlementsOf(deps)))
      .record(input)
      .catch((error) => deps.log.error({ err: error }, 'chat: could not record an unanswered question'));
  const handoff: HandoffService = new HandoffService(deps.db, hub, {
    agentsOnline: async (tx, tenantId) => (await presenceOf(tx, tenantId)).agents_online,
    waitSeconds: deps.config.HANDOFF_WAIT_SECONDS,
    idleSeconds: deps.config.CONVERSATION_IDLE_SECONDS,
    clock: deps.clock,
    onUnanswered,
    // The chat below answers what was left unanswered when a person hands back (it needs the hand-off too).
    onBotBack: (conversation): Promise<void> => chat.answerLeftOver(conversation),
    mail: { service: deps.mail, publicUrl: deps.config.publicUrl },
    log: (error, message) => deps.log.warn({ err: error }, message),
  });
  const chat: ChatService = new ChatService(deps.db, hub, botCacheOf(deps), answers, handoff, {
    monthlyLimit: (tenantId) => entitlementsOf(deps).monthlyMessages(tenantId),
    onUsage: (tenantId, used, limit) => {
      usageNotices(deps)
        .noticeMessages(tenantId, used, limit)
        .catch((error) => deps.log.error({ err: error }, 'billing: a usage notice could not be sent'));
    },
    historyTurns: deps.config.CHAT_HISTORY_TURNS,
    agentOnline,
    onUnanswered,
    raterKeys: new RaterKeys(deps.config.appSecret),
  });
  const guard = new SocketGuard(
    deps.events,
    deps.authenticate,
    {
      pingMs: deps.config.SOCKET_PING_MS,
      openingFrameMs: deps.config.SOCKET_OPENING_FRAME_MS,
      perAddress: deps.config.SOCKET_LIMIT_PER_ADDRESS,
      perIdentity: deps.config.SOCKET_LIMIT_PER_IDENTITY,
    },
    deps.log,
  );
  const visitors = new VisitorTokens(deps.config.appSecret);
  const ownOrigin = new URL(deps.config.publicUrl).origin;
  const visitorActor = async (token: string, origin: string | undefined): Promise<Actor | null> => {
    const claims = visitors.check(token);
    const bot = claims ? await botCacheOf(deps).byUuid(claims.botUuid) : null;
    if (!claims || !bot) return null;
    requireOrigin(bot.allowedOrigins, origin, ownOrigin);
    return { kind: 'visitor', tenantId: bot.tenantId, visitorId: claims.visitorId, botId: bot.id };
  };
  return { hub, chat, handoff, visitors, visitorActor, guard };
}

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { hub, chat, visitors, guard } = chatServices(deps);
    const ownOrigin = new URL(deps.config.publicUrl).origin;
    app.addHook('onClose', async () => hub.close());
    await app.register(fastifyMultipart);
    const actorOf = (request: Parameters<typeof requireAuth>[0]) => {
      const auth = requireAuth(request);
      return { kind: 'user' as const, tenantId: auth.tenantId, userId: auth.userId };
    };

    app.post(
      '/chat/chats',
      {
        schema: {
          tags,
          summary: "Send a message and get the bot's answer (a new conversation without conversation_id)",
          body: ChatRequest,
          response: { 200: ChatExchange },
        },
      },
      async (request) =>
        chat.send(actorOf(request), {
          botId: request.body.bot_id,
          conversationId: request.body.conversation_id,
          message: request.body.message,
          attachments: request.body.attachments,
        }),
    );

    app.post(
      '/chat/chats/stream',
      {
        schema: {
          tags,
          summary:
            'Send a message and stream the answer (text/event-stream: start, chunk..., final with the sources, or error)',
          body: ChatRequest,
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const controller = new AbortController();
        // Headers go out only once the first event is ready, so a refused request still gets a
        // plain JSON error from the error handler.
        let open = false;
        const write = (event: StreamEvent) => {
          if (!open) {
            reply.hijack();
            reply.raw.writeHead(200, {
              'content-type': 'text/event-stream; charset=utf-8',
              'cache-control': 'no-cache, no-transform',
              'x-accel-buffering': 'no',
              'x-request-id': request.id,
              'x-content-type-options': 'nosniff',
            });
            open = true;
          }
          reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
        };
        // The client went away mid-answer: stop the model (the response closes before it finished).
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) controller.abort();
        });
        try {
          const exchange = await chat.send(
            actor,
            {
              botId: request.body.bot_id,
              conversationId: request.body.conversation_id,
              message: request.body.message,
              attachments: request.body.attachments,
            },
            {
              onConversation: (conversation, userMessage) =>
                write({ type: 'start', conversation_id: conversation.id, user_message: userMessage }),
              onChunk: (data) => write({ type: 'chunk', data }),
              signal: controller.signal,
            },
          );
          write({ type: 'final', final_result_object: exchange.bot_message });
        } catch (error) {
          if (!open) throw error;
          request.log.error({ err: error }, 'chat stream failed');
          write({
            type: 'error',
            error: error instanceof AppError ? error.detail : 'Failed to send message. Please try again.',
          });
        }
        reply.raw.end();
        return reply;
      },
    );

    app.get(
      '/chat/chats',
      {
        schema: {
          tags,
          summary: "The workspace's conversations, most recent first (bot_id, skip, limit)",
          querystring: ConversationListQuery,
          response: { 200: z.array(Conversation) },
        },
      },
      async (request) => chat.list(requireAuth(request), { ...request.query, botId: request.query.bot_id }),
    );
    app.get(
      '/chat/chats/:id',
      {
        schema: {
          tags,
          summary: 'A conversation with its messages',
          params: IdParams,
          response: { 200: ConversationWithMessages },
        },
      },
      async (request) => chat.get(requireAuth(request), request.params.id),
    );
    app.get(
      '/chat/chats/user/:userId/bot/:botId',
      {
        schema: {
          tags,
          summary: "A user's conversations with a bot",
          params: UserBotParams,
          querystring: ConversationListQuery.omit({ bot_id: true }),
          response: { 200: z.array(Conversation) },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        return chat.list(auth, {
          ...request.query,
          userId: request.params.userId,
          botId: request.params.botId,
        });
      },
    );
    app.get(
      '/chat/chats/user/:id',
      {
        schema: {
          tags,
          summary: "A user's conversations",
          params: IdParams,
          querystring: ConversationListQuery.omit({ bot_id: true }),
          response: { 200: z.array(Conversation) },
        },
      },
      async (request) => chat.list(requireAuth(request), { ...request.query, userId: request.params.id }),
    );
    app.get(
      '/chat/chats/conversation/:id',
      {
        schema: {
          tags,
          summary: 'Messages of a conversation after a sequence number (after_seq, default 0: all)',
          params: IdParams,
          querystring: AfterSeqQuery,
          response: { 200: z.array(ChatMessage) },
        },
      },
      async (request) => chat.history(actorOf(request), request.params.id, request.query.after_seq),
    );
    app.delete(
      '/chat/chats/conversation/:id',
      {
        schema: {
          tags,
          summary: 'Delete a conversation and its messages',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await chat.remove(requireAuth(request), request.params.id);
        return { message: 'Conversation deleted successfully' };
      },
    );
    app.post(
      '/chat/upload-file',
      {
        schema: {
          tags,
          summary:
            'Upload an attachment for a message (multipart: file; PNG, JPEG, WebP, GIF or PDF, at most 10 MB)',
          response: { 201: Attachment },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        requireMultipart(request, 'The file must be sent as multipart/form-data');
        return reply.status(201).send(await receiveAttachment(deps.config.DATA_DIR, auth.tenantId, request));
      },
    );
    app.get(
      '/chat/attachments/:name',
      {
        schema: {
          tags,
          summary: 'An attachment (its unguessable name is the capability)',
          params: z.object({
            name: z.string().regex(CHAT_ATTACHMENT_NAME, 'is not an attachment name'),
          }),
        },
      },
      async (request, reply) => {
        const file = await readAttachment(deps.config.DATA_DIR, request.params.name);
        return reply
          .type(file.mime)
          .header('content-disposition', file.mime === 'application/pdf' ? 'attachment' : 'inline')
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('content-security-policy', "default-src 'none'")
          .send(file.bytes);
      },
    );
    app.get(
      '/chat/message-limit/:tenantId',
      {
        schema: {
          tags,
          summary: "Bot messages used this month against the plan's credits",
          params: TenantIdParams,
          response: { 200: MessageLimit },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        if (request.params.tenantId !== auth.tenantId) throw notFound('Tenant not found');
        return chat.messageLimit(auth.tenantId);
      },
    );
    app.post(
      '/chat/visitor',
      {
        schema: {
          tags: ['Public bots'],
          summary:
            "A signed anonymous identity for a bot's widget (renewed when visitor_token is still valid)",
          body: VisitorRequest,
          response: { 200: VisitorIdentity },
        },
      },
      async (request) => {
        const bot = await botCacheOf(deps).byUuid(request.body.bot_uuid);
        if (!bot) throw notFound('Bot not found');
        requireOrigin(bot.allowedOrigins, request.headers.origin, ownOrigin);
        return visitors.issue(bot.uuid, request.body.visitor_token);
      },
    );

    const onSocket = chatSocketHandler({
      ownOrigin,
      bots: botCacheOf(deps),
      chat,
      hub,
      visitors,
      guard,
      authenticate: deps.authenticate,
      visitorMessagesPerMinute: deps.config.VISITOR_MESSAGES_PER_MINUTE,
      presenceOf: (tenantId) => presenceOf(deps.db, tenantId),
      log: deps.log,
    });
    // A server stopping (a deploy) stores the answers under way before its database closes.
    app.addHook('onClose', () => onSocket.drain(ANSWER_DRAIN_MS));
    app.get(
      '/chat/stream',
      {
        websocket: true,
        schema: {
          tags,
          summary:
            'WebSocket: the chat channel (?token=<access token> or ?visitor_token=...&page_url=...&language=...); see docs/realtime.md',
          querystring: z.object({
            token: z.string().max(4000).optional(),
            visitor_token: z.string().max(4000).optional(),
            page_url: z.string().max(2000).optional(),
            language: z.string().max(20).optional(),
          }),
        },
      },
      (socket, request) => {
        void onSocket(socket, {
          ...(request.query as {
            token?: string;
            visitor_token?: string;
            page_url?: string;
            language?: string;
          }),
          origin: request.headers.origin,
          address: request.ip,
        });
      },
    );
  };

/**
 * A crash leaves no time to drain the answers under way. Once every answer a stopped process could
 * still have been giving is over, this one answers, once, the web visitors' questions of the half
 * hour before it started that are still the last word of their conversation (whichever process
 * claims them; the visitor's widget gets the answer with its next `resume`).
 */
function jobs(deps: ModuleDeps): void {
  const started = deps.clock.now().getTime();
  const due = started + Math.max(LEFT_OVER_GRACE_MS, deps.config.LLM_TIMEOUT_MS + 30_000);
  let done = false;
  deps.scheduler.register('chat.left-over-answers', async (now) => {
    if (done || now.getTime() < due) return;
    const { chat } = chatServices(deps);
    const window = { from: new Date(started - LEFT_OVER_WINDOW_MS), until: new Date(started) };
    for (;;) {
      const batch = await claimLeftOverQuestions(deps.db, window, LEFT_OVER_BATCH);
      for (const conversation of batch)
        await chat
          .answerLeftOver(conversation)
          .catch((error) =>
            deps.log.error(
              { err: error, conversation: conversation.id },
              'chat: a left-over question was not answered',
            ),
          );
      if (batch.length < LEFT_OVER_BATCH) break;
    }
    // Only once it went through: a database that failed this tick is tried again at the next.
    done = true;
  });
}

/** Chat: conversations, answers streamed over HTTP and WebSocket, visitors' identities. */
export const chatModule: FeatureModule = { routes, jobs };
