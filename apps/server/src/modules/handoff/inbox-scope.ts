import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import { botsOfRestricted } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { type ConversationRow, requireConversation } from '../chat/chat.queries.js';

/** Who reads the inbox: enough of AuthContext to know which bots they work with. */
export type InboxReader = {
  tenantId: number;
  userId: number;
  user: { all_bots?: boolean; roles: Array<{ is_owner: boolean }> };
};

/** A teammate the owner restricted to some bots (owners always see every bot). */
export const isRestricted = (auth: InboxReader) =>
  auth.user.all_bots === false && !auth.user.roles.some((role) => role.is_owner);

/**
 * The bots a restricted agent works with, as a subquery of bot ids (the same set as their bots list
 * and home page: botsOfRestricted).
 */
export const workedBots = (tenantId: number, userId: number): SQL =>
  sql`(select ${bots.id} from ${bots} where ${bots.tenantId} = ${tenantId} and ${botsOfRestricted(userId)})`;

/**
 * The condition on a conversation's bot column for this reader: none for an agent who sees every
 * bot; otherwise only their bots' conversations (list, search, counts, unread alike).
 */
export function botScope(auth: InboxReader, botColumn: SQL): SQL | undefined {
  if (!isRestricted(auth)) return undefined;
  return sql`${botColumn} in ${workedBots(auth.tenantId, auth.userId)}`;
}

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
