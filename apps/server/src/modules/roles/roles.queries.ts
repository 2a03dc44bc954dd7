import type { Feature, Role } from '@parley/contracts';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { features, rolePermissions, roles, userRoles, users } from '../../core/db/schema.js';

type FeatureRow = typeof features.$inferSelect;

export const toFeature = (row: FeatureRow): Feature => ({
  id: row.id,
  name: row.name,
  description: row.description,
  tenant_id: row.tenantId,
  is_archived: row.isArchived,
});

/** Features a tenant sees: the platform's own and the ones it created. */
export const visibleToTenant = (tenantId: number) =>
  or(isNull(features.tenantId), eq(features.tenantId, tenantId));

export async function listFeatures(db: DbOrTx, tenantId: number): Promise<Feature[]> {
  const rows = await db.select().from(features).where(visibleToTenant(tenantId)).orderBy(asc(features.id));
  return rows.map(toFeature);
}

export async function findFeature(
  db: DbOrTx,
  tenantId: number,
  featureId: number,
): Promise<FeatureRow | undefined> {
  const [row] = await db
    .select()
    .from(features)
    .where(and(eq(features.id, featureId), visibleToTenant(tenantId)));
  return row;
}

export async function findFeatureByName(
  db: DbOrTx,
  tenantId: number,
  name: string,
): Promise<FeatureRow | undefined> {
  const [row] = await db
    .select()
    .from(features)
    .where(and(visibleToTenant(tenantId), sql`lower(${features.name}) = lower(${name})`));
  return row;
}

/** Roles of a tenant (all, or the given ids) with their feature permissions. */
export async function loadRoles(db: DbOrTx, tenantId: number, roleIds?: number[]): Promise<Role[]> {
  if (roleIds && roleIds.length === 0) return [];
  const roleRows = await db
    .select()
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), roleIds ? inArray(roles.id, roleIds) : undefined))
    .orderBy(asc(roles.id));
  if (roleRows.length === 0) return [];
  const grants = await db
    .select({ grant: rolePermissions, feature: features })
    .from(rolePermissions)
    .innerJoin(features, eq(features.id, rolePermissions.featureId))
    .where(
      and(
        eq(rolePermissions.tenantId, tenantId),
        inArray(
          rolePermissions.roleId,
          roleRows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(features.id));
  return roleRows.map((role) => ({
    id: role.id,
    tenant_id: role.tenantId,
    name: role.name,
    description: role.description,
    is_owner: role.isOwner,
    feature_permissions: grants
      .filter((g) => g.grant.roleId === role.id)
      .map(({ grant, feature }) => ({
        role_id: grant.roleId,
        feature_permission_id: grant.featureId,
        can_create: grant.canCreate,
        can_read: grant.canRead,
        can_write: grant.canWrite,
        feature_permission: toFeature(feature),
      })),
  }));
}

export async function findRole(db: DbOrTx, tenantId: number, roleId: number) {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)));
  return row;
}

/** Who still needs a role: the users holding it, and the invitations not yet answered or expired that offer it. */
export async function roleUse(
  db: DbOrTx,
  tenantId: number,
  roleId: number,
): Promise<{ holders: number; invitations: number }> {
  const [row] = await queryRows<{ holders: number; invitations: number }>(
    db,
    sql`SELECT
      (SELECT count(*) FROM user_roles WHERE tenant_id = ${tenantId} AND role_id = ${roleId})::int AS holders,
      (SELECT count(*) FROM invitations WHERE tenant_id = ${tenantId} AND role_id = ${roleId}
         AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now())::int AS invitations`,
  );
  return { holders: Number(row?.holders ?? 0), invitations: Number(row?.invitations ?? 0) };
}

/** How many users hold an owner role in the tenant (a workspace must keep one). */
export async function countOwners(db: DbOrTx, tenantId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${userRoles.userId})::int` })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.tenantId, tenantId), eq(roles.isOwner, true)));
  return row?.n ?? 0;
}

export async function isOwner(db: DbOrTx, tenantId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, userId), eq(roles.isOwner, true)));
  return (row?.n ?? 0) > 0;
}

/**
 * Gives every owner role a full grant on every feature it can see and lacks one for. Run at start
 * (features added by later releases) and after a tenant creates a feature.
 */
export async function syncOwnerGrants(db: DbOrTx, tenantId?: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO role_permissions (tenant_id, role_id, feature_id, can_create, can_read, can_write)
    SELECT r.tenant_id, r.id, f.id, true, true, true
    FROM roles r
    JOIN features f ON f.tenant_id IS NULL OR f.tenant_id = r.tenant_id
    WHERE r.is_owner ${tenantId === undefined ? sql`` : sql`AND r.tenant_id = ${tenantId}`}
    ON CONFLICT (role_id, feature_id) DO UPDATE SET can_create = true, can_read = true, can_write = true`);
}

/** The workspace owners' addresses: who hears about new leads, usage and payments. */
export async function ownerEmails(db: DbOrTx, tenantId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: users.email })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.tenantId, tenantId), eq(roles.isOwner, true)));
  return rows.map((row) => row.email);
}
