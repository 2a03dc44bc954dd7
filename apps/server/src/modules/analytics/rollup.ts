import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../core/db/database.js';
import { dayStart, isoDay, liveRows } from './analytics.queries.js';

/** Workspaces rolled up per scheduler tick; the rest wait for the next tick. */
const TENANTS_PER_TICK = 50;
const DAY_MS = 86_400_000;

/**
 * Days before yesterday (UTC) are closed: yesterday stays live a day longer, so a hand-off request
 * made just before midnight and answered after it still gets its reply time.
 */
export function rollupCutoff(now: Date): string {
  return isoDay(new Date(dayStart(isoDay(now)).getTime() - DAY_MS));
}

/**
 * Rolls one workspace's closed days into analytics_daily, from where it stopped up to `cutoff`.
 * The state row is locked for the transaction, so two workers cannot roll the same days; rows are
 * upserted by their key, so running it again changes nothing.
 */
export async function rollUpTenant(db: Db, tenantId: number, cutoff: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO analytics_rollup_state (tenant_id, rolled_until)
      SELECT ${tenantId}, coalesce(
        (SELECT ((min(created_at)) AT TIME ZONE 'UTC')::date FROM messages WHERE tenant_id = ${tenantId}),
        ${cutoff}::date)
      ON CONFLICT (tenant_id) DO NOTHING`);
    const [state] = await queryRows<{ rolled_until: string }>(
      tx,
      sql`SELECT rolled_until::text AS rolled_until FROM analytics_rollup_state WHERE tenant_id = ${tenantId} FOR UPDATE`,
    );
    const from = state?.rolled_until;
    if (!from || from >= cutoff) return;
    const rows = liveRows(tenantId, dayStart(from), dayStart(cutoff), null);
    await tx.execute(sql`
      INSERT INTO analytics_daily (day, bot_id, channel, metric, key, value, tenant_id)
      SELECT day, bot_id, channel, metric, key, value, ${tenantId} FROM (${rows}) r
      ON CONFLICT (tenant_id, day, bot_id, channel, metric, key) DO UPDATE SET value = excluded.value`);
    await tx.execute(
      sql`UPDATE analytics_rollup_state SET rolled_until = ${cutoff}::date, updated_at = now() WHERE tenant_id = ${tenantId}`,
    );
  });
}

/** The scheduled task: workspaces whose rollup is behind the cutoff (or never ran), a batch per tick. */
export async function rollUpDue(db: Db, now: Date): Promise<number> {
  const cutoff = rollupCutoff(now);
  const due = await queryRows<{ id: number }>(
    db,
    sql`
    SELECT t.id FROM tenants t LEFT JOIN analytics_rollup_state s ON s.tenant_id = t.id
     WHERE s.tenant_id IS NULL OR s.rolled_until < ${cutoff}::date
     ORDER BY t.id LIMIT ${TENANTS_PER_TICK}`,
  );
  for (const { id } of due) await rollUpTenant(db, Number(id), cutoff);
  return due.length;
}
