import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, parse, protocol, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import {
  Column,
  DrizzleQueryError,
  getTableColumns,
  Param,
  Placeholder,
  SQL,
  StringChunk,
  sql,
  Table,
} from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import {
  type PgDatabase,
  PgDialect,
  type PgQueryResultHKT,
  type PgTable,
  PgTransaction,
} from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseOptions =
  /** PostgreSQL server through a pool. */
  (
    | { kind: 'postgres'; url: string; poolSize?: number }
    /** Embedded PGlite; `dataDir` undefined keeps it in memory; `loadDataDir` starts from a dump. */
    | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
  ) & {
    /** Told how many migrations are about to run and when they are done (the start-up log). */
    onMigrations?: (event: { pending: number; done: boolean }) => void;
  };

/** Reports the migrations still to apply before running them, then once they are applied. */
async function reportingMigrations(
  report: DatabaseOptions['onMigrations'],
  appliedCount: () => Promise<number>,
  run: () => Promise<void>,
): Promise<void> {
  if (!report) return run();
  const pending = Math.max(0, journalEntries() - (await appliedCount().catch(() => 0)));
  report({ pending, done: false });
  await run();
  report({ pending, done: true });
}

function journalEntries(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * A fingerprint of the migrations' files. A migrated database kept as a template (the API tests'
 * and the benchmarks') is made once per fingerprint: a new migration makes a new one.
 */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json'))
      hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Drizzle's own record of applied migrations; missing (0) on a new database. */
const APPLIED_MIGRATIONS = 'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations';

type Unlisten = () => Promise<void>;

/** Whether chunk vectors are stored and searched (see `enableVectors`). */
export type VectorCapability = { enabled: boolean; dimensions: number };

/** One database, whichever engine: drizzle for queries, plus LISTEN/NOTIFY for events. */
export type Database = {
  kind: DatabaseKind;
  db: Db;
  /** Off until `enableVectors` finds pgvector. */
  vectors: VectorCapability;
  /** Calls `handler` for every NOTIFY on `channel`, from this process or any other. */
  listen(channel: string, handler: (payload: string) => void): Promise<Unlisten>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

const MIGRATIONS_DIR = fileURLToPath(new URL('../../../drizzle', import.meta.url));
/** Serialises migrations when several processes start on one server at once. */
const MIGRATION_LOCK_KEY = 72_541_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres'
    ? openPostgres(options.url, options.poolSize ?? 10, options.onMigrations)
    : openPglite(options.dataDir, options.loadDataDir, options.onMigrations);
}

async function openPglite(
  dataDir?: string,
  loadDataDir?: Blob,
  onMigrations?: DatabaseOptions['onMigrations'],
): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pgvector ships inside PGlite; loading it costs nothing until CREATE EXTENSION.
  const client = new PGlite({
    dataDir: dataDir ? path.resolve(dataDir) : undefined,
    loadDataDir,
    extensions: { vector },
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await reportingMigrations(
    onMigrations,
    async () => (await client.query<{ n: number }>(APPLIED_MIGRATIONS)).rows[0]?.n ?? 0,
    () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
  );
  pgliteStatements.set(dialectOf(db), new PgliteStatements(client));
  return {
    kind: 'pglite',
    db,
    vectors: { enabled: false, dimensions: 0 },
    listen: async (channel, handler) => client.listen(channel, handler),
    notify: async (channel, payload) => {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
  };
}

async function openPostgres(
  url: string,
  poolSize: number,
  onMigrations?: DatabaseOptions['onMigrations'],
): Promise<Database> {
  await migratePostgres(url, onMigrations);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  const listener = new PgListener(url);
  return {
    kind: 'postgres',
    db,
    vectors: { enabled: false, dimensions: 0 },
    listen: (channel, handler) => listener.listen(channel, handler),
    notify: async (channel, payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

async function migratePostgres(url: string, onMigrations?: DatabaseOptions['onMigrations']): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await reportingMigrations(
      onMigrations,
      async () => (await client.query<{ n: number }>(APPLIED_MIGRATIONS)).rows[0]?.n ?? 0,
      () => migrateNodePg(drizzleNodePg(client), { migrationsFolder: MIGRATIONS_DIR }),
    );
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/**
 * One dedicated connection holding every LISTEN of this process. If it drops it reconnects with
 * back-off and listens again, so events resume after a server restart.
 */
class PgListener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, handler: (payload: string) => void): Promise<Unlisten> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      const client = await this.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      for (const handler of this.handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.client = client;
    return client;
  }

  private reconnect(dead: pg.Client, delayMs = 500): void {
    if (this.closed || this.client !== dead) return;
    this.client = undefined;
    setTimeout(() => {
      if (this.closed) return;
      this.connect().catch(() => this.reconnectLater(Math.min(delayMs * 2, 10_000)));
    }, delayMs).unref();
  }

  private reconnectLater(delayMs: number): void {
    setTimeout(() => {
      if (!this.closed) this.connect().catch(() => this.reconnectLater(Math.min(delayMs * 2, 10_000)));
    }, delayMs).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

/**
 * Turns on vector search when an embedding model is configured: loads pgvector and makes
 * `chunk_embeddings` with its HNSW index, idempotently. Done at start rather than in the committed
 * migrations because PostgreSQL servers without pgvector must still migrate; there the capability
 * stays off and `warn` says why once.
 */
export async function enableVectors(
  database: Database,
  dimensions: number,
  warn: (message: string) => void,
): Promise<VectorCapability> {
  if (!Number.isInteger(dimensions) || dimensions <= 0)
    throw new Error('dimensions must be a positive integer');
  try {
    await database.db.execute(sql`CREATE EXTENSION IF NOT EXISTS vector`);
  } catch {
    warn(
      'EMBEDDING_MODEL is set but this PostgreSQL has no pgvector extension; answering uses full-text search only',
    );
    return database.vectors;
  }
  await database.db.execute(
    sql.raw(`CREATE TABLE IF NOT EXISTS chunk_embeddings (
      chunk_id integer PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
      tenant_id integer NOT NULL,
      embedding vector(${dimensions}) NOT NULL)`),
  );
  await database.db.execute(
    sql`CREATE INDEX IF NOT EXISTS chunk_embeddings_hnsw_idx ON chunk_embeddings USING hnsw (embedding vector_cosine_ops)`,
  );
  await database.db.execute(
    sql`CREATE INDEX IF NOT EXISTS chunk_embeddings_tenant_idx ON chunk_embeddings (tenant_id)`,
  );
  const [column] = await queryRows<{ type: string }>(
    database.db,
    sql`SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = 'chunk_embeddings'::regclass AND attname = 'embedding'`,
  );
  // A table made for another model's length cannot take these vectors: say so rather than fail ingest.
  if (column?.type !== `vector(${dimensions})`) {
    warn(
      `chunk_embeddings holds ${column?.type ?? 'unknown'} but EMBEDDING_DIMENSIONS is ${dimensions}; drop the table to re-embed. Answering uses full-text search only`,
    );
    return database.vectors;
  }
  database.vectors = { enabled: true, dimensions };
  return database.vectors;
}

/** Rows of a raw query, whichever driver ran it (both answer `{ rows }`). */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * Rows of a raw statement that the database plans once per connection (a named prepared statement),
 * for hot statements whose planning costs more than their execution, such as a message's write.
 * The name comes from the text, so each variant of a statement is its own.
 */
export async function queryPrepared<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const compiled = compile(query);
  const name = statementName(compiled.sql);
  const embedded = pgliteStatements.get(dialectOf(db));
  if (embedded) return embedded.query<T>(name, compiled.sql, compiled.params, db instanceof PgTransaction);
  // Straight to node-postgres (the pool, or the transaction's client) with Drizzle's raw row types:
  // Drizzle's prepared query object, built per call, cost a list request more than its reply.
  const client = (db._.session as unknown as { client: pg.Pool | pg.PoolClient }).client;
  try {
    const result = await client.query<T & pg.QueryResultRow>(
      { name, text: compiled.sql, types: RAW_TYPES },
      compiled.params,
    );
    return result.rows;
  } catch (error) {
    // Wrapped as Drizzle wraps a failed query, so callers read both paths' errors alike.
    throw new DrizzleQueryError(compiled.sql, compiled.params, error as Error);
  }
}

/**
 * A statement's text and parameters, as Drizzle compiles them. Hot statements are raw SQL and
 * conditions on columns of tables in the default schema, which a direct walk compiles at a fraction
 * of Drizzle's cost (its per-chunk entity checks and merges showed in bench/api's profile); anything
 * else (inlined params, placeholders, aliases, subqueries, views, other schemas, lists, objects)
 * goes through Drizzle.
 */
export function compile(query: SQL): { sql: string; params: unknown[] } {
  return compileDirect(query) ?? dialect.sqlToQuery(query);
}

/** The direct walk of `compile`; null for what it leaves to Drizzle. */
export function compileDirect(query: SQL): { sql: string; params: unknown[] } | null {
  const params: unknown[] = [];
  const parts: string[] = [];
  const value = (v: unknown) => {
    params.push(v);
    parts.push(`$${params.length}`);
  };
  const walk = (chunks: readonly unknown[]): boolean => {
    for (const chunk of chunks) {
      if (chunk instanceof StringChunk) parts.push(...chunk.value);
      else if (chunk instanceof SQL) {
        if (inlinesParams(chunk) || !walk(chunk.queryChunks)) return false;
      } else if (chunk === undefined) continue;
      else if (chunk === null || PRIMITIVES.has(typeof chunk)) value(chunk);
      else if (chunk instanceof Column) {
        const table = quotedTable(chunk.table);
        if (chunk.keyAsName || table === null) return false;
        parts.push(`${table}.${quoteName(chunk.name)}`);
      } else if (chunk instanceof Table) {
        const table = quotedTable(chunk);
        if (table === null) return false;
        parts.push(table);
      } else if (chunk instanceof Param) {
        if (chunk.value instanceof Placeholder) return false;
        const mapped = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
        if (mapped instanceof SQL) {
          if (!walk([mapped])) return false;
        } else if (mapped !== null && typeof mapped === 'object' && !(mapped instanceof Date)) return false;
        else value(mapped);
      } else return false;
    }
    return true;
  };
  return walk(query.queryChunks) ? { sql: parts.join(''), params } : null;
}

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'bigint']);
/** Where Drizzle keeps a table's schema and name (its `Table.Symbol`, not in its types). */
const TABLE_SCHEMA = Symbol.for('drizzle:Schema');
const TABLE_NAME = Symbol.for('drizzle:Name');
/** PostgreSQL's quoting of a name, as Drizzle's dialect writes it. */
const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A table of the default schema by its quoted name (an alias's is its own); null for another schema. */
function quotedTable(table: Table): string | null {
  const symbols = table as unknown as Record<symbol, string | undefined>;
  return symbols[TABLE_SCHEMA] === undefined ? quoteName(symbols[TABLE_NAME]!) : null;
}

/** `sql.inlineParams()` (private in Drizzle's types): values written into the text, not sent apart. */
const inlinesParams = (fragment: SQL) =>
  (fragment as unknown as { shouldInlineParams?: boolean }).shouldInlineParams === true;

/**
 * A statement's name comes from its text, so each variant of a statement is its own. Remembered by
 * text: hashing a list's long statement on every request showed in bench/api's profile.
 */
const statementNames = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 2_000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `parley_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < MAX_REMEMBERED_NAMES) statementNames.set(text, name);
  }
  return name;
}

/**
 * What Drizzle leaves as text in raw rows, on both engines: dates, timestamps and intervals, and
 * their arrays (numeric[] 1231, timestamp[] 1115, timestamptz[] 1185, interval[] 1187, date[] 1182).
 */
const KEPT_AS_TEXT = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];
const keptAsText = new Set(KEPT_AS_TEXT);
const asText = (value: string) => value;
/** node-postgres' parsers for raw rows, as Drizzle's own raw queries use them. */
const RAW_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    keptAsText.has(oid) ? asText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Each PGlite database's statements, found from a database or transaction by their shared dialect. */
const pgliteStatements = new WeakMap<PgDialect, PgliteStatements>();
/** A Drizzle database and its transactions share one dialect object (internal to Drizzle's types). */
const dialectOf = (db: DbOrTx) => (db as unknown as { dialect: PgDialect }).dialect;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** Rows as Drizzle's PGlite driver reads raw queries: objects, dates and intervals left as text. */
const PGLITE_RAW_ROWS = {
  rowMode: 'object' as const,
  parsers: Object.fromEntries(KEPT_AS_TEXT.map((oid) => [oid, asText])),
};

/**
 * Named prepared statements on PGlite, which its `query` does not offer: it parses and plans every
 * statement on each call, and in WebAssembly that costs a message's write more than running it
 * (bench/chat). The extended-protocol steps are PGlite's own `query`, with the Parse done once.
 */
class PgliteStatements {
  /** Parameter types of each statement parsed in this session, by name. */
  private readonly parameterTypes = new Map<string, number[]>();

  constructor(private readonly client: PGlite) {}

  /**
   * Inside a transaction the statement joins it; outside, it waits for any open transaction to end,
   * as PGlite's own `query` does.
   */
  async query<T>(name: string, text: string, params: unknown[], inTransaction: boolean): Promise<T[]> {
    const run = () => this.client._runExclusiveQuery(() => this.run<T>(name, text, params));
    try {
      return await (inTransaction ? run() : this.client._runExclusiveTransaction(run));
    } catch (error) {
      // Wrapped as Drizzle wraps a failed query, so callers read both engines' errors alike.
      throw new DrizzleQueryError(text, params, error as Error);
    }
  }

  private async run<T>(name: string, text: string, params: unknown[]): Promise<T[]> {
    const send = (message: Uint8Array) => this.client.execProtocolStream(message, { syncToFs: false });
    const messages: BackendMessage[] = [];
    try {
      const parameterTypes = await this.parsed(name, text, send);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = this.client.serializers[parameterTypes[i] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      messages.push(
        ...(await send(protocol.serialize.bind({ statement: name, values }))),
        ...(await send(protocol.serialize.describe({ type: 'P' }))),
        ...(await send(protocol.serialize.execute({}))),
      );
    } finally {
      messages.push(...(await send(protocol.serialize.sync())));
    }
    if (!this.client.isInTransaction()) await this.client.syncToFs();
    return (parse.parseResults(messages, this.client.parsers, PGLITE_RAW_ROWS)[0]?.rows ?? []) as T[];
  }

  /** The statement's parameter types, parsing it first if this session has not yet. */
  private async parsed(
    name: string,
    text: string,
    send: (message: Uint8Array) => Promise<BackendMessage[]>,
  ): Promise<number[]> {
    const known = this.parameterTypes.get(name);
    if (known) return known;
    await send(protocol.serialize.parse({ name, text }));
    const described = parse.parseDescribeStatementResults(
      await send(protocol.serialize.describe({ type: 'S', name })),
    );
    this.parameterTypes.set(name, described);
    return described;
  }
}

/**
 * A table's row from its raw form, as Drizzle maps it: a raw query's row or `row_to_json` (which
 * also travels in NOTIFY payloads), keyed by column name (snake_case) with driver values.
 */
export function rowOf<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

export { sql };
