import {
  bindReconnectTriggers,
  browserSocket,
  ChatSocket,
  type ChatSocketEvent,
  type ChatSocketStatus,
  chatSocketUrl,
  createChunkBatcher,
  frameText,
  mergeMessages,
  type NoticeKind,
  pendingAfter,
  type SocketFactory,
} from '@parley/chat-client';
import {
  type ChatMessage,
  type VisitorIdentity,
  type VisitorLanguage,
  WIDGET_TEXTS_ENGLISH,
  type WidgetTexts,
} from '@parley/contracts';
import { ApiError, leaveContact, rateAnswer, reportBookingClick, requestIdentity, submitLead } from './api';
import type { BotStore } from './storage';

/** A frame shown inline (console.md section 8 Frames in chat): error red, warning orange, others green. */
export type Frame = { id: number; kind: 'error' | NoticeKind; message: string };

export type SessionState = {
  status: ChatSocketStatus;
  conversationId: number | null;
  /** Stored messages of the current conversation, each seq once, in order. */
  messages: ChatMessage[];
  /** The answer being streamed. */
  draft: string | null;
  /** A question was sent and its answer has not come yet. */
  thinking: boolean;
  /** The visitor's message held until the chat connects, shown as theirs until the server's copy comes. */
  pending: string | null;
  frames: Frame[];
  /** A human agent is available (the help desk's presence frame); hidden until one says so. */
  agentsOnline: boolean;
  /** The chat cannot run here (this site may not embed the bot, or the bot is gone): why. */
  blocked: string | null;
  /** The reconnect attempts ran out: the spec's real-time message. */
  gaveUp: boolean;
};

export type SessionOptions = {
  apiBase: string;
  uuid: string;
  botId: number;
  store: BotStore;
  createSocket?: SocketFactory;
  /** Identity requests (tests pass a fake). */
  identify?: typeof requestIdentity;
  /** The widget's words for what the session itself says (English unless given). */
  texts?: WidgetTexts;
  /** The language the widget speaks (PublicBot.language): a conversation the visitor starts keeps it. */
  language?: VisitorLanguage;
};

/** A reply that never comes (an agent holds the chat, say) must not lock the composer for ever. */
const THINKING_LIMIT_MS = 60_000;

const INITIAL: SessionState = {
  status: 'idle',
  conversationId: null,
  messages: [],
  draft: null,
  thinking: false,
  pending: null,
  frames: [],
  agentsOnline: false,
  blocked: null,
  gaveUp: false,
};

/**
 * A visitor's chat with one bot over the WebSocket, without a framework: the widget's view
 * subscribes to its state. The visitor's token and conversation id are kept per bot, so a reload
 * resumes the conversation (`resume` after seq 0 brings its history, once); later reconnects ask
 * only for what came after the last seq held. Chunks are batched every 16 ms.
 */
export class VisitorSession {
  private state: SessionState = INITIAL;
  private readonly listeners = new Set<(state: SessionState) => void>();
  private readonly options: SessionOptions;
  private readonly texts: WidgetTexts;
  private socket: ChatSocket | null = null;
  private unbind: (() => void) | null = null;
  private identity: VisitorIdentity | null = null;
  /** From the resume of a kept conversation until its first message arrives. */
  private restoring = false;
  /** Conversations left with "New chat": their late messages are not adopted. */
  private readonly abandoned = new Set<number>();
  private thinkingTimer: ReturnType<typeof setTimeout> | null = null;
  private nextFrameId = 1;
  private readonly batcher = createChunkBatcher((text) =>
    this.update({ draft: (this.state.draft ?? '') + text }),
  );

  constructor(options: SessionOptions) {
    this.options = options;
    this.texts = options.texts ?? WIDGET_TEXTS_ENGLISH;
    try {
      const kept = options.store.get('visitor');
      this.identity = kept ? (JSON.parse(kept) as VisitorIdentity) : null;
    } catch {
      this.identity = null;
    }
  }

  getState(): SessionState {
    return this.state;
  }

  subscribe(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects (once) and resumes the kept conversation, if any. */
  start(): void {
    if (this.socket) return;
    const { apiBase, uuid, store } = this.options;
    const identify = this.options.identify ?? requestIdentity;
    const socket = new ChatSocket({
      url: async () => {
        try {
          this.identity = await identify(apiBase, uuid, this.identity?.visitor_token ?? null);
        } catch (error) {
          // Refused for good (this site may not embed the bot, or it is gone): stop trying.
          if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
            this.block(error.status === 403 ? this.texts.notAllowed : this.texts.botNotFound);
          }
          throw error;
        }
        store.set('visitor', JSON.stringify(this.identity));
        // The page the visitor is on, for the agent who may join (kept with a new conversation).
        const page = typeof location === 'undefined' ? '' : location.href.slice(0, 2000);
        return chatSocketUrl(new URL(apiBase), {
          visitor_token: this.identity.visitor_token,
          ...(page.startsWith('http') ? { page_url: page } : {}),
          ...(this.options.language ? { language: this.options.language } : {}),
        });
      },
      createSocket: this.options.createSocket ?? browserSocket,
      userId: () => this.identity?.visitor_id ?? null,
      onEvent: (event) => this.onEvent(event),
    });
    this.socket = socket;
    const kept = Number(store.get('conversation'));
    if (Number.isInteger(kept) && kept > 0) {
      this.update({ conversationId: kept });
      this.restoring = true;
      socket.watch(kept, 0);
    }
    socket.connect();
    if (typeof document !== 'undefined') this.unbind = bindReconnectTriggers(socket);
  }

  /**
   * Sends the visitor's message, or holds it while the chat connects or reconnects (it goes once the
   * socket opens); false (with the spec's notice) when it cannot go.
   */
  send(text: string): boolean {
    const message = text.trim();
    if (!message || !this.socket) return false;
    const sent = this.socket.send({
      botId: this.options.botId,
      conversationId: this.state.conversationId ?? 0,
      text: message,
    });
    if (!sent) {
      this.addFrame('error', this.texts.sendFailed);
      return false;
    }
    this.batcher.cancel();
    this.update({ draft: null, thinking: true, pending: sent === 'held' ? message : null });
    this.clearThinkingTimer();
    this.thinkingTimer = setTimeout(() => {
      this.thinkingTimer = null;
      this.update({ thinking: false });
    }, THINKING_LIMIT_MS);
    return true;
  }

  /**
   * The visitor's thumbs on an answer, saved by the server (which gives them back with the history
   * after a reload) and kept on the message; undefined when refused.
   */
  async rate(messageId: number, rating: 'up' | 'down' | null): Promise<'up' | 'down' | null | undefined> {
    if (!this.identity) return undefined;
    try {
      const saved = await rateAnswer(this.options.apiBase, this.identity.visitor_token, messageId, rating);
      this.update({
        messages: this.state.messages.map((m) => (m.id === messageId ? { ...m, rating: saved.rating } : m)),
      });
      return saved.rating;
    } catch {
      return undefined;
    }
  }

  /** The lead form, linked to the current conversation when there is one: null once taken, else the reason to show. */
  async submitLead(fields: Record<string, string>): Promise<string | null> {
    const conversationId = this.state.conversationId;
    const conversation =
      this.identity && conversationId
        ? { id: conversationId, visitorToken: this.identity.visitor_token }
        : null;
    try {
      await submitLead(this.options.apiBase, this.options.uuid, fields, conversation);
      return null;
    } catch (error) {
      return error instanceof ApiError ? error.textIn(this.texts) : this.texts.leadFailed;
    }
  }

  /**
   * The contact form, sent for the current conversation: null once the server took it (its
   * thank-you arrives on the socket as a stored message), else the reason to show in the form.
   */
  async leaveContact(fields: Record<string, string>): Promise<string | null> {
    const conversationId = this.state.conversationId;
    if (!this.identity || !conversationId) return this.texts.contactFailed;
    try {
      await leaveContact(this.options.apiBase, this.identity.visitor_token, conversationId, fields);
      return null;
    } catch (error) {
      return error instanceof ApiError ? error.textIn(this.texts) : this.texts.contactFailed;
    }
  }

  /** A click on a booking button, counted for the bot's analytics (a failure changes nothing for the visitor). */
  bookingClicked(): void {
    if (!this.identity) return;
    void reportBookingClick(
      this.options.apiBase,
      this.identity.visitor_token,
      this.state.conversationId,
    ).catch(() => undefined);
  }

  /** "Talk to a person": the answer (a place in line, or the lead form) arrives as a stored notice. */
  requestHuman(): boolean {
    const sent = this.socket?.requestHuman(this.options.botId, this.state.conversationId ?? 0) ?? false;
    if (!sent) this.addFrame('error', this.texts.sendFailed);
    return sent;
  }

  /** Leaves the conversation: the next message starts a new one. */
  newChat(): void {
    this.options.store.remove('conversation');
    if (this.state.conversationId !== null) this.abandoned.add(this.state.conversationId);
    this.restoring = false;
    this.batcher.cancel();
    this.clearThinkingTimer();
    this.socket?.discardHeld();
    this.update({
      conversationId: null,
      messages: [],
      frames: [],
      draft: null,
      thinking: false,
      pending: null,
    });
  }

  dispose(): void {
    this.unbind?.();
    this.socket?.close();
    this.socket = null;
    this.batcher.cancel();
    this.clearThinkingTimer();
  }

  private onEvent(event: ChatSocketEvent): void {
    switch (event.type) {
      case 'status':
        this.update(event.status === 'open' ? { status: 'open', gaveUp: false } : { status: event.status });
        return;
      case 'message':
        this.receive(event.message);
        return;
      case 'chunk': {
        const id = event.conversationId;
        if (id !== null && this.abandoned.has(id)) return;
        // The answer of a new conversation can stream before the visitor's own message returns.
        if (id !== null && this.state.conversationId === null) this.adopt(id);
        if (id === null || id === this.state.conversationId) this.batcher.push(event.data);
        return;
      }
      case 'notice':
        this.stopThinking();
        this.addFrame(event.kind, frameText(this.texts, event.code, event.message));
        return;
      case 'error':
        if (this.restoring) {
          // The kept conversation is gone (or belonged to an identity that expired): start afresh.
          this.restoring = false;
          this.options.store.remove('conversation');
          this.update({ conversationId: null, messages: [] });
          return;
        }
        this.batcher.cancel();
        this.stopThinking();
        this.update({ draft: null, pending: null });
        this.addFrame('error', frameText(this.texts, event.code, event.error));
        return;
      case 'presence':
        this.update({ agentsOnline: event.agentsOnline });
        return;
      case 'gave-up':
      case 'refused':
        // The socket dropped the message it held: the visitor is told it did not go.
        if (this.state.pending !== null) {
          this.stopThinking();
          this.update({ pending: null });
          this.addFrame('error', this.texts.sendFailed);
        }
        this.update({ gaveUp: true });
        return;
      case 'timeout':
      case 'connected':
        return;
    }
  }

  private receive(message: ChatMessage): void {
    this.restoring = false;
    if (this.abandoned.has(message.conversation_id)) return;
    if (this.state.conversationId === null) this.adopt(message.conversation_id);
    if (message.conversation_id !== this.state.conversationId) return;
    if (message.message_type !== 'user') {
      this.batcher.cancel();
      this.stopThinking();
      this.update({ draft: null });
    }
    this.update({
      messages: mergeMessages(this.state.messages, [message]),
      pending: pendingAfter(this.state.pending, message),
    });
  }

  private adopt(conversationId: number): void {
    this.options.store.set('conversation', String(conversationId));
    this.update({ conversationId });
  }

  private block(reason: string): void {
    this.update({ blocked: reason });
    // Closing inside the socket's own attempt is safe: that attempt is dropped as stale.
    queueMicrotask(() => this.socket?.close());
  }

  private addFrame(kind: Frame['kind'], message: string): void {
    this.update({ frames: [...this.state.frames, { id: this.nextFrameId++, kind, message }] });
  }

  private stopThinking(): void {
    this.clearThinkingTimer();
    if (this.state.thinking) this.update({ thinking: false });
  }

  private clearThinkingTimer(): void {
    if (this.thinkingTimer !== null) clearTimeout(this.thinkingTimer);
    this.thinkingTimer = null;
  }

  private update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener(this.state);
  }
}
