import {
  type ChatMessage,
  HELPDESK_TEXTS,
  type HelpdeskControlStatus,
  type HelpdeskFrame,
  type Presence,
} from '@parley/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowOf } from '../../core/db/database.js';
import type { EventBus } from '../../core/events/bus.js';
import { type Appended, type ConversationRow, type StartAnnouncements, toMessage } from './chat.queries.js';
import { conversations, messages } from './chat.schema.js';

export const MESSAGE_STORED = 'chat.message';
/**
 * A stored message, announced by the statement that stores it. It carries the row itself, so no
 * node reads it back, unless the row is too big for a NOTIFY: then only ids, and each node where
 * someone listens loads it once.
 */
export type MessageStored = {
  tenantId: number;
  conversationId: number;
  messageId: number;
  /** The conversation's unread count right after this message. */
  unreadCount: number;
  /** The stored row in raw form (column names, driver values), or null when too big to carry. */
  row: Record<string, unknown> | null;
};
/** The largest row carried in the event; the envelope and ids stay well under the NOTIFY limit. */
const CARRIED_ROW_BYTES = 7000;

/** Who holds a conversation changed: an agent joined, handed it back, or was away too long. */
export const CONTROL_CHANGED = 'chat.control';
export type ControlChange = 'joined' | 'back' | 'away';
export type ControlChanged = { tenantId: number; conversationId: number; change: ControlChange };

/** An agent's help-desk sockets opened or closed somewhere: each node recounts for its listeners. */
export const PRESENCE_CHANGED = 'chat.presence';
export type PresenceChanged = { tenantId: number };

/** A conversation's unread count was reset (mark read). New visitor messages carry their own. */
export const UNREAD_CHANGED = 'chat.unread';
export type UnreadChanged = { tenantId: number; conversationId: number; botId: number; unreadCount: number };

/** A conversation was created or deleted (the inbox lists it or drops it). */
export const CONVERSATION_CHANGED = 'chat.conversation';
export type ConversationChanged = {
  tenantId: number;
  conversationId: number;
  botId: number;
  deleted: boolean;
};

type Listener = (message: ChatMessage) => void;
export type ControlFrame = { conversationId: number; status: HelpdeskControlStatus; message: string };
type ControlListener = (frame: ControlFrame) => void;
type PresenceListener = (presence: Presence) => void;
type InboxListener = (frame: HelpdeskFrame) => void;

/**
 * This node's listeners (open sockets): visitors per conversation, and agents per tenant (the
 * help-desk channel). Events arrive from any node over the event bus carrying ids only; the data is
 * loaded once per node, and only when someone here listens.
 */
export class ChatHub {
  private readonly queues = new Map<number, Promise<void>>();
  private readonly byConversation = new Map<number, Set<Listener>>();
  private readonly controlByConversation = new Map<number, Set<ControlListener>>();
  private readonly presenceByTenant = new Map<number, Set<PresenceListener>>();
  private readonly inboxByTenant = new Map<number, Set<InboxListener>>();
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly presenceOf: (tenantId: number) => Promise<Presence>,
  ) {
    this.unsubscribe = [
      events.subscribe<MessageStored>(MESSAGE_STORED, (event) =>
        this.inOrder(event.conversationId, () => this.deliver(event)),
      ),
      events.subscribe<ControlChanged>(CONTROL_CHANGED, (event) => this.deliverControl(event)),
      events.subscribe<PresenceChanged>(PRESENCE_CHANGED, (event) => this.deliverPresence(event)),
      events.subscribe<UnreadChanged>(UNREAD_CHANGED, (event) =>
        this.toInbox(event.tenantId, {
          type: 'unread',
          conversation_id: event.conversationId,
          bot_id: event.botId,
          unread_count: event.unreadCount,
        }),
      ),
      events.subscribe<ConversationChanged>(CONVERSATION_CHANGED, (event) =>
        this.toInbox(event.tenantId, {
          type: 'conversation',
          conversation_id: event.conversationId,
          bot_id: event.botId,
          ...(event.deleted ? { deleted: true } : {}),
        }),
      ),
    ];
  }

  /**
   * Runs deliveries of one conversation one after another: a message too big to be carried is
   * loaded from the database, and without a queue a later one could overtake it on the way out.
   */
  private inOrder(conversationId: number, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(conversationId) ?? Promise.resolve();
    // The bus logs a failed delivery (the returned promise); the queue goes on past it.
    const next = previous.then(work);
    const settled = next.catch(() => undefined);
    this.queues.set(conversationId, settled);
    void settled.then(() => {
      if (this.queues.get(conversationId) === settled) this.queues.delete(conversationId);
    });
    return next;
  }

  /**
   * The announcement of a message for appendMessage's `announce`: sent by PostgreSQL with the write,
   * at its commit. Once committed, tell this node's listeners with storedHere.
   */
  storedNotification = (message: SQL, conversation: SQL): SQL =>
    this.events.notification(
      MESSAGE_STORED,
      sql`json_build_object('tenantId', ${message}.tenant_id, 'conversationId', ${message}.conversation_id,
        'messageId', ${message}.id, 'unreadCount', ${conversation}.unread_count,
        'row', CASE WHEN octet_length(row_to_json(${message}.*)::text) <= ${CARRIED_ROW_BYTES}
               THEN row_to_json(${message}.*) END)`,
    );

  /** The announcements of a new conversation and its welcome message, for startConversation. */
  readonly startAnnouncements: StartAnnouncements = {
    conversation: (row: ConversationRow) =>
      this.events.notification(
        CONVERSATION_CHANGED,
        sql`${JSON.stringify(conversationChanged(row, false))}::json`,
      ),
    message: this.storedNotification,
  };

  /** This node's half of a new conversation's announcement (see startAnnouncements). */
  startedHere(row: ConversationRow): void {
    this.events.deliverLocally(CONVERSATION_CHANGED, conversationChanged(row, false));
  }

  /** This node's half of a message's announcement (the NOTIFY went out with the write). */
  storedHere(appended: Appended): void {
    const { message, conversation, raw } = appended;
    this.events.deliverLocally<MessageStored>(MESSAGE_STORED, {
      tenantId: message.tenantId,
      conversationId: message.conversationId,
      messageId: message.id,
      unreadCount: conversation.unreadCount,
      row: raw,
    });
  }

  async controlChanged(event: ControlChanged): Promise<void> {
    await this.events.publish(CONTROL_CHANGED, event);
  }

  async presenceChanged(tenantId: number): Promise<void> {
    await this.events.publish<PresenceChanged>(PRESENCE_CHANGED, { tenantId });
  }

  async unreadChanged(event: UnreadChanged): Promise<void> {
    await this.events.publish(UNREAD_CHANGED, event);
  }

  async conversationChanged(event: ConversationChanged): Promise<void> {
    await this.events.publish(CONVERSATION_CHANGED, event);
  }

  /** Stored messages of one conversation (a visitor's or a user's chat socket). */
  listen(conversationId: number, listener: Listener): () => void {
    return add(this.byConversation, conversationId, listener);
  }

  /** Control changes of one conversation (the visitor's green notices). */
  listenControl(conversationId: number, listener: ControlListener): () => void {
    return add(this.controlByConversation, conversationId, listener);
  }

  /** Whether an agent of the tenant is online (visitors' chat sockets). */
  listenPresence(tenantId: number, listener: PresenceListener): () => void {
    return add(this.presenceByTenant, tenantId, listener);
  }

  /**
   * Everything the help desk shows of a tenant: every new message on every channel (a visitor's
   * followed by its conversation's unread count), control changes, presence, new and deleted
   * conversations, unread resets.
   */
  listenInbox(tenantId: number, listener: InboxListener): () => void {
    return add(this.inboxByTenant, tenantId, listener);
  }

  /**
   * Open sockets of this process (the admin console's health): every identified chat socket follows
   * its tenant's presence once, every help-desk socket its tenant's inbox once.
   */
  socketCounts(): { chat: number; helpdesk: number } {
    const total = (map: Map<number, Set<unknown>>) => [...map.values()].reduce((n, set) => n + set.size, 0);
    return { chat: total(this.presenceByTenant), helpdesk: total(this.inboxByTenant) };
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
  }

  private async deliver(event: MessageStored): Promise<void> {
    const listeners = [...(this.byConversation.get(event.conversationId) ?? [])];
    const inbox = [...(this.inboxByTenant.get(event.tenantId) ?? [])];
    if (listeners.length === 0 && inbox.length === 0) return;
    const row = event.row ? rowOf(messages, event.row) : await this.load(event.messageId);
    if (!row || row.tenantId !== event.tenantId) return;
    const message = toMessage(row);
    for (const listener of listeners) listener(message);
    if (inbox.length === 0) return;
    // The message goes to the agents at once, a visitor's followed by its conversation's unread count.
    const messageFrame: HelpdeskFrame = {
      type: 'message',
      conversation_id: row.conversationId,
      bot_id: row.botId,
      final_result_object: message,
    };
    for (const listener of inbox) listener(messageFrame);
    if (row.messageType !== 'user') return;
    const unread: HelpdeskFrame = {
      type: 'unread',
      conversation_id: row.conversationId,
      bot_id: row.botId,
      unread_count: event.unreadCount,
    };
    for (const listener of inbox) listener(unread);
  }

  private async load(messageId: number) {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, messageId));
    return row;
  }

  private async deliverControl(event: ControlChanged): Promise<void> {
    const listeners = [...(this.controlByConversation.get(event.conversationId) ?? [])];
    const inbox = [...(this.inboxByTenant.get(event.tenantId) ?? [])];
    if (listeners.length === 0 && inbox.length === 0) return;
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, event.conversationId), eq(conversations.tenantId, event.tenantId)));
    if (!row) return;
    const status: HelpdeskControlStatus = {
      conversation_id: row.id,
      is_helpdesk_in_control: row.isHelpdeskInControl,
      admin_id: row.adminId,
      admin_name: row.adminName,
    };
    const message =
      event.change === 'joined'
        ? HELPDESK_TEXTS.agentJoined(row.adminName ?? 'An agent')
        : event.change === 'away'
          ? HELPDESK_TEXTS.agentAway
          : HELPDESK_TEXTS.botBack;
    for (const listener of listeners) listener({ conversationId: row.id, status, message });
    for (const listener of inbox)
      listener({
        type: 'helpdesk_control',
        conversation_id: row.id,
        bot_id: row.botId,
        content: status,
        message,
      });
  }

  private async deliverPresence(event: PresenceChanged): Promise<void> {
    const listeners = [...(this.presenceByTenant.get(event.tenantId) ?? [])];
    const inbox = [...(this.inboxByTenant.get(event.tenantId) ?? [])];
    if (listeners.length === 0 && inbox.length === 0) return;
    const presence = await this.presenceOf(event.tenantId);
    for (const listener of listeners) listener(presence);
    for (const listener of inbox) listener({ type: 'presence', ...presence });
  }

  private toInbox(tenantId: number, frame: HelpdeskFrame): void {
    for (const listener of [...(this.inboxByTenant.get(tenantId) ?? [])]) listener(frame);
  }
}

function conversationChanged(row: ConversationRow, deleted: boolean): ConversationChanged {
  return { tenantId: row.tenantId, conversationId: row.id, botId: row.botId, deleted };
}

function add<K, L>(map: Map<K, Set<L>>, key: K, listener: L): () => void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}
