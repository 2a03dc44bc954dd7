import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import { bots } from './bots.schema.js';

/** The tenant's bot, or a 404 (another tenant's bot looks exactly like one that does not exist). */
export async function requireBot(db: DbOrTx, tenantId: number, botId: number) {
  const [bot] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.tenantId, tenantId)));
  if (!bot) throw notFound('Bot not found');
  return bot;
}
