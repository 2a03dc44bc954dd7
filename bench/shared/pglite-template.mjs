// Shared by the benchmarks: an embedded database already migrated. PGlite's first start (its initdb
// and every migration) costs about 7 s alone and over a minute on a loaded CI machine, and measures
// nothing a benchmark is about; copying a migrated directory costs a fraction of a second. Made once
// per set of migrations (the server's migrationsFingerprint, as the API tests' template), in the
// system's temp directory.
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATABASE = pathToFileURL(path.join(ROOT, 'apps/server/dist/core/db/database.js')).href;

/**
 * The template: `pgdata/` (a closed, migrated data directory) and `dump.tar` (the same, as PGlite's
 * dump for an in-memory database). Made by the server's own openDatabase, so it is what a first
 * start leaves; made in a directory of its own and renamed, so concurrent benches never see half.
 */
async function ensureTemplate() {
  const { migrationsFingerprint, openDatabase } = await import(DATABASE);
  const dir = path.join(tmpdir(), `parley-bench-pglite-${migrationsFingerprint()}`);
  if (existsSync(path.join(dir, 'dump.tar'))) return dir;
  const partial = mkdtempSync(`${dir}-partial-`);
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(partial, 'pgdata') });
  await database.close();
  const client = new PGlite({ dataDir: path.join(partial, 'pgdata'), extensions: { vector } });
  const dump = await client.dumpDataDir('none');
  await client.close();
  writeFileSync(path.join(partial, 'dump.tar'), Buffer.from(await dump.arrayBuffer()));
  try {
    renameSync(partial, dir);
  } catch {
    // Another bench made it first.
    rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/** Fills `pgdataDir` (a server's DATA_DIR/pgdata, or a directory PGlite opens) with the migrated template. */
export async function copyMigratedPglite(pgdataDir) {
  cpSync(path.join(await ensureTemplate(), 'pgdata'), pgdataDir, { recursive: true });
}

/** The migrated template as a dump, for openDatabase's `loadDataDir` (an in-memory database). */
export async function migratedPgliteDump() {
  return new Blob([readFileSync(path.join(await ensureTemplate(), 'dump.tar'))]);
}
