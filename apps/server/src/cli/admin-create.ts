import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PASSWORD_MIN_LENGTH } from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../core/db/database.js';
import { tenants, userRoles, users } from '../core/db/schema.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { createTenantRoles, seedFeatures } from '../modules/roles/roles.seed.js';

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
  const generated = !values.password;
  const password = values.password ?? randomBytes(12).toString('base64url');
  if (password.length < PASSWORD_MIN_LENGTH)
    fail(`The password needs at least ${PASSWORD_MIN_LENGTH} characters`);

  const config = loadConfig();
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL }
      : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pgdata` },
  );
  try {
    await seedFeatures(database.db);
    const passwordHash = await hashPassword(password);
    const promoted = await database.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email.data}`);
      if (existing) {
        await tx.update(users).set({ userType: 'admin', passwordHash }).where(eq(users.id, existing.id));
        return true;
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
          username: `${email.data!.split('@')[0]!.replace(/[^A-Za-z0-9_.-]/g, '')}-admin`,
          passwordHash,
          userType: 'admin',
          emailVerified: true,
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values({ tenantId: tenant!.id, userId: user!.id, roleId: ownerRoleId });
      return false;
    });
    console.log(`${promoted ? 'Promoted' : 'Created'} platform admin ${email.data}`);
    if (generated) console.log(`Generated password (shown once): ${password}`);
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
