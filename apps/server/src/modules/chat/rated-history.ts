import type { ChatMessage } from '@parley/contracts';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { messageRatings } from '../analytics/analytics.schema.js';
import { toMessage } from './chat.queries.js';
import { messages } from './chat.schema.js';

/** The stored -1 / 1 of `message_ratings` as the clients name it. */
const ratingOf = (value: number | null): ChatMessage['rating'] =>
  value === null ? null : value > 0 ? 'up' : 'down';

/**
 * A conversation's messages after a sequence number, each bot message with the reader's own thumbs
 * (`raterKey`, analytics/rater.ts): one query, the ratings LEFT JOINed on (message, rater key), a
 * lookup in the ratings' unique index per message. Matching the key, never the message alone, is
 * what keeps another person's rating out of the reader's history.
 */
export async function messagesRatedBy(
  db: DbOrTx,
  conversationId: number,
  afterSeq: number,
  raterKey: string,
): Promise<ChatMessage[]> {
  const rows = await db
    .select({ message: messages, rating: messageRatings.rating })
    .from(messages)
    .leftJoin(
      messageRatings,
      and(eq(messageRatings.messageId, messages.id), eq(messageRatings.raterKey, raterKey)),
    )
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq));
  return rows.map(({ message, rating }) =>
    message.messageType === 'bot' ? { ...toMessage(message), rating: ratingOf(rating) } : toMessage(message),
  );
}
