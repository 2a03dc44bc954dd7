import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../core/db/database.js';
import { loadTemplate } from './pglite-template.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** Which engine this test run uses: the Vitest project sets TEST_DB (api-pglite or api-pg). */
export const testDatabaseKind = (): TestDatabaseKind =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export type TestDatabase = { database: Database; url?: string; drop(): Promise<void> };

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL (dropped afterwards), so files never share rows or jobs.
 */
export async function createTestDatabase(kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', loadDataDir: loadTemplate() });
    return { database, drop: () => database.close() };
  }
  const url = await createServerDatabase();
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  return {
    database,
    url,
    drop: async () => {
      await database.close();
      await dropServerDatabase(url);
    },
  };
}

export async function createServerDatabase(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `parley_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropServerDatabase(url: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
