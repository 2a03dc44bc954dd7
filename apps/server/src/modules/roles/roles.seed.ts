import { SEEDED_FEATURES } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { rolePermissions, roles } from '../../core/db/schema.js';
import { syncOwnerGrants } from './roles.queries.js';

/** Reads a new Member gets: enough to land on Home and edit their own profile. */
const MEMBER_READS = ['Home', 'Profile'];

/** Platform features, idempotent: run at every start; owners of every tenant receive new ones. */
export async function seedFeatures(db: DbOrTx): Promise<void> {
  for (const name of SEEDED_FEATURES) {
    await db.execute(sql`
      INSERT INTO features (tenant_id, name) VALUES (NULL, ${name})
      ON CONFLICT (coalesce(tenant_id, 0), lower(name)) DO NOTHING`);
  }
  await syncOwnerGrants(db);
}

/** The roles every new workspace starts with: Owner (everything) and Member (Home and Profile). */
export async function createTenantRoles(tx: DbOrTx, tenantId: number): Promise<{ ownerRoleId: number }> {
  const [owner] = await tx
    .insert(roles)
    .values({ tenantId, name: 'Owner', isOwner: true })
    .returning({ id: roles.id });
  const [member] = await tx.insert(roles).values({ tenantId, name: 'Member' }).returning({ id: roles.id });
  await syncOwnerGrants(tx, tenantId);
  await tx.execute(sql`
    INSERT INTO ${rolePermissions} (tenant_id, role_id, feature_id, can_read)
    SELECT ${tenantId}, ${member!.id}, f.id, true FROM features f
    WHERE f.tenant_id IS NULL AND f.name IN (${sql.join(
      MEMBER_READS.map((n) => sql`${n}`),
      sql`, `,
    )})`);
  return { ownerRoleId: owner!.id };
}
