import { MESSAGES, type Role, type User } from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';
import { conflict } from '../../core/errors.js';

type UserRow = typeof users.$inferSelect;

/**
 * A tenant's users (all, or one) in the API's User shape, roles with their grants and features
 * built in SQL: one statement, which every request whose session is not cached pays for. It is a
 * named prepared statement: planning this statement cost PGlite four times what running it does.
 */
const usersStatement = (tenantId: number, userId?: number) => sql`
  SELECT u.id, u.tenant_id, t.name AS tenant_name, u.first_name, u.last_name, u.email, u.username,
    u.user_type, u.email_verified, u.created_at, u.bots_restricted, u.password_hash,
    coalesce((
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
      WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id), '[]'::json) AS roles,
    -- The affiliates module's table, read by name: a member who is also a partner keeps both areas.
    exists (SELECT 1 FROM partners p WHERE p.user_id = u.id) AS is_partner
  FROM users u JOIN tenants t ON t.id = u.tenant_id
  WHERE u.tenant_id = ${tenantId} ${userId === undefined ? sql`` : sql`AND u.id = ${userId}`}
  ORDER BY u.id`;

type UserListRow = {
  id: number;
  tenant_id: number;
  tenant_name: string;
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  user_type: User['user_type'];
  email_verified: boolean;
  created_at: string | Date;
  bots_restricted: boolean;
  /** Read for the session check only (SessionResolver); never part of the User shape. */
  password_hash: string | null;
  roles: Role[];
  is_partner: boolean;
};

function toUser({ bots_restricted, created_at, password_hash: _hash, ...raw }: UserListRow): User {
  // The drivers hand raw timestamps over as text; the column maps them as Drizzle's selects do.
  const created = users.createdAt.mapFromDriverValue(created_at as string) as Date;
  return { ...raw, created_at: created.toISOString(), all_bots: !bots_restricted };
}

/** Every user of a tenant, by id. */
export async function loadUsers(db: DbOrTx, tenantId: number): Promise<User[]> {
  return (await queryPrepared<UserListRow>(db, usersStatement(tenantId))).map(toUser);
}

export async function loadUser(db: DbOrTx, tenantId: number, userId: number): Promise<User | undefined> {
  const [raw] = await queryPrepared<UserListRow>(db, usersStatement(tenantId, userId));
  return raw && toUser(raw);
}

/** A user with their password hash, from which their access tokens' stamp is computed. */
export async function loadSessionUser(
  db: DbOrTx,
  tenantId: number,
  userId: number,
): Promise<{ user: User; passwordHash: string | null } | undefined> {
  const [raw] = await queryPrepared<UserListRow>(db, usersStatement(tenantId, userId));
  return raw && { user: toUser(raw), passwordHash: raw.password_hash };
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
