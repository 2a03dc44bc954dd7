import { DEFAULT_ROLES, OWNER_ROLE_DESCRIPTION, SEEDED_FEATURES } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { rolePermissions, roles } from '../../core/db/schema.js';
import { syncOwnerGrants } from './roles.queries.js';

/** Platform features, idempotent: run at every start; owners of every tenant receive new ones. */
export async function seedFeatures(db: DbOrTx): Promise<void> {
  for (const name of SEEDED_FEATURES) {
    await db.execute(sql`
      INSERT INTO features (tenant_id, name) VALUES (NULL, ${name})
      ON CONFLICT (coalesce(tenant_id, 0), lower(name)) DO NOTHING`);
  }
  await syncOwnerGrants(db);
}

/**
 * The roles every new workspace starts with: Owner (everything) and the default roles of the
 * contracts (Admin, Agent, Viewer, Member), each with its one-line description and grants.
 */
export async function createTenantRoles(tx: DbOrTx, tenantId: number): Promise<{ ownerRoleId: number }> {
  const [owner] = await tx
    .insert(roles)
    .values({ tenantId, name: 'Owner', description: OWNER_ROLE_DESCRIPTION, isOwner: true })
    .returning({ id: roles.id });
  await syncOwnerGrants(tx, tenantId);
  for (const preset of DEFAULT_ROLES) {
    const [role] = await tx
      .insert(roles)
      .values({ tenantId, name: preset.name, description: preset.description })
      .returning({ id: roles.id });
    const grants = Object.entries(preset.grants).map(
      ([feature, g]) =>
        sql`(${feature}, ${g.create ?? false}::boolean, ${g.read ?? false}::boolean, ${g.write ?? false}::boolean)`,
    );
    await tx.execute(sql`
      INSERT INTO ${rolePermissions} (tenant_id, role_id, feature_id, can_create, can_read, can_write)
      SELECT ${tenantId}, ${role!.id}, f.id, g.c, g.r, g.w
      FROM (VALUES ${sql.join(grants, sql`, `)}) AS g(name, c, r, w)
      JOIN features f ON f.tenant_id IS NULL AND f.name = g.name`);
  }
  return { ownerRoleId: owner!.id };
}
