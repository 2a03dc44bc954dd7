import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { bots, leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;

/** A bot by its public uuid, with what a lead submission needs (no tenant: visitors have none). */
export async function botByUuid(db: DbOrTx, uuid: string) {
  const [bot] = await db
    .select({
      id: bots.id,
      tenantId: bots.tenantId,
      botName: bots.botName,
      allowedOrigins: bots.allowedOrigins,
      leadFormConfig: bots.leadFormConfig,
    })
    .from(bots)
    .where(eq(bots.uuid, uuid));
  return bot;
}

/** Whether the conversation exists and is one of this bot's. */
export async function conversationOfBot(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  conversationId: number,
): Promise<boolean> {
  const found = await db.$count(
    conversations,
    and(
      eq(conversations.id, conversationId),
      eq(conversations.botId, botId),
      eq(conversations.tenantId, tenantId),
    ),
  );
  return found > 0;
}

export async function insertLead(db: DbOrTx, lead: NewLead): Promise<LeadRow> {
  const [row] = await db.insert(leads).values(lead).returning();
  return row!;
}

const ofBot = (tenantId: number, botId: number) => and(eq(leads.tenantId, tenantId), eq(leads.botId, botId));

/** A page of the bot's leads, newest first, and how many there are in all. */
export async function pageOfLeads(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  page: { skip: number; limit: number },
): Promise<{ rows: LeadRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(ofBot(tenantId, botId))
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .offset(page.skip)
      .limit(page.limit),
    db.$count(leads, ofBot(tenantId, botId)),
  ]);
  return { rows, total };
}

/** Every lead of the bot, newest first (the CSV export). */
export async function allLeads(db: DbOrTx, tenantId: number, botId: number): Promise<LeadRow[]> {
  return db.select().from(leads).where(ofBot(tenantId, botId)).orderBy(desc(leads.createdAt), desc(leads.id));
}
