import type { ChatMessage, HelpdeskControlStatus } from '@parley/contracts';
import { SOCKET } from '@parley/contracts/constants';
import {
  bindReconnectTriggers,
  ChatSocket,
  type ChatSocketEvent,
  type ChatSocketStatus,
  chatSocketUrl,
  type SocketFactory,
} from './chat-socket.js';

export const HELPDESK_SOCKET_PATH = '/api/chat/helpdesk';

/** What the admin (help-desk) channel reports, besides what every chat socket reports. */
export type HelpdeskSocketEvent =
  | Exclude<ChatSocketEvent, { type: 'message' }>
  /** A stored message of any of the workspace's conversations, once per conversation and seq. */
  | { type: 'message'; message: ChatMessage; botId: number }
  /** Who holds a conversation now (a take-over, a hand-back, an agent gone too long). */
  | { type: 'control'; conversationId: number; status: HelpdeskControlStatus; message: string | null }
  | { type: 'unread'; conversationId: number; botId: number; unreadCount: number }
  /** A conversation started, or was deleted. */
  | { type: 'conversation'; conversationId: number; botId: number; deleted: boolean }
  /** The channel opened again after a drop: lists may have missed changes and should be reloaded. */
  | { type: 'reconnected' }
  /** A notification was stored for this user: the bell's count should be fetched again. */
  | { type: 'notification' }
  /** This user changed (roles, grants): the signed-in user should be read again. */
  | { type: 'session'; version: string };

export type HelpdeskSocketOptions = {
  location: Pick<Location, 'protocol' | 'host'>;
  /** The current access token, read before every attempt (it may have been renewed). */
  token: () => string | null;
  tenantId: number | null | undefined;
  userId: number | null | undefined;
  createSocket: SocketFactory;
  onEvent: (event: HelpdeskSocketEvent) => void;
  /** 0..1, for the back-off jitter. */
  random?: () => number;
};

/** The address of the admin channel: the token, tenant id and user id travel in the query. */
export function helpdeskSocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  query: { token: string; tenantId: number; userId: number },
): string {
  return chatSocketUrl(
    location,
    { token: query.token, tenant_id: String(query.tenantId), user_id: String(query.userId) },
    HELPDESK_SOCKET_PATH,
  );
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The admin (help-desk) channel of console.md sections 5, 7 and 9, kept apart from the chat channel
 * (its own status and counters). It opens only when both the tenant id and the user id are known
 * (otherwise nothing happens); an attempt that has not opened within 10 s is given up ('WebSocket
 * connection timed out'); the first frame says `connection` with message_type helpdesk; pings every
 * 30 s; reconnects with back-off (1 s doubling plus up to 1 s random, capped at 30 s, 10 attempts;
 * counters reset when the network returns); after a reconnect it asks for the missed messages of
 * the conversations it follows (`watch`), and drops any message it already holds by seq.
 *
 * The connection machinery is ChatSocket's; this class reads the help desk's own frames.
 */
export class HelpdeskSocket {
  private readonly options: HelpdeskSocketOptions;
  private readonly socket: ChatSocket;
  private everOpened = false;

  constructor(options: HelpdeskSocketOptions) {
    this.options = options;
    const { tenantId, userId } = options;
    this.socket = new ChatSocket({
      url: () => {
        const token = options.token();
        if (!token || !isNumber(tenantId) || !isNumber(userId)) throw new Error('not signed in');
        return helpdeskSocketUrl(options.location, { token, tenantId, userId });
      },
      createSocket: options.createSocket,
      userId: userId ?? null,
      tenantId: tenantId ?? null,
      messageType: 'helpdesk',
      openTimeoutMs: SOCKET.adminOpenTimeoutMs,
      normalCloseDelayMs: 'backoff',
      resumeUnwatched: false,
      random: options.random,
      onEvent: (event) => this.relay(event),
      onFrame: (frame) => this.frame(frame),
    });
  }

  /** Both ids known: the admin channel can be opened (spec section 5). */
  canConnect(): boolean {
    return isNumber(this.options.tenantId) && isNumber(this.options.userId);
  }

  /** Opens the channel; without a tenant id and a user id nothing happens (false). */
  connect(): boolean {
    if (!this.canConnect()) return false;
    this.socket.connect();
    return true;
  }

  close(): void {
    this.socket.close();
  }

  getStatus(): ChatSocketStatus {
    return this.socket.getStatus();
  }

  getAttempts(): number {
    return this.socket.getAttempts();
  }

  /** Follows an open conversation from `afterSeq`: its missed messages are asked for after reconnects. */
  watch(conversationId: number, afterSeq: number): void {
    this.socket.watch(conversationId, afterSeq);
  }

  unwatch(conversationId: number): void {
    this.socket.unwatch(conversationId);
  }

  lastSeq(conversationId: number): number {
    return this.socket.lastSeq(conversationId);
  }

  nudge(): void {
    if (this.canConnect()) this.socket.nudge();
  }

  online(): void {
    if (this.canConnect()) this.socket.online();
  }

  /** Reconnects when the tab becomes visible or the network returns; returns the unbinding function. */
  bindTriggers(targets?: Parameters<typeof bindReconnectTriggers>[1]): () => void {
    return bindReconnectTriggers(this, targets);
  }

  private relay(event: ChatSocketEvent): void {
    if (event.type === 'message') {
      this.options.onEvent({ type: 'message', message: event.message, botId: event.message.bot_id });
      return;
    }
    this.options.onEvent(event);
    if (event.type === 'status' && event.status === 'open') {
      if (this.everOpened) this.options.onEvent({ type: 'reconnected' });
      this.everOpened = true;
    }
  }

  /** The help desk's own frames (contracts HelpdeskFrame); the rest is ChatSocket's. */
  private frame(frame: Record<string, unknown>): boolean {
    const conversationId = frame.conversation_id;
    switch (frame.type) {
      case 'helpdesk_control': {
        const content = frame.content as HelpdeskControlStatus | undefined;
        if (!isNumber(conversationId) || !content || typeof content !== 'object') return false;
        const message = typeof frame.message === 'string' && frame.message ? frame.message : null;
        this.options.onEvent({ type: 'control', conversationId, status: content, message });
        return true;
      }
      case 'unread':
        if (!isNumber(conversationId) || !isNumber(frame.unread_count)) return false;
        this.options.onEvent({
          type: 'unread',
          conversationId,
          botId: isNumber(frame.bot_id) ? frame.bot_id : 0,
          unreadCount: frame.unread_count,
        });
        return true;
      case 'conversation':
        if (!isNumber(conversationId)) return false;
        this.options.onEvent({
          type: 'conversation',
          conversationId,
          botId: isNumber(frame.bot_id) ? frame.bot_id : 0,
          deleted: frame.deleted === true,
        });
        return true;
      case 'notification':
        this.options.onEvent({ type: 'notification' });
        return true;
      case 'session':
        if (typeof frame.version !== 'string') return false;
        this.options.onEvent({ type: 'session', version: frame.version });
        return true;
      default:
        return false;
    }
  }
}
