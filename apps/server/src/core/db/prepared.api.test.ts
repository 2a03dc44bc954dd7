import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../../test/database.js';
import { type Db, queryPrepared, queryRows, sql } from './database.js';
import { isUniqueViolation } from './errors.js';

// Named prepared statements: on PostgreSQL through node-postgres, on PGlite through its extended
// protocol directly. Either way they must read and write exactly as a plain query does.
describe(`queryPrepared (${testDatabaseKind()})`, () => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.database.db;
    await db.execute(
      sql`CREATE TABLE prepared_probe (id int PRIMARY KEY, label text, tags text[], meta jsonb, at timestamptz)`,
    );
  });
  afterAll(() => test?.drop());

  const insert = (
    tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0],
    id: number,
    label: string | null,
  ) =>
    queryPrepared<{ id: number }>(
      tx,
      sql`INSERT INTO prepared_probe (id, label, tags, meta, at)
          VALUES (${id}, ${label}, ${`{a,b}`}::text[], ${JSON.stringify({ n: id })}::jsonb, ${'2026-01-02T03:04:05Z'}::timestamptz)
          RETURNING id`,
    );
  const read = (id: number) =>
    sql`SELECT id, label, tags, meta, at, ${'x'}::text AS echo FROM prepared_probe WHERE id = ${id}`;
  const ids = async () =>
    (await queryRows<{ id: number }>(db, sql`SELECT id FROM prepared_probe ORDER BY id`)).map((r) => r.id);

  it('reads every type as a plain query does, on first use and once prepared', async () => {
    await insert(db, 1, 'one');
    await insert(db, 2, null);
    for (const id of [1, 2, 1]) {
      const [prepared] = await queryPrepared(db, read(id));
      const [plain] = await queryRows(db, read(id));
      expect(prepared).toEqual(plain);
    }
    const [row] = await queryPrepared<Record<string, unknown>>(db, read(1));
    expect(row).toMatchObject({ id: 1, label: 'one', tags: ['a', 'b'], meta: { n: 1 }, echo: 'x' });
    // Timestamps stay text, as Drizzle's drivers leave them for its own column mapping.
    expect(typeof row?.at).toBe('string');
    expect(new Date(String(row?.at)).toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('joins the transaction it runs in: a rollback undoes it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, 10, 'in transaction');
        const [seen] = await queryPrepared<{ id: number }>(tx, read(10));
        expect(seen?.id).toBe(10);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await ids()).not.toContain(10);
  });

  it('fails with the database error, rolls its transaction back and still works afterwards', async () => {
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, 20, 'first');
        await insert(tx, 1, 'duplicate of an existing id');
      }),
    ).rejects.toSatisfy(isUniqueViolation);
    expect(await ids()).not.toContain(20);
    await insert(db, 21, 'after the error');
    expect(await ids()).toContain(21);
  });

  it('outside a transaction never runs inside another caller’s open one', async () => {
    let inserted!: () => void;
    const insertedInTx = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const rolledBack = db
      .transaction(async (tx) => {
        await insert(tx, 30, 'rolled back');
        inserted();
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await insertedInTx;
    await insert(db, 31, 'outside');
    expect(await rolledBack).toBe('roll back');
    const after = await ids();
    expect(after).toContain(31);
    expect(after).not.toContain(30);
  });
});
