import { and, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import {
  type BotWorker,
  botsOfRestricted,
  ofWorkingBots,
  restrictedToSomeBots,
} from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { type ConversationRow, requireConversation } from '../chat/chat.queries.js';

/** Who reads the inbox, and which bots they work with: the bots module's one rule. */
export type InboxReader = BotWorker;
export const isRestricted = restrictedToSomeBots;

/**
 * The condition on a conversation's bot column for this reader: none for an agent who sees every
 * bot; otherwise only their bots' conversations (list, search, counts, unread alike).
 */
export const botScope = (auth: InboxReader, botColumn: SQL): SQL | undefined =>
  ofWorkingBots(auth, botColumn);

/** Whether the reader works with this bot of their tenant. */
export async function worksWithBot(db: DbOrTx, auth: InboxReader, botId: number): Promise<boolean> {
  if (!isRestricted(auth)) return true;
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.tenantId, auth.tenantId), botsOfRestricted(auth.userId)));
  return rows.length > 0;
}

/**
 * A conversation of the reader's tenant and of a bot they work with; another bot's conversation
 * answers 404 like one that does not exist, for every route and socket frame that names it.
 */
export async function requireInboxConversation(
  db: DbOrTx,
  auth: InboxReader,
  id: number,
): Promise<ConversationRow> {
  const row = await requireConversation(db, auth.tenantId, id);
  if (!(await worksWithBot(db, auth, row.botId))) throw notFound('Conversation not found');
  return row;
}
