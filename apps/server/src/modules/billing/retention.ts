import { queryRows, sql } from '../../core/db/database.js';
import type { ModuleDeps } from '../../core/module.js';

/** Conversations deleted per statement: each statement stays short on a busy database. */
const BATCH = 500;

/**
 * The plan's chat history retention: conversations whose last message is older than the plan's
 * days are deleted (with their messages, by cascade), batch by batch. 0 days keeps everything;
 * with PLAN_LIMITS off nothing is deleted.
 */
export async function applyRetention(deps: Pick<ModuleDeps, 'db' | 'config'>, now: Date): Promise<number> {
  if (deps.config.PLAN_LIMITS === 'off') return 0;
  let deleted = 0;
  for (;;) {
    const rows = await queryRows<{ id: number }>(
      deps.db,
      sql`WITH kept AS (
            SELECT t.id AS tenant_id,
              coalesce(
                (SELECT p.chat_history_retention FROM subscriptions s JOIN plans p ON p.id = s.plan_id
                  WHERE s.tenant_id = t.id AND s.status IN ('active', 'authenticated', 'pending')
                  ORDER BY s.id DESC LIMIT 1),
                (SELECT p.chat_history_retention FROM plans p WHERE p.is_default ORDER BY p.id LIMIT 1),
                0) AS days
            FROM tenants t)
          DELETE FROM conversations WHERE id IN (
            SELECT c.id FROM conversations c JOIN kept ON kept.tenant_id = c.tenant_id
            WHERE kept.days > 0 AND c.last_message_at < ${now.toISOString()}::timestamptz - kept.days * interval '1 day'
            LIMIT ${BATCH})
          RETURNING id`,
    );
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
