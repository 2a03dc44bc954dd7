import { and, asc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { bots } from '../bots/bots.schema.js';
import { llmSettings } from './llm.schema.js';

export type LlmRow = typeof llmSettings.$inferSelect;
export type LlmValues = Omit<typeof llmSettings.$inferInsert, 'id' | 'tenantId' | 'createdAt'>;

const mine = (tenantId: number, id: number) =>
  and(eq(llmSettings.tenantId, tenantId), eq(llmSettings.id, id));

export const listSettings = (db: DbOrTx, tenantId: number): Promise<LlmRow[]> =>
  db.select().from(llmSettings).where(eq(llmSettings.tenantId, tenantId)).orderBy(asc(llmSettings.id));

export async function findSetting(db: DbOrTx, tenantId: number, id: number): Promise<LlmRow | undefined> {
  const [row] = await db.select().from(llmSettings).where(mine(tenantId, id));
  return row;
}

/** Whether a bot's `llm_model` names an active setting of the tenant: the bot then answers through it. */
export async function isActiveModel(db: DbOrTx, tenantId: number, llmModel: string | null): Promise<boolean> {
  const id = Number(llmModel);
  if (!llmModel || !Number.isSafeInteger(id) || id <= 0) return false;
  return (await findSetting(db, tenantId, id))?.isActive === true;
}

/** Whether another setting of the tenant has this name (case-insensitive). */
export async function nameTaken(db: DbOrTx, tenantId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: llmSettings.id })
    .from(llmSettings)
    .where(
      and(
        eq(llmSettings.tenantId, tenantId),
        sql`lower(${llmSettings.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(llmSettings.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertSetting(db: DbOrTx, tenantId: number, values: LlmValues): Promise<LlmRow> {
  const [row] = await db
    .insert(llmSettings)
    .values({ ...values, tenantId })
    .returning();
  return row!;
}

export async function updateSetting(
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: Partial<LlmValues>,
): Promise<LlmRow | undefined> {
  const [row] = await db
    .update(llmSettings)
    .set({ ...values, updatedAt: new Date() })
    .where(mine(tenantId, id))
    .returning();
  return row;
}

export async function deleteSetting(db: DbOrTx, tenantId: number, id: number): Promise<boolean> {
  const rows = await db.delete(llmSettings).where(mine(tenantId, id)).returning({ id: llmSettings.id });
  return rows.length > 0;
}

/** The names of the tenant's bots answering with each setting (bots.llm_model holds its id as text). */
export async function botNamesBySetting(db: DbOrTx, tenantId: number): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ llmModel: bots.llmModel, name: bots.botName })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), isNotNull(bots.llmModel)))
    .orderBy(asc(bots.botName));
  const names = new Map<number, string[]>();
  for (const row of rows) {
    const id = Number(row.llmModel);
    names.set(id, [...(names.get(id) ?? []), row.name]);
  }
  return names;
}

/** Bots of the tenant answering with this setting (bots.llm_model holds its id as text) lose it. */
export async function clearBotsModel(db: DbOrTx, tenantId: number, id: number): Promise<number> {
  const rows = await db
    .update(bots)
    .set({ llmModel: null, updatedAt: new Date() })
    .where(and(eq(bots.tenantId, tenantId), eq(bots.llmModel, String(id))))
    .returning({ id: bots.id });
  return rows.length;
}

/**
 * The state an answer's model call leaves on the setting: a failure, or a success after one. The
 * row changes only when the state does (so answers that keep failing, or keep working, write
 * nothing), and `updated_at` stays: the owner did not edit it. The row when it changed.
 */
export async function recordAnswerCall(
  db: DbOrTx,
  tenantId: number,
  id: number,
  result: { ok: boolean; detail: string; latencyMs: number },
): Promise<LlmRow | undefined> {
  const [row] = await db
    .update(llmSettings)
    .set({
      lastTestOk: result.ok,
      lastTestDetail: result.detail,
      lastTestLatencyMs: result.latencyMs,
      lastTestedAt: new Date(),
    })
    .where(
      and(
        mine(tenantId, id),
        result.ok ? eq(llmSettings.lastTestOk, false) : sql`${llmSettings.lastTestOk} IS DISTINCT FROM false`,
      ),
    )
    .returning();
  return row;
}
