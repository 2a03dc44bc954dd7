import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFingerprint } from '../core/db/database.js';

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * A migrated PGlite data directory, dumped once and reused by every API test file: PGlite's own
 * initdb costs seconds per file, loading a dump a fraction of that. Keyed by the migrations, so a
 * new migration makes a new template.
 */
export function templatePath(): string {
  return path.join(tmpdir(), `parley-pglite-template-${migrationsFingerprint()}.tar`);
}

export async function ensureTemplate(): Promise<string> {
  const target = templatePath();
  if (existsSync(target)) return target;
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, target);
  return target;
}

export function loadTemplate(): Blob | undefined {
  const file = templatePath();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
