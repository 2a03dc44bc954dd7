import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PASSWORD_MIN_LENGTH } from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../core/db/database.js';
import { tenants, userRoles, users } from '../core/db/schema.js';
import { EventBus } from '../core/events/bus.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { AUTHZ_CHANGED, type AuthzChanged } from '../modules/auth/sessions.js';
import { createTenantRoles, seedFeatures } from '../modules/roles/roles.seed.js';
import { freeUsername } from '../modules/users/users.queries.js';

const PLATFORM_TENANT = 'Parley Platform';

/**
 * npm run admin:create -- --email you@example.com [--password ...] [--first-name ..] [--last-name ..]
 * Makes (or promotes) a platform admin: user_type admin, owner of the platform workspace. The API
 * never makes admins; only someone with shell access to the server can.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string', default: 'Platform' },
      'last-name': { type: 'string', default: 'Admin' },
    },
  });
  const email = z.email().safeParse(values.email?.trim().toLowerCase());
  if (!email.success) fail('Usage: npm run admin:create -- --email you@example.com [--password secret]');
  if (values.password !== undefined && values.password.length < PASSWORD_MIN_LENGTH) {
    fail(`The password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  }

  const config = loadConfig();
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL }
      : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pgdata` },
  );
  try {
    await seedFeatures(database.db);
    const [existing] = await database.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email.data}`);
    // Promoting keeps the account's password unless a new one is given; a new account gets one.
    const password = values.password ?? (existing ? undefined : randomBytes(12).toString('base64url'));
    const passwordHash = password ? await hashPassword(password) : undefined;
    const tenantId = await database.db.transaction(async (tx) => {
      if (existing) {
        await tx.update(users).set({ userType: 'admin', passwordHash }).where(eq(users.id, existing.id));
        return existing.tenantId;
      }
      const [tenant] = await tx
        .insert(tenants)
        .values({ name: PLATFORM_TENANT })
        .returning({ id: tenants.id });
      const { ownerRoleId } = await createTenantRoles(tx, tenant!.id);
      const [user] = await tx
        .insert(users)
        .values({
          tenantId: tenant!.id,
          firstName: values['first-name']!,
          lastName: values['last-name']!,
          email: email.data!,
          username: await freeUsername(tx, email.data!),
          passwordHash,
          userType: 'admin',
          emailVerified: true,
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values({ tenantId: tenant!.id, userId: user!.id, roleId: ownerRoleId });
      return tenant!.id;
    });
    // Running servers (on a PostgreSQL server) drop their cached copy of this user at once.
    const events = new EventBus(database);
    await events.publish<AuthzChanged>(AUTHZ_CHANGED, { tenantId });
    console.log(`${existing ? 'Promoted' : 'Created'} platform admin ${email.data}`);
    if (password && !values.password) console.log(`Generated password (shown once): ${password}`);
  } finally {
    await database.close();
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
