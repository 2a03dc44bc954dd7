import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';

/** Whether `address` belongs to a user of the tenant now (addresses compare case-insensitively). */
export async function isUserOfTenant(db: DbOrTx, tenantId: number, address: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.email}) = lower(${address})`))
    .limit(1);
  return row !== undefined;
}
