// bench/stores: the bare SQL floor of storing what Parley stored, outside Parley's code.
//
// After a row's Parley run (its server stopped), the run's own database is copied (PGlite: its data
// directory; PostgreSQL: CREATE DATABASE … TEMPLATE), the store's rows are read back from the copy
// (store_records of the store, its documents and their chunks; every stored column but the
// generated tsvector, as text), and the four tables Parley wrote them to are truncated
// (store_records, documents, chunks, chunk_collection_versions: fresh, empty relations with the same
// indexes, the chunks' generated tsvector column and GIN index, and the statement trigger bumping
// chunk_collection_versions). Then, timed: the same rows inserted again, table after table
// (records, documents, chunks), with multi-row INSERTs of as many rows as fit within 65,535
// parameters (32,767 on PGlite, see MAX_PARAMS), one transaction per INSERT; twice, the second
// pass the figure (the first warms the connection). No Parley code, no chunking, hashing or HTML
// work: only what the database must do to hold those rows. Drivers: `pg` (the server's) and
// `@electric-sql/pglite` with pgvector (the same package: the server has no copy of its own).
import { cpSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { DEFAULT_PG_URL, pg } from '../shared/postgres.mjs';

/**
 * The most bind parameters a statement may carry: PostgreSQL's protocol limit, 65,535; PGlite 0.4.6
 * answers a statement with more than 32,767 with no error and no rows inserted, and every later
 * query with no rows (its count is read as a signed 16-bit number), so half as many there.
 */
const MAX_PARAMS = { postgres: 65_535, pglite: 32_767 };

/** The tables, in the order their foreign keys need, with the rows of one store in each. */
const TABLES = [
  { name: 'store_records', where: 'store_id = $1' },
  { name: 'documents', where: "source_type = 'store' AND collection_id = $1" },
  {
    name: 'chunks',
    where: "document_id IN (SELECT id FROM documents WHERE source_type = 'store' AND collection_id = $1)",
  },
];

/** The columns a row is stored with (generated ones excluded) and each one's type. */
async function columnsOf(db, table) {
  const { rows } = await db.query(
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type
       FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
    [table],
  );
  return rows;
}

/** Every row of the store, each column as its text form, in id order. */
async function readStore(db, storeId) {
  const tables = [];
  for (const { name, where } of TABLES) {
    const columns = await columnsOf(db, name);
    const list = columns.map((c) => `"${c.name}"::text AS "${c.name}"`).join(', ');
    const { rows } = await db.query(`SELECT ${list} FROM ${name} WHERE ${where} ORDER BY id`, [storeId]);
    tables.push({ name, columns, rows: rows.map((row) => columns.map((c) => row[c.name])) });
  }
  return tables;
}

/** The size of rows' text forms, in MB (the bytes the INSERTs carry, about). */
const textMb = (rows) =>
  rows.reduce(
    (sum, row) => sum + row.reduce((n, value) => n + (value ? Buffer.byteLength(value) : 0), 0),
    0,
  ) / 1e6;

/** The timed part: each table's rows in multi-row INSERTs, one transaction each. */
async function insertAll(db, tables, maxParams) {
  const byTable = {};
  let statements = 0;
  const started = performance.now();
  for (const { name, columns, rows } of tables) {
    const tableStarted = performance.now();
    const perBatch = Math.floor(maxParams / columns.length);
    const names = columns.map((c) => `"${c.name}"`).join(', ');
    for (let offset = 0; offset < rows.length; offset += perBatch) {
      const batch = rows.slice(offset, offset + perBatch);
      const params = [];
      const tuples = batch.map((row) => {
        const cells = row.map((value, i) => {
          params.push(value);
          return `$${params.length}::text::${columns[i].type}`;
        });
        return `(${cells.join(', ')})`;
      });
      await db.query('BEGIN');
      await db.query(`INSERT INTO ${name} (${names}) VALUES ${tuples.join(', ')}`, params);
      await db.query('COMMIT');
      statements += 1;
    }
    byTable[name] = { rows: rows.length, ms: performance.now() - tableStarted, mb: textMb(rows) };
  }
  return { ms: performance.now() - started, statements, byTable };
}

/**
 * Reads the store's rows, then twice: empties the tables and times the inserts. The first pass warms
 * the connection (PGlite's WebAssembly compiled, the catalogue and plans cached, as they are in a
 * server that has been running); the second is the floor, the first's time kept beside it.
 */
async function floorOn(db, storeId, maxParams) {
  const tables = await readStore(db, storeId);
  const passes = [];
  for (let pass = 0; pass < 2; pass++) {
    await db.query('TRUNCATE store_records, documents, chunks, chunk_collection_versions');
    // Nothing of the copy or the truncation left for the timed inserts to flush (PostgreSQL: when
    // the role may checkpoint).
    await db.query('CHECKPOINT').catch(() => {});
    passes.push(await insertAll(db, tables, maxParams));
  }
  // The rows went back: the same count in each table.
  for (const { name, rows } of tables) {
    const { rows: count } = await db.query(`SELECT count(*)::int AS n FROM ${name}`);
    if (count[0].n !== rows.length)
      throw new Error(`floor: ${name} holds ${count[0].n} rows, not ${rows.length}`);
  }
  return { ...passes[1], firstMs: passes[0].ms };
}

/**
 * The floor on PGlite: `pgdata` (the stopped server's data directory) copied to `copyDir`, opened
 * in this process, the copy removed afterwards.
 */
export async function pgliteFloor(pgdata, copyDir, storeId) {
  cpSync(pgdata, copyDir, { recursive: true });
  const db = new PGlite({ dataDir: copyDir, extensions: { vector } });
  try {
    await db.waitReady;
    return await floorOn(db, storeId, MAX_PARAMS.pglite);
  } finally {
    await db.close();
    rmSync(copyDir, { recursive: true, force: true });
  }
}

/**
 * The floor on PostgreSQL: a copy of the row's database (`url`, no one connected to it any more)
 * made as a new database beside it, dropped afterwards.
 */
export async function postgresFloor(url, storeId) {
  const source = new URL(url);
  const sourceName = source.pathname.slice(1);
  const copyName = `${sourceName}_floor`;
  // Not connected to the source: a template must have no session.
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL ?? DEFAULT_PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${copyName} TEMPLATE ${sourceName}`);
  } finally {
    await admin.end();
  }
  const copy = new URL(url);
  copy.pathname = `/${copyName}`;
  const db = new pg.Client({ connectionString: copy.toString() });
  try {
    await db.connect();
    return await floorOn(db, storeId, MAX_PARAMS.postgres);
  } finally {
    await db.end();
    const drop = new pg.Client({ connectionString: url });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${copyName} WITH (FORCE)`).finally(() => drop.end());
  }
}
