import type { ChatMessage } from '@parley/contracts';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { messageRatings } from '../analytics/analytics.schema.js';
import { toMessage } from '../chat/chat.queries.js';
import { messages } from '../chat/chat.schema.js';

export type ThreadPage = { messages: ChatMessage[]; has_earlier: boolean };

const ratingOf = (value: number | null): ChatMessage['rating'] =>
  value === null ? null : value > 0 ? 'up' : 'down';

/**
 * The newest `limit` messages of a conversation before `beforeSeq` (all of them when absent), oldest
 * first, each bot answer with the reader's own thumbs (as the full read gives them). One row more is
 * read to tell whether older ones remain; the (conversation_id, seq) index walks backwards from the
 * boundary, so a page costs the same at message 50 and at message 50 000.
 */
export async function threadPage(
  db: DbOrTx,
  conversationId: number,
  raterKey: string,
  page: { beforeSeq?: number; limit: number },
): Promise<ThreadPage> {
  const rows = await db
    .select({ message: messages, rating: messageRatings.rating })
    .from(messages)
    .leftJoin(
      messageRatings,
      and(eq(messageRatings.messageId, messages.id), eq(messageRatings.raterKey, raterKey)),
    )
    .where(
      and(
        eq(messages.conversationId, conversationId),
        page.beforeSeq === undefined ? undefined : lt(messages.seq, page.beforeSeq),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(page.limit + 1);
  const hasEarlier = rows.length > page.limit;
  const shown = rows.slice(0, page.limit).reverse();
  return {
    messages: shown.map(({ message, rating }) =>
      message.messageType === 'bot'
        ? { ...toMessage(message), rating: ratingOf(rating) }
        : toMessage(message),
    ),
    has_earlier: hasEarlier,
  };
}
