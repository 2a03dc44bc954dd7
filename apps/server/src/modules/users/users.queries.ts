import { MESSAGES, type Role, type User } from '@parley/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { tenants, users } from '../../core/db/schema.js';
import { conflict } from '../../core/errors.js';

type UserRow = typeof users.$inferSelect;

/**
 * A user's roles with their grants and features, as the API's `Role[]`, built in SQL: with it a
 * user loads in one statement, which every request whose session is not cached pays for.
 */
const rolesOf = (user: typeof users) => sql<Role[]>`coalesce((
  SELECT json_agg(json_build_object(
      'id', r.id, 'tenant_id', r.tenant_id, 'name', r.name, 'description', r.description,
      'is_owner', r.is_owner,
      'feature_permissions', coalesce((
        SELECT json_agg(json_build_object(
            'role_id', rp.role_id, 'feature_permission_id', rp.feature_id,
            'can_create', rp.can_create, 'can_read', rp.can_read, 'can_write', rp.can_write,
            'feature_permission', json_build_object('id', f.id, 'name', f.name,
              'description', f.description, 'tenant_id', f.tenant_id, 'is_archived', f.is_archived)
          ) ORDER BY f.id)
        FROM role_permissions rp JOIN features f ON f.id = rp.feature_id
        WHERE rp.tenant_id = r.tenant_id AND rp.role_id = r.id), '[]'::json)
    ) ORDER BY r.id)
  FROM user_roles ur JOIN roles r ON r.id = ur.role_id AND r.tenant_id = ur.tenant_id
  WHERE ur.tenant_id = ${user.tenantId} AND ur.user_id = ${user.id}), '[]'::json)`;

/** Users of a tenant (all, or the given ids) in the API's User shape, roles included: one statement. */
export async function loadUsers(db: DbOrTx, tenantId: number, userIds?: number[]): Promise<User[]> {
  if (userIds && userIds.length === 0) return [];
  const rows = await db
    .select({
      user: users,
      tenantName: tenants.name,
      roles: rolesOf(users),
      // The affiliates module's table, read by name: a member who is also a partner keeps both areas.
      isPartner: sql<boolean>`exists (select 1 from partners p where p.user_id = ${users.id})`,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.tenantId, tenantId), userIds ? inArray(users.id, userIds) : undefined))
    .orderBy(asc(users.id));
  return rows.map(({ user, tenantName, roles, isPartner }) => ({
    id: user.id,
    tenant_id: user.tenantId,
    tenant_name: tenantName,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    username: user.username,
    user_type: user.userType,
    email_verified: user.emailVerified,
    created_at: user.createdAt.toISOString(),
    roles,
    all_bots: !user.botsRestricted,
    is_partner: isPartner,
  }));
}

export async function loadUser(db: DbOrTx, tenantId: number, userId: number): Promise<User | undefined> {
  const [user] = await loadUsers(db, tenantId, [userId]);
  return user;
}

export async function findUserRow(
  db: DbOrTx,
  tenantId: number,
  userId: number,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
  return row;
}

/** A user by email or username, across tenants: sign-in names are unique platform-wide. */
export async function findUserBySignInName(db: DbOrTx, name: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${name}) OR lower(${users.username}) = lower(${name})`)
    .limit(1);
  return row;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function usernameTaken(db: DbOrTx, username: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row !== undefined && row.id !== exceptUserId;
}

/** A username from the email's local part, with a number added until it is free. */
export async function freeUsername(tx: DbOrTx, email: string): Promise<string> {
  const base =
    (email.split('@')[0] ?? 'user')
      .replace(/[^A-Za-z0-9_.-]/g, '')
      .slice(0, 40)
      .padEnd(3, '0') || 'user';
  for (let n = 0; n < 50; n++) {
    const candidate = n === 0 ? base : `${base}${n + 1}`;
    if (!(await usernameTaken(tx, candidate))) return candidate;
  }
  throw conflict(MESSAGES.auth.usernameTaken);
}
