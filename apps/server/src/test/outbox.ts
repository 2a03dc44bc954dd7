import { desc, sql } from 'drizzle-orm';
import type { Database } from '../core/db/database.js';
import { mailOutbox } from '../core/db/schema.js';

/** The newest mail to `to` in the outbox (when no SMTP is configured), waited for briefly. */
export async function outboxText(database: Database, to: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await database.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(sql`lower(${mailOutbox.toAddress}) = lower(${to})`)
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    if (row?.text) return row.text;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no outbox mail to ${to}`);
}
