import { HelpdeskClientFrame, type HelpdeskFrame, MESSAGES } from '@parley/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ChatHub } from '../chat/chat.hub.js';
import { SOCKET_CLOSE, type SocketGuard } from '../chat/socket-guard.js';
import { isRestricted } from '../handoff/inbox-scope.js';
import type { HelpdeskService } from './helpdesk.service.js';

export type HelpdeskSocketQuery = { token?: string; tenant_id?: string; user_id?: string };

export type HelpdeskSocketDeps = {
  hub: ChatHub;
  helpdesk: HelpdeskService;
  authenticate: (token: string) => Promise<AuthContext | null>;
  /** This process, in the presence table. */
  nodeId: string;
  /** Heartbeat, opening-frame limit, socket limits, and closing when the session or permission goes. */
  guard: SocketGuard;
  log: FastifyBaseLogger;
  /** Calls the listener whenever a notification is stored for this user (any process). */
  listenNotifications?: (tenantId: number, userId: number, listener: () => void) => () => void;
};

export const CLOSE_UNAUTHORIZED = SOCKET_CLOSE.unauthorized;
export const CLOSE_FORBIDDEN = SOCKET_CLOSE.forbidden;
export const IDS_REQUIRED = 'tenant_id and user_id are required';

type Refusal = { error: string; code: number };

/**
 * The admin (help-desk) channel /api/chat/helpdesk (console.md sections 5, 7, 9; docs/realtime.md):
 * an agent of the tenant with read on Inbox gets every new message of the tenant's conversations,
 * control changes, presence, unread counts and new or deleted conversations; replies while holding
 * a conversation; resumes a conversation after a reconnect. An open socket makes its agent online.
 */
export function helpdeskSocketHandler(deps: HelpdeskSocketDeps) {
  return (socket: WebSocket, query: HelpdeskSocketQuery, address: string) => {
    if (!deps.guard.admit(socket, address)) return;
    const send = (frame: HelpdeskFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    let closed = false;
    let stopInbox: (() => void) | undefined;
    let stopNotifications: (() => void) | undefined;
    let inbox: ScopedInbox | undefined;

    const ready = identify(deps, query).then(async (result) => {
      if ('error' in result) {
        send({ error: result.error });
        socket.close(result.code, result.code === CLOSE_FORBIDDEN ? 'forbidden' : 'unauthorized');
        return null;
      }
      if (closed || !deps.guard.identify(socket, `u:${result.tenantId}:${result.userId}`)) return null;
      const scoped = scopedInbox(deps, result, send);
      inbox = scoped;
      // Re-resolved when the workspace's permissions change (bots assigned or taken away too).
      const session = sessionWatch(result, send);
      deps.guard.trackUser(socket, result, query.token!, (fresh) => {
        scoped.reader(fresh);
        if (!mayReadInbox(fresh)) return false;
        session.seen(fresh);
        return true;
      });
      // Listen before announcing presence, so this agent sees its own presence frame too.
      stopInbox = deps.hub.listenInbox(result.tenantId, scoped.send);
      // Section 7: the admin event makes the browser fetch the bell's count.
      stopNotifications = deps.listenNotifications?.(result.tenantId, result.userId, () =>
        send({ type: 'notification', user_id: result.userId, tenant_id: result.tenantId }),
      );
      await deps.helpdesk.socketOpened(keyOf(deps, result));
      return result;
    });

    socket.on('close', () => {
      closed = true;
      stopInbox?.();
      stopNotifications?.();
      void ready
        .then((auth) => (auth ? deps.helpdesk.socketClosed(keyOf(deps, auth)) : undefined))
        .catch((error) => deps.log.warn({ err: error }, 'help-desk socket: presence not recorded on close'));
    });

    socket.on('message', (raw) => {
      void ready
        .then((auth) =>
          // The agent as of their latest permissions (a bot taken away since the socket opened).
          auth && socket.readyState === socket.OPEN
            ? handle(inbox?.current() ?? auth, raw.toString())
            : undefined,
        )
        .catch((error) => {
          if (error instanceof AppError) send({ error: error.detail });
          else {
            deps.log.error({ err: error }, 'help-desk socket: frame failed');
            send({ error: 'Failed to send message. Please try again.' });
          }
        });
    });

    async function handle(auth: AuthContext, raw: string) {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return send({ error: 'Frames must be JSON' });
      }
      const parsed = HelpdeskClientFrame.safeParse(json);
      if (!parsed.success) return send({ error: 'Invalid frame' });
      const frame = parsed.data;
      if ('type' in frame && frame.type === 'ping') return send({ type: 'pong' });
      if ('type' in frame && frame.type === 'resume') {
        // The inbox listener has been on since the socket opened: a message stored while this
        // reads may arrive twice (the client keeps each seq once), never zero times.
        for (const message of await deps.helpdesk.history(auth, frame.conversation_id, frame.after_seq)) {
          send({
            type: 'message',
            conversation_id: message.conversation_id,
            bot_id: message.bot_id,
            final_result_object: message,
          });
        }
        return;
      }
      if (!('content' in frame)) return;
      const { content } = frame;
      if (content.conversation_id === 0) {
        send({ type: 'connected', message: 'Connected' });
        return send({ type: 'presence', ...(await deps.helpdesk.presence(auth.tenantId)) });
      }
      if (content.message_type !== 'helpdesk') return send({ error: 'Invalid frame' });
      if (!auth.ability.can('write', 'Inbox')) return send({ error: MESSAGES.auth.forbidden });
      if (content.message.trim() === '') return send({ error: 'Message is required' });
      // Stored and announced: it comes back on this socket like every other message.
      await deps.helpdesk.reply(auth, content.conversation_id, content.message);
    }
  };
}

/** The bot a frame is about, or null for the tenant's (presence) and the agent's own frames. */
function botOf(frame: HelpdeskFrame): number | null {
  if (!('type' in frame)) return null;
  if (frame.type === 'helpdesk_control') return frame.bot_id;
  if (frame.type === 'message' || frame.type === 'unread' || frame.type === 'conversation')
    return frame.bot_id;
  return null;
}

/**
 * The tenant's inbox frames as one agent may see them: all of them for an agent who works with every
 * bot; for one restricted to some bots, only their bots' (a bot met first is looked up once; what is
 * known is forgotten when their permissions change). Frames keep their order.
 */
function scopedInbox(deps: HelpdeskSocketDeps, auth: AuthContext, send: (frame: HelpdeskFrame) => void) {
  let current = auth;
  let known = new Map<number, Promise<boolean>>();
  let queue = Promise.resolve();
  const visible = (botId: number) => {
    let answer = known.get(botId);
    if (!answer) {
      answer = deps.helpdesk.worksWithBot(current, botId);
      known.set(botId, answer);
    }
    return answer;
  };
  return {
    current: () => current,
    reader(fresh: AuthContext) {
      current = fresh;
      known = new Map();
    },
    send(frame: HelpdeskFrame) {
      const botId = botOf(frame);
      queue = queue
        .then(async () => {
          if (botId === null || !isRestricted(current) || (await visible(botId))) send(frame);
        })
        .catch((error) => deps.log.warn({ err: error }, 'help-desk socket: frame not delivered'));
    },
  };
}

type ScopedInbox = ReturnType<typeof scopedInbox>;

/**
 * Tells the agent's console when their own user changed (a role given more or fewer grants, another
 * role): it reads GET /auth/user again, so a menu entry gained shows at once, without a reload.
 */
function sessionWatch(auth: AuthContext, send: (frame: HelpdeskFrame) => void) {
  let version = auth.version;
  return {
    seen(fresh: AuthContext) {
      if (!fresh.version || fresh.version === version) return;
      version = fresh.version;
      send({ type: 'session', version });
    },
  };
}

/** The channel's rule, checked at open and again whenever the workspace's permissions change. */
const mayReadInbox = (auth: AuthContext) => auth.ability.can('read', 'Inbox');

const keyOf = (deps: HelpdeskSocketDeps, auth: AuthContext) => ({
  tenantId: auth.tenantId,
  userId: auth.userId,
  nodeId: deps.nodeId,
});

/** Section 5: without both ids nothing is served; the token must be of that very user and tenant. */
async function identify(
  deps: HelpdeskSocketDeps,
  query: HelpdeskSocketQuery,
): Promise<AuthContext | Refusal> {
  const tenantId = Number(query.tenant_id);
  const userId = Number(query.user_id);
  if (!query.tenant_id || !query.user_id || !Number.isInteger(tenantId) || !Number.isInteger(userId)) {
    return { error: IDS_REQUIRED, code: CLOSE_UNAUTHORIZED };
  }
  const auth = query.token ? await deps.authenticate(query.token) : null;
  if (!auth) return { error: MESSAGES.auth.notAuthenticated, code: CLOSE_UNAUTHORIZED };
  if (auth.tenantId !== tenantId || auth.userId !== userId) {
    return { error: MESSAGES.auth.forbidden, code: CLOSE_FORBIDDEN };
  }
  if (!mayReadInbox(auth)) return { error: MESSAGES.auth.forbidden, code: CLOSE_FORBIDDEN };
  return auth;
}
