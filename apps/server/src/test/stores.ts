import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { documents } from '../modules/knowledge/knowledge.schema.js';
import type { TestServer } from './server.js';

/** Reads `read` until `settled` says its value is final (a sync or training that ended); answers it. */
export async function settle<T>(
  read: () => Promise<T>,
  settled: (value: T) => boolean,
  timeout = 30_000,
): Promise<T> {
  let value: T | undefined;
  await expect
    .poll(
      async () => {
        value = await read();
        return settled(value);
      },
      { timeout, interval: 100 },
    )
    .toBe(true);
  return value!;
}

/** When each of a store's trained records was last written: which ones a change retrained. */
export async function documentTimes(server: TestServer, storeId: number): Promise<Map<number, string>> {
  const rows = await server.database.db
    .select({ sourceId: documents.sourceId, updatedAt: documents.updatedAt, hash: documents.contentHash })
    .from(documents)
    .where(and(eq(documents.sourceType, 'store'), eq(documents.collectionId, storeId)));
  return new Map(rows.map((r) => [r.sourceId, `${r.updatedAt.toISOString()}:${r.hash}`]));
}
