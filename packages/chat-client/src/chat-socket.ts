import type { ChatMessage, ClientFrame, ServerFrame, ServerFrameCode } from '@parley/contracts';
import { SOCKET } from '@parley/contracts/constants';

/** What the client needs of a WebSocket; the browser binding is `browserSocket`, tests pass a fake. */
export type SocketHandlers = {
  onOpen: () => void;
  onClose: (code: number) => void;
  onMessage: (data: string) => void;
  onError: () => void;
};
export type SocketConnection = {
  send: (data: string) => void;
  close: (code?: number, reason?: string) => void;
};
export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketConnection;

export type ChatSocketStatus = 'idle' | 'connecting' | 'open' | 'closed' | 'failed';
export type NoticeKind = 'warning' | 'confirmation' | 'helpdesk_control';

export type ChatSocketEvent =
  | { type: 'status'; status: ChatSocketStatus }
  | { type: 'connected'; message: string }
  /** A stored message not seen before (each conversation and seq once). */
  | { type: 'message'; message: ChatMessage }
  | { type: 'chunk'; conversationId: number | null; data: string }
  | {
      type: 'notice';
      kind: NoticeKind;
      message: string;
      conversationId: number | null;
      code?: ServerFrameCode;
    }
  | { type: 'error'; error: string; conversationId: number | null; code?: ServerFrameCode }
  /** Whether a human agent is available (the help desk's `{type: 'presence', agents_online}` frame). */
  | { type: 'presence'; agentsOnline: boolean }
  /** The socket did not open within the open time-out. */
  | { type: 'timeout' }
  /** The last of the reconnect attempts failed: the client stops until `online()` or `nudge()`. */
  | { type: 'gave-up' }
  /**
   * The server refused the socket for a reason retrying does not cure (REFUSED_CLOSE_CODES): the
   * client stops until `online()` or `nudge()`; on 4401 renew the session (or sign in) first.
   */
  | { type: 'refused'; code: number };

export type ChatSocketOptions = {
  /** The address to connect to, asked before every attempt (a visitor's token may need renewing). */
  url: () => string | Promise<string>;
  createSocket: SocketFactory;
  /** Who connects: the first frame names the user (a visitor id or a user id), read at each send. */
  userId: string | number | null | (() => string | number | null);
  tenantId?: string | number | null;
  messageType?: 'user' | 'helpdesk';
  onEvent: (event: ChatSocketEvent) => void;
  /** 0..1, for the back-off jitter. */
  random?: () => number;
  /** Give up on an attempt that has not opened by then (0: wait for the browser). */
  openTimeoutMs?: number;
  /** After a normal close: reconnect after this delay (the user channel's 3 s), or back off. */
  normalCloseDelayMs?: number | 'backoff';
  /**
   * After a reconnect, ask for the missed messages of every conversation seen (true, the user
   * channel) or only of those followed with `watch` (false, the help desk's open conversations).
   */
  resumeUnwatched?: boolean;
  /** Frames a channel handles itself (the help desk's control, unread...): true when handled. */
  onFrame?: (frame: Record<string, unknown>) => boolean;
};

/** Normal closure: the server ended the connection on purpose. */
const NORMAL_CLOSE = 1000;
/** The client's own close of a socket that sent no copy of a message back in time (SOCKET.confirmTimeoutMs). */
const NO_COPY_CLOSE = 4000;

/**
 * Server closes that reconnecting would only repeat (docs/realtime.md, Close codes): 4401 no valid
 * session (signed out, password changed, user deleted), 4403 no permission, 4429 too many sockets.
 */
export const REFUSED_CLOSE_CODES: ReadonlySet<number> = new Set([4401, 4403, 4429]);

/** Spec section 9: 1 s doubled per attempt, plus up to 1 s random, capped at 30 s. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exponential = SOCKET.backoffBaseMs * 2 ** attempt;
  return Math.min(SOCKET.backoffCapMs, exponential + random() * SOCKET.backoffJitterMs);
}

/** ws: or wss: on the page's own host, the chat stream path (or another) and the given query. */
export function chatSocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  query: Record<string, string>,
  path = '/api/chat/stream',
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}?${new URLSearchParams(query).toString()}`;
}

/**
 * Whether the socket takes a message now: sent when open, held while connecting or waiting to
 * reconnect. Not before it starts, nor once it has given up or been refused.
 */
export const takesMessages = (status: ChatSocketStatus): boolean =>
  status === 'open' || status === 'connecting' || status === 'closed';

/** A message frame, as `send` builds it. */
type MessageFrame = Extract<ClientFrame, { content: unknown }>;

/** A fresh id for a message (hex of 16 random bytes): the server stores a message sent again with it once. */
function newClientId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What is held of a conversation: seqs past the last one without a gap, and whether it is followed. */
type Tracked = { seen: Set<number>; contiguous: number; watched: boolean };

/** The frame's code, when it has one a client knows (ServerFrame.code). */
const codeOf = (frame: IncomingFrame): { code?: ServerFrameCode } =>
  frame.code === 'too_fast' || frame.code === 'send_failed' ? { code: frame.code } : {};

/** A server frame, plus the help desk's presence frame (`{type: 'presence', agents_online}`). */
type IncomingFrame = Omit<ServerFrame, 'type'> & {
  type?: ServerFrame['type'] | 'presence';
  agents_online?: unknown;
};

/**
 * The user channel of the chat (console.md sections 7 Real-time and 9): connects, says hello,
 * pings every 30 s, reconnects with back-off (at most 10 attempts; 3 s after a normal close),
 * and after every (re)connect asks for the messages it missed (`resume` after the last seq it
 * holds without a gap). Stored messages reach `onEvent` once per conversation and seq, whatever
 * the server re-sends.
 */
export class ChatSocket {
  private readonly options: ChatSocketOptions;
  private readonly random: () => number;
  private connection: SocketConnection | null = null;
  private generation = 0;
  private status: ChatSocketStatus = 'idle';
  private attempts = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private openTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private readonly conversations = new Map<number, Tracked>();
  /** Messages sent while the socket was connecting or waiting to reconnect, sent in order once it opens. */
  private held: MessageFrame[] = [];
  /**
   * Messages sent whose stored copy has not come back yet. When the socket drops, or no copy comes
   * within SOCKET.confirmTimeoutMs, they are held and sent again on the next open; their client ids
   * tell the server which ones it already has.
   */
  private unconfirmed: MessageFrame[] = [];
  private confirmTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: ChatSocketOptions) {
    this.options = options;
    this.random = options.random ?? Math.random;
  }

  private userId(): string | number | null {
    const { userId } = this.options;
    return typeof userId === 'function' ? userId() : userId;
  }

  getStatus(): ChatSocketStatus {
    return this.status;
  }

  /** Consecutive failed attempts since the last open. */
  getAttempts(): number {
    return this.attempts;
  }

  connect(): void {
    this.stopped = false;
    if (this.status === 'connecting' || this.status === 'open') return;
    this.clearReconnect();
    void this.open();
  }

  /** Closes for good (the page is leaving); no reconnect follows. */
  close(): void {
    this.stopped = true;
    this.forgetUnsent();
    this.clearReconnect();
    this.clearOpenTimer();
    this.stopPing();
    const connection = this.connection;
    this.connection = null;
    this.generation += 1;
    connection?.close(NORMAL_CLOSE, 'client closed');
    this.setStatus('closed');
  }

  /**
   * Follows a conversation from `afterSeq` (0: all of it). On an open socket the missed messages
   * are asked for at once, otherwise after the next open.
   */
  watch(conversationId: number, afterSeq = 0): void {
    const tracked = this.track(conversationId, afterSeq);
    if (afterSeq > tracked.contiguous) tracked.contiguous = afterSeq;
    tracked.watched = true;
    if (this.status === 'open') this.sendResume(conversationId, tracked.contiguous);
  }

  /** Stops asking for a conversation's missed messages after reconnects (its seqs stay deduplicated). */
  unwatch(conversationId: number): void {
    const tracked = this.conversations.get(conversationId);
    if (tracked) tracked.watched = false;
  }

  /** The last seq of a conversation held without a gap. */
  lastSeq(conversationId: number): number {
    return this.conversations.get(conversationId)?.contiguous ?? 0;
  }

  /**
   * Sends a message (conversation 0 starts a new one): 'sent'. While the socket is connecting or
   * waiting to reconnect, the message is held and sent once it opens, after the missed messages are
   * asked for: 'held' (a visitor who types before the chat has connected, or while a phone changes
   * network, is not told to try again). False when it cannot go: closed, refused or given up.
   */
  send(message: { botId: number; conversationId: number; text: string }): 'sent' | 'held' | false {
    const frame: MessageFrame = {
      content: {
        bot_id: message.botId,
        conversation_id: message.conversationId,
        message: message.text,
        message_type: this.options.messageType ?? 'user',
        user_id: this.userId(),
        tenant_id: this.options.tenantId ?? null,
        client_id: newClientId(),
      },
      elements: [],
    };
    if (this.deliver(frame)) return 'sent';
    // Open but the send failed: the connection is going, and its close will say so.
    if (this.stopped || this.status === 'open' || !takesMessages(this.status)) return false;
    this.held.push(frame);
    return 'held';
  }

  /** Forgets the messages held for the next open (the visitor started a new chat meanwhile). */
  discardHeld(): void {
    this.held = [];
  }

  /** Sends a message frame, expecting its stored copy back (a visitor's message only). */
  private deliver(frame: MessageFrame): boolean {
    if (!this.sendFrame(frame)) return false;
    if (frame.content.message_type !== 'user') return true;
    this.unconfirmed.push(frame);
    this.confirmTimer ??= setTimeout(() => this.noCopyCame(), SOCKET.confirmTimeoutMs);
    return true;
  }

  /**
   * The stored copy of a message sent came back (known by its client id; by its text when the copy
   * came through a path that does not carry the id): it is no longer sent again.
   */
  private confirmed(message: ChatMessage): void {
    const index = this.unconfirmed.findIndex((frame) =>
      message.client_id
        ? frame.content.client_id === message.client_id
        : frame.content.message === message.message,
    );
    if (index < 0) return;
    this.unconfirmed.splice(index, 1);
    this.stopConfirmTimer();
    if (this.unconfirmed.length)
      this.confirmTimer = setTimeout(() => this.noCopyCame(), SOCKET.confirmTimeoutMs);
  }

  /** No copy came: the socket only looks open. It is reopened, and what was not confirmed sent again. */
  private noCopyCame(): void {
    this.confirmTimer = null;
    if (this.status !== 'open' || this.unconfirmed.length === 0) return;
    const connection = this.connection;
    this.closed(this.generation, NO_COPY_CLOSE);
    connection?.close(NO_COPY_CLOSE, 'no reply');
  }

  /** Nothing sent is sent again: the server refused it, or the socket is closed for good. */
  private forgetUnsent(): void {
    this.held = [];
    this.unconfirmed = [];
    this.stopConfirmTimer();
  }

  private stopConfirmTimer(): void {
    if (this.confirmTimer !== null) clearTimeout(this.confirmTimer);
    this.confirmTimer = null;
  }

  /** "Talk to a person": the answer is a stored system message (conversation 0 starts one). */
  requestHuman(botId: number, conversationId: number): boolean {
    return this.sendFrame({ type: 'request_human', bot_id: botId, conversation_id: conversationId });
  }

  /** The tab became visible: reconnect now instead of waiting for the back-off timer. */
  nudge(): void {
    if (this.stopped || this.status === 'open' || this.status === 'connecting') return;
    this.clearReconnect();
    void this.open();
  }

  /** The network returned: counters start again and the client reconnects now. */
  online(): void {
    if (this.stopped) return;
    this.attempts = 0;
    if (this.status === 'open' || this.status === 'connecting') return;
    this.clearReconnect();
    void this.open();
  }

  private async open(): Promise<void> {
    const generation = ++this.generation;
    this.setStatus('connecting');
    let url: string;
    try {
      url = await this.options.url();
    } catch {
      if (generation === this.generation) this.closed(generation, 1006);
      return;
    }
    if (generation !== this.generation || this.stopped) return;
    const current = () => generation === this.generation;
    this.connection = this.options.createSocket(url, {
      onOpen: () => {
        if (current()) this.opened();
      },
      onClose: (code) => {
        if (current()) this.closed(generation, code);
      },
      onMessage: (data) => {
        if (current()) this.received(data);
      },
      onError: () => undefined,
    });
    const timeout = this.options.openTimeoutMs ?? 0;
    if (timeout > 0) {
      this.openTimer = setTimeout(() => {
        this.openTimer = null;
        if (!current() || this.status !== 'connecting') return;
        this.options.onEvent({ type: 'timeout' });
        const connection = this.connection;
        this.closed(generation, 4008);
        connection?.close();
      }, timeout);
    }
  }

  private opened(): void {
    this.clearOpenTimer();
    this.attempts = 0;
    this.setStatus('open');
    this.sendFrame({
      content: {
        bot_id: 0,
        user_id: this.userId(),
        tenant_id: this.options.tenantId ?? null,
        conversation_id: 0,
        message: 'connection',
        message_type: this.options.messageType ?? 'user',
      },
      elements: [],
    });
    this.stopPing();
    this.pingTimer = setInterval(() => this.sendFrame({ type: 'ping' }), SOCKET.pingIntervalMs);
    const all = this.options.resumeUnwatched ?? true;
    for (const [conversationId, tracked] of this.conversations) {
      if (all || tracked.watched) this.sendResume(conversationId, tracked.contiguous);
    }
    const held = this.held;
    this.held = [];
    for (const frame of held) this.deliver(frame);
  }

  private closed(generation: number, code: number): void {
    if (generation !== this.generation) return;
    // Later events of this connection are stale from here on.
    this.generation += 1;
    this.connection = null;
    this.clearOpenTimer();
    this.stopPing();
    if (this.stopped) {
      this.setStatus('closed');
      return;
    }
    if (REFUSED_CLOSE_CODES.has(code)) {
      this.forgetUnsent();
      this.setStatus('failed');
      this.options.onEvent({ type: 'refused', code });
      return;
    }
    if (this.attempts >= SOCKET.maxReconnectAttempts) {
      this.forgetUnsent();
      this.setStatus('failed');
      this.options.onEvent({ type: 'gave-up' });
      return;
    }
    // What was sent and not confirmed goes again, first, on the next open.
    this.held = [...this.unconfirmed, ...this.held];
    this.unconfirmed = [];
    this.stopConfirmTimer();
    this.setStatus('closed');
    const normalDelay = this.options.normalCloseDelayMs ?? SOCKET.userReconnectDelayMs;
    const delay =
      code === NORMAL_CLOSE && normalDelay !== 'backoff'
        ? normalDelay
        : backoffDelay(this.attempts, this.random);
    this.attempts += 1;
    this.clearReconnect();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) void this.open();
    }, delay);
  }

  private received(data: string): void {
    let frame: IncomingFrame;
    try {
      frame = JSON.parse(data) as IncomingFrame;
    } catch {
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    if (this.options.onFrame?.(frame as Record<string, unknown>)) return;
    const conversationId = typeof frame.conversation_id === 'number' ? frame.conversation_id : null;
    if (frame.final_result_object) {
      this.accept(frame.final_result_object);
      return;
    }
    if (typeof frame.error === 'string') {
      this.forgetUnsent();
      this.options.onEvent({ type: 'error', error: frame.error, conversationId, ...codeOf(frame) });
      return;
    }
    switch (frame.type) {
      case 'pong':
        return;
      case 'connected':
        this.options.onEvent({ type: 'connected', message: frame.message ?? '' });
        return;
      case 'presence':
        this.options.onEvent({ type: 'presence', agentsOnline: frame.agents_online === true });
        return;
      case 'helpdesk_control':
        // Who holds the conversation changed: its stored system message says so, in order, and
        // stays after a reload; the frame is still sent for clients that predate it.
        return;
      case 'warning':
      case 'confirmation':
        // Sending too fast: the message was refused, not stored, and is not sent again.
        if (frame.code === 'too_fast') this.forgetUnsent();
        this.options.onEvent({
          type: 'notice',
          kind: frame.type,
          message: frame.message ?? '',
          conversationId,
          ...codeOf(frame),
        });
        return;
    }
    if (typeof frame.data === 'string') {
      this.options.onEvent({ type: 'chunk', conversationId, data: frame.data });
    }
  }

  private accept(message: ChatMessage): void {
    if (message.message_type === 'user') this.confirmed(message);
    const tracked = this.track(message.conversation_id, 0);
    if (message.seq <= tracked.contiguous || tracked.seen.has(message.seq)) return;
    tracked.seen.add(message.seq);
    while (tracked.seen.has(tracked.contiguous + 1)) {
      tracked.contiguous += 1;
      tracked.seen.delete(tracked.contiguous);
    }
    this.options.onEvent({ type: 'message', message });
  }

  private track(conversationId: number, afterSeq: number): Tracked {
    let tracked = this.conversations.get(conversationId);
    if (!tracked) {
      tracked = { seen: new Set(), contiguous: afterSeq, watched: false };
      this.conversations.set(conversationId, tracked);
    }
    return tracked;
  }

  private sendResume(conversationId: number, afterSeq: number): void {
    this.sendFrame({ type: 'resume', conversation_id: conversationId, after_seq: afterSeq });
  }

  private sendFrame(frame: ClientFrame): boolean {
    if (this.status !== 'open' || !this.connection) return false;
    try {
      this.connection.send(JSON.stringify(frame));
      return true;
    } catch {
      return false;
    }
  }

  private setStatus(status: ChatSocketStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.options.onEvent({ type: 'status', status });
  }

  private stopPing(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private clearOpenTimer(): void {
    if (this.openTimer !== null) clearTimeout(this.openTimer);
    this.openTimer = null;
  }
}

/** The browser's WebSocket behind the SocketFactory shape. */
export const browserSocket: SocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.onOpen();
  socket.onclose = (event) => handlers.onClose(event.code);
  socket.onmessage = (event) => handlers.onMessage(typeof event.data === 'string' ? event.data : '');
  socket.onerror = () => handlers.onError();
  return {
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
  };
};

type Target = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/**
 * Reconnects when the tab becomes visible or the network returns (spec section 4 Real-time).
 * Returns the function that removes the listeners.
 */
export function bindReconnectTriggers(
  socket: Pick<ChatSocket, 'nudge' | 'online'>,
  targets: { document: Target & { visibilityState: string }; window: Target } = { document, window },
): () => void {
  const onVisible = () => {
    if (targets.document.visibilityState === 'visible') socket.nudge();
  };
  const onOnline = () => socket.online();
  targets.document.addEventListener('visibilitychange', onVisible);
  targets.window.addEventListener('online', onOnline);
  return () => {
    targets.document.removeEventListener('visibilitychange', onVisible);
    targets.window.removeEventListener('online', onOnline);
  };
}
