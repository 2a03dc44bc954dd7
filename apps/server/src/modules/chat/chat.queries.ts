import { BOT, type BookingAction, type ChatMessage, type Conversation } from '@parley/contracts';
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import { conversations, messages, messageUsage } from './chat.schema.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = Omit<
  typeof messages.$inferInsert,
  'id' | 'seq' | 'tenantId' | 'conversationId' | 'botId'
>;

export type AnswerMode = NonNullable<ChatMessage['answer_mode']>;

export function toMessage(row: MessageRow): ChatMessage {
  const metadata = (row.metadata ?? {}) as {
    answer_mode?: AnswerMode;
    user_id?: number;
    actions?: BookingAction[];
  };
  return {
    id: row.id,
    chat_id: row.id,
    conversation_id: row.conversationId,
    bot_id: row.botId,
    seq: row.seq,
    message: row.message,
    message_type: row.messageType as ChatMessage['message_type'],
    message_source: row.messageSource as ChatMessage['message_source'],
    sender_id: row.senderId,
    recipient_id: row.recipientId,
    user_id: metadata.user_id ?? null,
    timestamp: row.createdAt.toISOString(),
    sources: row.sources,
    qna_id: row.qnaId,
    attachments: row.attachments as ChatMessage['attachments'],
    answer_mode: metadata.answer_mode ?? null,
    actions: metadata.actions ?? [],
    usage:
      row.promptTokens === null && row.completionTokens === null
        ? null
        : { prompt_tokens: row.promptTokens ?? 0, completion_tokens: row.completionTokens ?? 0 },
  };
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    bot_id: row.botId,
    name: row.name,
    channel: row.channel,
    user_id: row.userId,
    visitor_id: row.visitorId,
    is_helpdesk_in_control: row.isHelpdeskInControl,
    admin_id: row.adminId,
    admin_name: row.adminName,
    unread_count: row.unreadCount,
    last_seq: row.lastSeq,
    last_message_at: row.lastMessageAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export async function requireConversation(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<ConversationRow> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.tenantId, tenantId)));
  if (!row) throw notFound('Conversation not found');
  return row;
}

export async function messagesAfter(db: DbOrTx, conversationId: number, afterSeq = 0): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq));
}

/**
 * Appends a message with the conversation's next sequence number. The counter is bumped with an
 * UPDATE, whose row lock orders concurrent writers, so sequence numbers never repeat or skip.
 */
export async function appendMessage(
  db: DbOrTx,
  conversation: ConversationRow,
  values: NewMessage,
): Promise<MessageRow> {
  // One statement, one round trip: the counter's row lock orders concurrent writers until it
  // commits, and messages from the other side stay unread until an agent opens the conversation.
  const unread = values.messageType === 'user' ? 1 : 0;
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const [raw] = await queryRows<RawMessage>(
    db,
    sql`WITH counter AS (
          UPDATE conversations
             SET last_seq = last_seq + 1, last_message_at = now(), unread_count = unread_count + ${unread}
           WHERE id = ${conversation.id}
       RETURNING id, tenant_id, bot_id, last_seq)
        INSERT INTO messages (tenant_id, conversation_id, bot_id, seq, message_type, message_source, sender_id,
                              recipient_id, message, sources, qna_id, attachments, metadata, prompt_tokens,
                              completion_tokens)
        SELECT counter.tenant_id, counter.id, counter.bot_id, counter.last_seq, ${values.messageType},
               ${values.messageSource ?? 'bot'}, ${values.senderId ?? null}, ${values.recipientId ?? null},
               ${values.message}, ${json(values.sources ?? [])}::jsonb, ${values.qnaId ?? null},
               ${json(values.attachments ?? [])}::jsonb, ${json(values.metadata)}::jsonb,
               ${values.promptTokens ?? null}, ${values.completionTokens ?? null}
          FROM counter
        RETURNING *`,
  );
  if (!raw) throw new Error(`conversation ${conversation.id} vanished while a message was stored`);
  return fromRaw(raw);
}

type RawMessage = {
  id: string | number;
  tenant_id: number;
  conversation_id: number;
  bot_id: number;
  seq: number;
  message_type: string;
  message_source: string;
  sender_id: string | null;
  recipient_id: string | null;
  message: string;
  sources: MessageRow['sources'];
  qna_id: number | null;
  attachments: MessageRow['attachments'];
  metadata: MessageRow['metadata'];
  prompt_tokens: number | null;
  completion_tokens: number | null;
  created_at: string | Date;
};

/** A raw RETURNING row as Drizzle would have mapped it (bigint ids come back as text from pg). */
const fromRaw = (raw: RawMessage): MessageRow => ({
  id: Number(raw.id),
  tenantId: raw.tenant_id,
  conversationId: raw.conversation_id,
  botId: raw.bot_id,
  seq: raw.seq,
  messageType: raw.message_type,
  messageSource: raw.message_source,
  senderId: raw.sender_id,
  recipientId: raw.recipient_id,
  message: raw.message,
  sources: raw.sources,
  qnaId: raw.qna_id,
  attachments: raw.attachments,
  metadata: raw.metadata,
  promptTokens: raw.prompt_tokens,
  completionTokens: raw.completion_tokens,
  createdAt: new Date(raw.created_at),
});

/** A new conversation, seeded with the bot's welcome message (console.md section 4 New chat). */
export async function startConversation(
  db: DbOrTx,
  values: Pick<typeof conversations.$inferInsert, 'tenantId' | 'botId' | 'userId' | 'visitorId' | 'channel'>,
  welcome: string | null,
): Promise<{ conversation: ConversationRow; welcome: MessageRow }> {
  return db.transaction(async (tx) => {
    const [conversation] = await tx
      .insert(conversations)
      .values({ ...values, name: BOT.newConversationName })
      .returning();
    const seeded = await appendMessage(tx, conversation!, {
      messageType: 'bot',
      message: welcome?.trim() || BOT.welcomeMessage,
    });
    return { conversation: { ...conversation!, lastSeq: seeded.seq }, welcome: seeded };
  });
}

const monthOf = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);

/** Bot answers of the tenant this calendar month (UTC): what the plan's credits count. */
export async function botMessagesThisMonth(db: DbOrTx, tenantId: number, now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const [row] = await db
    .select({ n: messageUsage.botMessages })
    .from(messageUsage)
    .where(and(eq(messageUsage.tenantId, tenantId), eq(messageUsage.month, monthOf(now))));
  return { used: row?.n ?? 0, start, end };
}

/** Counts one bot answer against this month's credits. */
export async function countBotAnswer(db: DbOrTx, tenantId: number, now = new Date()): Promise<void> {
  await db
    .insert(messageUsage)
    .values({ tenantId, month: monthOf(now), botMessages: 1 })
    .onConflictDoUpdate({
      target: [messageUsage.tenantId, messageUsage.month],
      set: { botMessages: sql`${messageUsage.botMessages} + 1` },
    });
}

/** The last `limit` messages before a sequence number, oldest first (the model's history). */
export async function messagesBefore(db: DbOrTx, conversationId: number, beforeSeq: number, limit: number) {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), lt(messages.seq, beforeSeq)))
    .orderBy(desc(messages.seq))
    .limit(limit);
  return rows.reverse();
}
