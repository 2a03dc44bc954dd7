import type { ReplyWindow } from '@parley/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import type { ConversationRow } from '../chat/chat.queries.js';
import { messages } from '../chat/chat.schema.js';
import { hasReplyWindow, policyOf } from './handoff.machine.js';

/** The message's time as the channel gave it (milliseconds since the epoch), when it is one. */
const CHANNEL_TIME = sql`(CASE WHEN ${messages.metadata}->'message_metadata'->>'timestamp' ~ '^[0-9]{1,15}$'
  THEN to_timestamp((${messages.metadata}->'message_metadata'->>'timestamp')::bigint / 1000.0) END)`;

/**
 * When the channel user last wrote in the conversation, or null if never: the time the channel
 * gives the message (Meta's window runs from it), else when it was stored.
 */
export async function lastUserMessageAt(db: DbOrTx, conversationId: number): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<Date>`coalesce(${CHANNEL_TIME}, ${messages.createdAt})`.mapWith(
        (value: string | Date) => new Date(value),
      ),
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.messageType, 'user')))
    .orderBy(desc(messages.seq))
    .limit(1);
  return row?.at ?? null;
}

/** Whether an agent may reply now and why not; null for a channel without a window. */
export async function replyWindowOf(
  db: DbOrTx,
  conversation: Pick<ConversationRow, 'id' | 'channel'>,
  now: Date,
): Promise<ReplyWindow | null> {
  if (!hasReplyWindow(conversation.channel)) return null;
  return policyOf(conversation.channel).window(await lastUserMessageAt(db, conversation.id), now);
}
