import { and, desc, eq, gte, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { bots, leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';
import { notifications } from '../notifications/notifications.schema.js';

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;

const ofBot = (tenantId: number, botId: number) => and(eq(leads.tenantId, tenantId), eq(leads.botId, botId));

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

/**
 * Whether the conversation exists and is one of this bot's; with a visitor id, also that visitor's
 * own (a visitor may link a lead only to the conversation they are having).
 */
export async function conversationOfBot(
  db: DbOrTx,
  conversation: { tenantId: number; botId: number; id: number; visitorId?: string },
): Promise<boolean> {
  const { tenantId, botId, id, visitorId } = conversation;
  const found = await db.$count(
    conversations,
    and(
      eq(conversations.id, id),
      eq(conversations.botId, botId),
      eq(conversations.tenantId, tenantId),
      visitorId === undefined ? undefined : eq(conversations.visitorId, visitorId),
    ),
  );
  return found > 0;
}

/**
 * Serialises submissions of the same answers to the same bot until the transaction ends, so two
 * copies sent at once (a double click, a retried request) cannot both pass the duplicate check.
 */
export async function lockSubmission(tx: DbOrTx, botId: number, fields: Record<string, string>) {
  const key = `parley.lead:${botId}:${JSON.stringify(Object.entries(fields).sort())}`;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
}

/** A form lead of the bot with exactly these answers and conversation, created since `since`. */
export async function sameLeadSince(
  db: DbOrTx,
  lead: { tenantId: number; botId: number; conversationId: number | null; fields: Record<string, string> },
  since: Date,
): Promise<LeadRow | undefined> {
  const conversation: SQL | undefined =
    lead.conversationId === null
      ? isNull(leads.conversationId)
      : eq(leads.conversationId, lead.conversationId);
  const [row] = await db
    .select()
    .from(leads)
    .where(
      and(
        ofBot(lead.tenantId, lead.botId),
        eq(leads.source, 'lead_form'),
        conversation,
        sql`${leads.fields} = ${JSON.stringify(lead.fields)}::jsonb`,
        gte(leads.createdAt, since),
      ),
    )
    .orderBy(desc(leads.id))
    .limit(1);
  return row;
}

export async function insertLead(db: DbOrTx, lead: NewLead): Promise<LeadRow> {
  const [row] = await db.insert(leads).values(lead).returning();
  return row!;
}

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

/** Deletes one lead of the bot; false when the tenant's bot has no such lead. */
export async function deleteLead(db: DbOrTx, tenantId: number, botId: number, leadId: number) {
  const gone = await db
    .delete(leads)
    .where(and(ofBot(tenantId, botId), eq(leads.id, leadId)))
    .returning({ id: leads.id });
  return gone.length > 0;
}

/**
 * Deletes the bell notifications that announced the lead: their body repeats the visitor's name and
 * email, so erasing the lead must erase them too. The keys are the ones the lead form (`lead:`) and
 * the hand-off's contact form (`contact:`) notify under.
 */
export async function deleteLeadNotifications(db: DbOrTx, tenantId: number, leadId: number) {
  await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.tenantId, tenantId),
        inArray(notifications.dedupeKey, [`lead:${leadId}`, `contact:${leadId}`]),
      ),
    );
}
