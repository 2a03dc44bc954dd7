import type { ChatMessage } from '@parley/contracts';
import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { messageRatings } from '../analytics/analytics.schema.js';
import { toMessage } from './chat.queries.js';
import { messages } from './chat.schema.js';

/** The stored -1 / 1 of `message_ratings` as the clients name it. */
const ratingOf = (value: number | null): ChatMessage['rating'] =>
  value === null ? null : value > 0 ? 'up' : 'down';

/**
 * A conversation's messages, each bot message with the reader's own thumbs (`raterKey`,
 * analytics/rater.ts): one query, the ratings LEFT JOINed on (message, rater key), a lookup in the
 * ratings' unique index per message. Matching the key, never the message alone, is what keeps
 * another person's rating out of the reader's history.
 */
async function ratedMessages(
  db: DbOrTx,
  raterKey: string,
  where: SQL | undefined,
  order: SQL,
  limit?: number,
): Promise<ChatMessage[]> {
  const query = db
    .select({ message: messages, rating: messageRatings.rating })
    .from(messages)
    .leftJoin(
      messageRatings,
      and(eq(messageRatings.messageId, messages.id), eq(messageRatings.raterKey, raterKey)),
    )
    .where(where)
    .orderBy(order);
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map(({ message, rating }) =>
    message.messageType === 'bot' ? { ...toMessage(message), rating: ratingOf(rating) } : toMessage(message),
  );
}

/** A conversation's messages after a sequence number, oldest first, with the reader's thumbs. */
export function messagesRatedBy(
  db: DbOrTx,
  conversationId: number,
  afterSeq: number,
  raterKey: string,
): Promise<ChatMessage[]> {
  const where = and(eq(messages.conversationId, conversationId), gt(messages.seq, afterSeq));
  return ratedMessages(db, raterKey, where, asc(messages.seq));
}

export type ThreadPage = { messages: ChatMessage[]; has_earlier: boolean };

/**
 * The newest `limit` messages of a conversation before `beforeSeq` (the newest of all when absent),
 * oldest first, with the reader's thumbs. One row more is read to tell whether older ones remain;
 * the (conversation_id, seq) index walks backwards from the boundary, so a page costs the same at
 * message 50 and at message 50 000.
 */
export async function messagesRatedBefore(
  db: DbOrTx,
  conversationId: number,
  raterKey: string,
  page: { beforeSeq?: number; limit: number },
): Promise<ThreadPage> {
  const before = page.beforeSeq === undefined ? undefined : lt(messages.seq, page.beforeSeq);
  const where = and(eq(messages.conversationId, conversationId), before);
  const rows = await ratedMessages(db, raterKey, where, desc(messages.seq), page.limit + 1);
  return { messages: rows.slice(0, page.limit).reverse(), has_earlier: rows.length > page.limit };
}
