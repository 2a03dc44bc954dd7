import type { ChatMessage } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import type { EventBus } from '../../core/events/bus.js';
import { toMessage } from './chat.queries.js';
import { messages } from './chat.schema.js';

export const MESSAGE_STORED = 'chat.message';
/** Only ids cross nodes (NOTIFY payloads are small); each node loads the message once. */
export type MessageStored = { tenantId: number; conversationId: number; messageId: number };

type Listener = (message: ChatMessage) => void;

/**
 * This node's listeners per conversation (open sockets). Stored messages arrive from any node over
 * the event bus; a message is loaded only when someone here listens to its conversation.
 */
export class ChatHub {
  private readonly byConversation = new Map<number, Set<Listener>>();
  private readonly byTenant = new Map<number, Set<Listener>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {
    this.unsubscribe = events.subscribe<MessageStored>(MESSAGE_STORED, (event) => this.deliver(event));
  }

  async stored(event: MessageStored): Promise<void> {
    await this.events.publish(MESSAGE_STORED, event);
  }

  listen(conversationId: number, listener: Listener): () => void {
    return add(this.byConversation, conversationId, listener);
  }

  /** Every message of a tenant's conversations (the help-desk channel). */
  listenTenant(tenantId: number, listener: Listener): () => void {
    return add(this.byTenant, tenantId, listener);
  }

  close(): void {
    this.unsubscribe();
  }

  private async deliver(event: MessageStored): Promise<void> {
    const listeners = [
      ...(this.byConversation.get(event.conversationId) ?? []),
      ...(this.byTenant.get(event.tenantId) ?? []),
    ];
    if (listeners.length === 0) return;
    const [row] = await this.db.select().from(messages).where(eq(messages.id, event.messageId));
    if (!row || row.tenantId !== event.tenantId) return;
    const message = toMessage(row);
    for (const listener of listeners) listener(message);
  }
}

function add<K>(map: Map<K, Set<Listener>>, key: K, listener: Listener): () => void {
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
