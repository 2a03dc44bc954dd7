// Shared by the benchmarks: a fresh database on a PostgreSQL server for one run.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
/** The server's own `pg`, for benches that talk to PostgreSQL directly. */
export const { default: pg } = await import(pathToFileURL(serverRequire.resolve('pg')).href);

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The databases a benchmark measures, BENCH_DATABASES: `pglite`, `postgres`, or both (the default). */
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres')
  .split(',')
  .map((d) => d.trim().toLowerCase());
export const measuresPglite = DATABASES.includes('pglite');
const measuresPostgres = DATABASES.includes('postgres');

/**
 * A PostgreSQL server to measure on (BENCH_DATABASE_URL, else the local server): a fresh database
 * named after the bench, dropped afterwards; null when the local server is not reachable or
 * BENCH_DATABASES leaves PostgreSQL out.
 */
export async function postgresDatabase(bench) {
  if (!measuresPostgres) return null;
  const explicit = process.env.BENCH_DATABASE_URL;
  const base = explicit ?? DEFAULT_PG_URL;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (explicit) throw new Error(`BENCH_DATABASE_URL is not reachable: ${error.message}`);
    console.log(`PostgreSQL: ${DEFAULT_PG_URL} is not reachable (${error.message}); measuring PGlite only.`);
    return null;
  }
  const name = `parley_bench_${bench}_${Date.now()}_${process.pid}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
