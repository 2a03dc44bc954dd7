import {
  BOTS_SUBJECT,
  ClientFrame,
  MESSAGES,
  type Presence,
  type ServerFrame,
  type VisitorPresenceFrame,
  WIDGET_TEXTS_ENGLISH,
} from '@parley/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { WebSocket } from 'ws';
import { AppError } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { BotCache } from '../bots/bot-cache.js';
import { asVisitorLanguage } from '../bots/visitor-language.js';
import type { ChatHub } from './chat.hub.js';
import type { Actor, ChatService } from './chat.service.js';
import { SOCKET_CLOSE, type SocketGuard } from './socket-guard.js';
import type { VisitorTokens } from './visitor.js';
import { originAllowed } from './widget-origins.js';

type SocketQuery = {
  token?: string;
  visitor_token?: string;
  /** The page the widget is on (kept with a conversation the visitor starts). */
  page_url?: string;
  /** The language the widget speaks to the visitor in (PublicBot.language), kept with a conversation they start. */
  language?: string;
  origin?: string;
  address: string;
};

export type SocketDeps = {
  ownOrigin: string;
  bots: BotCache;
  chat: ChatService;
  hub: ChatHub;
  visitors: VisitorTokens;
  guard: SocketGuard;
  authenticate: (token: string) => Promise<AuthContext | null>;
  visitorMessagesPerMinute: number;
  /** Whether an agent of the tenant is online (sent after the opening frame, then on every change). */
  presenceOf: (tenantId: number) => Promise<Presence>;
  log: FastifyBaseLogger;
};

/** The HTTP chat routes' rule (CHAT_ROUTE_RULES): signed-in users need read on Create Bot. */
const mayChat = (auth: AuthContext) => auth.ability.can('read', BOTS_SUBJECT);

type Identified = { actor: Actor } | { error: string; code: number };

/**
 * The user channel /api/chat/stream (console.md section 7 Real-time, docs/realtime.md). A signed-in
 * user connects with ?token=<access token>, a visitor with ?visitor_token=<signed identity>. Every
 * stored message of a conversation the socket takes part in is pushed with its seq; a client that
 * reconnects sends `resume` with the last seq it holds and gets the rest, once.
 *
 * A question is answered to the end even when its socket closes on the way (a phone changing
 * network, a tab closed): the answer is stored, and reaches the visitor after the reconnect's
 * `resume`, and the inbox. `drain` waits for the answers under way, so a server that stops for a
 * deploy stores them before its database closes.
 */
export function chatSocketHandler(deps: SocketDeps) {
  const limiter = new RateLimiterMemory({ points: deps.visitorMessagesPerMinute, duration: 60 });
  const underWay = new Set<Promise<unknown>>();
  const drain = async (timeoutMs: number) => {
    if (underWay.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...underWay]), late]);
    clearTimeout(timer);
    if (underWay.size > 0)
      deps.log.warn({ answers: underWay.size }, 'chat: stopped before these answers were stored');
  };

  const onSocket = (socket: WebSocket, query: SocketQuery) => {
    if (!deps.guard.admit(socket, query.address)) return;
    const send = (frame: ServerFrame | VisitorPresenceFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    const listening = new Map<number, () => void>();
    let stopPresence: (() => void) | undefined;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      for (const stop of listening.values()) stop();
      stopPresence?.();
    });
    // Frames may arrive before the identity is checked: each waits for it, none is dropped.
    const ready = identify(deps, socket, query).then((identified) => {
      if ('error' in identified) {
        send({ error: identified.error });
        socket.close(
          identified.code,
          identified.code === SOCKET_CLOSE.forbidden ? 'forbidden' : 'unauthorized',
        );
        return null;
      }
      const { actor } = identified;
      if (closed || !deps.guard.identify(socket, identityOf(actor))) return null;
      // The widget shows whether a human can take over: told on every change of the tenant's agents.
      stopPresence = deps.hub.listenPresence(actor.tenantId, (presence) =>
        send({ type: 'presence', agents_online: presence.agents_online }),
      );
      return actor;
    });
    socket.on('message', (raw) => {
      const handled = ready
        // A socket being closed (its session ended, its permission removed) acts on nothing more.
        .then((actor) =>
          actor && socket.readyState === socket.OPEN ? handle(actor, raw.toString()) : undefined,
        )
        .catch((error) => {
          if (error instanceof AppError) send({ error: error.detail });
          else {
            deps.log.error({ err: error }, 'chat socket: message failed');
            send({ error: MESSAGES.realtime.sendFailed, code: 'send_failed' });
          }
        });
      underWay.add(handled);
      void handled.finally(() => underWay.delete(handled));
    });
    const follow = (conversationId: number) => {
      if (listening.has(conversationId) || closed) return;
      const stopMessages = deps.hub.listen(conversationId, (message) =>
        send({ conversation_id: conversationId, final_result_object: message }),
      );
      // An agent joined or left: a green notice (console.md section 8 Frames in chat).
      const stopControl = deps.hub.listenControl(conversationId, (change) =>
        send({
          type: 'helpdesk_control',
          conversation_id: conversationId,
          message: change.message,
          content: change.status,
        }),
      );
      listening.set(conversationId, () => {
        stopMessages();
        stopControl();
      });
    };

    async function handle(actor: Actor, raw: string) {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        send({ error: 'Frames must be JSON' });
        return;
      }
      const parsed = ClientFrame.safeParse(json);
      if (!parsed.success) {
        send({ error: 'Invalid frame' });
        return;
      }
      const frame = parsed.data;
      if ('type' in frame && frame.type === 'ping') return send({ type: 'pong' });
      if ('type' in frame && frame.type === 'request_human') {
        // The notice arrives as a stored message of the conversation, followed from here on.
        const notice = await deps.chat.requestHuman(actor, frame.bot_id, frame.conversation_id);
        follow(notice.conversation_id);
        return send({ conversation_id: notice.conversation_id, final_result_object: notice });
      }
      if ('type' in frame && frame.type === 'resume') {
        // Subscribe first, then read: a message stored in between arrives twice at worst, and the
        // client keeps each seq once; never zero times.
        await deps.chat.conversationFor(actor, frame.conversation_id);
        follow(frame.conversation_id);
        for (const message of await deps.chat.history(actor, frame.conversation_id, frame.after_seq)) {
          send({ conversation_id: frame.conversation_id, final_result_object: message });
        }
        return;
      }
      if (!('content' in frame)) return;
      const { content } = frame;
      // The opening frame (bot_id 0, conversation_id 0) only announces the connection.
      if (content.bot_id === 0) {
        send({ type: 'connected', message: 'Connected' });
        const presence = await deps.presenceOf(actor.tenantId);
        return send({ type: 'presence', agents_online: presence.agents_online });
      }
      if (content.message.trim() === '') return send({ error: 'Message is required' });
      if (actor.kind === 'visitor' && !(await allowed(limiter, actor.visitorId))) {
        return send({
          type: 'warning',
          message: WIDGET_TEXTS_ENGLISH.tooFast,
          code: 'too_fast',
        });
      }
      let conversationId = content.conversation_id;
      const result = await deps.chat.send(
        actor,
        {
          botId: content.bot_id,
          conversationId: conversationId || undefined,
          message: content.message.trim(),
          clientId: content.client_id,
        },
        {
          onConversation: (conversation) => {
            conversationId = conversation.id;
            follow(conversation.id);
          },
          onChunk: (data) => send({ conversation_id: conversationId, data }),
        },
      );
      // Sent again after a reconnect: this socket gets the message and what came after it (its
      // answer, once stored, arrives like any other message of the conversation followed).
      if (result.replayed) {
        const from = result.user_message.seq - 1;
        for (const message of await deps.chat.history(actor, result.conversation_id, from))
          send({ conversation_id: result.conversation_id, final_result_object: message });
      }
    }
  };
  return Object.assign(onSocket, { drain });
}

const UNAUTHENTICATED: Identified = {
  error: MESSAGES.auth.notAuthenticated,
  code: SOCKET_CLOSE.unauthorized,
};

/**
 * Who is connecting. A signed-in user needs what the HTTP chat routes need, checked again whenever
 * the workspace's permissions change; a visitor reaches only their own conversations with one bot.
 */
async function identify(deps: SocketDeps, socket: WebSocket, query: SocketQuery): Promise<Identified> {
  if (query.token) {
    const auth = await deps.authenticate(query.token);
    if (!auth) return UNAUTHENTICATED;
    if (!mayChat(auth)) return { error: MESSAGES.auth.forbidden, code: SOCKET_CLOSE.forbidden };
    deps.guard.trackUser(socket, auth, query.token, mayChat);
    return { actor: { kind: 'user', tenantId: auth.tenantId, userId: auth.userId } };
  }
  const actor = await visitorOf(deps, query);
  return actor ? { actor } : UNAUTHENTICATED;
}

async function visitorOf(deps: SocketDeps, query: SocketQuery): Promise<Actor | null> {
  if (query.visitor_token) {
    const claims = deps.visitors.check(query.visitor_token);
    if (!claims) return null;
    const bot = await deps.bots.byUuid(claims.botUuid);
    // Browsers send the page's Origin on the upgrade: a site the bot does not allow gets no socket.
    if (bot && !originAllowed(bot.allowedOrigins, query.origin, deps.ownOrigin)) return null;
    return bot
      ? {
          kind: 'visitor',
          tenantId: bot.tenantId,
          visitorId: claims.visitorId,
          botId: bot.id,
          pageUrl: pageUrlOf(query.page_url),
          language: asVisitorLanguage(query.language) ?? undefined,
        }
      : null;
  }
  return null;
}

/** What the per-identity socket limit counts: one visitor of one bot, or one user. */
function identityOf(actor: Actor): string {
  return actor.kind === 'visitor'
    ? `v:${actor.botId}:${actor.visitorId}`
    : `u:${actor.tenantId}:${actor.userId}`;
}

async function allowed(limiter: RateLimiterMemory, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch {
    return false;
  }
}

/** The widget's page address when it is an http(s) URL of sane length; anything else is dropped. */
function pageUrlOf(raw: string | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
