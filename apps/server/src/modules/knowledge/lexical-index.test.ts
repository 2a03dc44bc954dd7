import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../core/db/database.js';
import {
  bm25Top,
  type CollectionIndex,
  HEADING_WEIGHT,
  IndexBuilder,
  LexicalIndexCache,
  parseTsvector,
  type VersionedCollection,
} from './lexical-index.js';

const indexOf = (chunks: Record<number, string>, version = 1): CollectionIndex => {
  const builder = new IndexBuilder();
  for (const [id, tsvector] of Object.entries(chunks)) builder.add(Number(id), tsvector);
  return builder.build(version);
};

/** BM25 of one term in one chunk, written out (k1 1.2, b 0.75). */
const bm25 = (tf: number, df: number, total: number, length: number, averageLength: number) =>
  Math.log(1 + (total - df + 0.5) / (df + 0.5)) *
  ((tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * length) / averageLength)));

describe('parseTsvector', () => {
  it('reads each lexeme with its positions, a heading position (weight A) counting HEADING_WEIGHT, whatever the quoting', () => {
    const seen: Array<[string, number]> = [];
    parseTsvector(
      `'ajv-merge-patch':18B 'document':1A,7 'it''s':3 'back\\\\slash':4 'bare' 'title':2A`,
      (l, tf) => seen.push([l, tf]),
    );
    expect(HEADING_WEIGHT).toBeGreaterThan(1);
    expect(seen).toEqual([
      ['ajv-merge-patch', 1],
      ['document', HEADING_WEIGHT + 1],
      ["it's", 1],
      ['back\\slash', 1],
      ['bare', 1],
      ['title', HEADING_WEIGHT],
    ]);
  });

  it('reads an empty tsvector as nothing', () => {
    const seen: string[] = [];
    parseTsvector('', (l) => seen.push(l));
    expect(seen).toEqual([]);
  });
});

describe('bm25Top', () => {
  const index = indexOf({
    10: `'refund':1,5,9 'polici':2`, // length 4
    11: `'refund':1 'ship':2,3,4,6,7,8,9,10,11,12`, // length 11
    12: `'ship':1 'polici':2`, // length 2
    13: `'warranti':1`,
  });

  it('ranks by BM25 with document frequency and average length over the collection', () => {
    const top = bm25Top([index], ['refund', 'polici'], 10);
    const average = (4 + 11 + 2 + 1) / 4;
    expect(top.map((c) => c.chunkId)).toEqual([10, 12, 11]);
    expect(top[0]!.score).toBeCloseTo(bm25(3, 2, 4, 4, average) + bm25(1, 2, 4, 4, average), 10);
    expect(top[2]!.score).toBeCloseTo(bm25(1, 2, 4, 11, average), 10);
  });

  it('keeps the k best, lower chunk id first on ties, and finds nothing for unknown terms', () => {
    const twins = indexOf({ 7: `'a':1`, 3: `'a':1`, 5: `'a':1` });
    expect(bm25Top([twins], ['a'], 2).map((c) => c.chunkId)).toEqual([3, 5]);
    expect(bm25Top([twins], ['zzz'], 2)).toEqual([]);
    expect(bm25Top([twins], [], 2)).toEqual([]);
  });

  it('takes frequencies over all the collections of a scope', () => {
    const other = indexOf({ 20: `'refund':1`, 21: `'refund':1`, 22: `'warranti':1`, 23: `'warranti':1` });
    const [best] = bm25Top([index, other], ['warranti'], 1);
    // 'warranti' is in 3 of 8 chunks now, and the average length is over all 8.
    expect(best).toEqual({ chunkId: 13, score: expect.closeTo(bm25(1, 3, 8, 1, 22 / 8), 10) });
  });
});

/** A database stand-in that answers the cache's chunk reads from `chunks` and counts them. */
function fakeDb(chunks: Record<string, Array<[number, string]>>) {
  const dialect = new PgDialect();
  const reads: string[] = [];
  const db = {
    execute: async (query: SQL) => {
      const [tenant, type, collection, after, limit] = dialect.sqlToQuery(query).params as [
        number,
        string,
        number,
        number,
        number,
      ];
      const key = `${tenant}:${type}:${collection}`;
      reads.push(key);
      const rows = (chunks[key] ?? [])
        .filter(([id]) => id > after)
        .slice(0, limit)
        .map(([id, search]) => ({ id, search }));
      return { rows };
    },
  };
  return { db: db as unknown as DbOrTx, reads, chunks };
}

const file = (collectionId: number, version: number): VersionedCollection => ({
  tenantId: 1,
  sourceType: 'file',
  collectionId,
  version,
});

describe('LexicalIndexCache', () => {
  it('builds a missing index in the background and serves it only at its version', async () => {
    const { db, reads, chunks } = fakeDb({ '1:file:1': [[1, `'refund':1`]] });
    const cache = new LexicalIndexCache(db, { maxBytes: 1 << 20 });
    expect(cache.lookup([file(1, 4)])).toBeNull();
    await cache.idle();
    const [found] = cache.lookup([file(1, 4)])!;
    expect(found!.stale).toBe(false);
    expect(bm25Top([found!.index], ['refund'], 5).map((c) => c.chunkId)).toEqual([1]);

    chunks['1:file:1']!.push([2, `'refund':1,2`]);
    // A writer bumped the version: the old index is answered, stale, with its last chunk id.
    expect(cache.lookup([file(1, 5)])).toEqual([{ index: found!.index, stale: true }]);
    expect(found!.index.lastChunkId).toBe(1);
    await cache.idle();
    const indexes = cache.lookup([file(1, 5)])!.map((f) => f.index);
    expect(bm25Top(indexes, ['refund'], 5).map((c) => c.chunkId)).toEqual([2, 1]);
    expect(reads).toEqual(['1:file:1', '1:file:1']);
    expect(cache.stats).toMatchObject({ served: 3, stale: 1, missed: 1, builds: 2 });
  });

  it('answers null until every collection of the scope is built', async () => {
    const { db } = fakeDb({ '1:file:1': [[1, `'a':1`]], '1:file:2': [[2, `'a':1`]] });
    const cache = new LexicalIndexCache(db, { maxBytes: 1 << 20 });
    cache.lookup([file(1, 1)]);
    await cache.idle();
    expect(cache.lookup([file(1, 1), file(2, 1)])).toBeNull();
    await cache.idle();
    expect(cache.lookup([file(1, 1), file(2, 1)])).toHaveLength(2);
  });

  it('drops the least recently used collections past its size, and never keeps one bigger than that', async () => {
    const big = (start: number) =>
      Array.from({ length: 50 }, (_, i): [number, string] => [start + i, `'w${i}':1 'common':2`]);
    const { db, reads } = fakeDb({ '1:file:1': big(1), '1:file:2': big(101), '1:file:3': big(201) });
    const probe = new LexicalIndexCache(db, { maxBytes: 1 << 20 });
    probe.lookup([file(1, 1)]);
    await probe.idle();
    const oneIndex = probe.usedBytes;

    const cache = new LexicalIndexCache(db, { maxBytes: 2 * oneIndex });
    for (const id of [1, 2]) {
      cache.lookup([file(id, 1)]);
      await cache.idle();
    }
    cache.lookup([file(1, 1)]); // 1 is now the most recently used
    cache.lookup([file(3, 1)]);
    await cache.idle();
    expect(cache.stats.evictions).toBe(1);
    expect(cache.lookup([file(1, 1)])).not.toBeNull();
    expect(cache.lookup([file(3, 1)])).not.toBeNull();
    expect(cache.lookup([file(2, 1)])).toBeNull(); // evicted, so rebuilt
    expect(cache.usedBytes).toBeLessThanOrEqual(2 * oneIndex);

    const tiny = new LexicalIndexCache(db, { maxBytes: oneIndex - 1 });
    tiny.lookup([file(1, 1)]);
    await tiny.idle();
    const before = reads.length;
    expect(tiny.lookup([file(1, 1)])).toBeNull();
    await tiny.idle();
    expect(reads.length).toBe(before); // too big at this version: not read again
    expect(tiny.usedBytes).toBe(0);
  });

  it('reads a large collection in batches and reports a failed build without breaking later ones', async () => {
    const many = Array.from({ length: 2500 }, (_, i): [number, string] => [i + 1, `'x':1`]);
    const { db, reads } = fakeDb({ '1:file:1': many });
    const cache = new LexicalIndexCache(db, { maxBytes: 1 << 24 });
    cache.lookup([file(1, 1)]);
    await cache.idle();
    // 100 chunks first, then batches doubling while the reads stay quick, up to 1000: 100 + 200 +
    // 400 + 800 + 1000, and a last read that finds nothing more. A slow read (a busy machine) keeps
    // a batch from doubling (or shrinks it, to 10 at least), so only the bounds are certain: 6 reads
    // at best, 251 at 10 each.
    expect(reads.length).toBeGreaterThanOrEqual(6);
    expect(reads.length).toBeLessThanOrEqual(251);
    expect(cache.lookup([file(1, 1)])![0]!.index.size).toBe(2500);

    const warnings: string[] = [];
    const failing = {
      execute: async () => Promise.reject(new Error('connection lost')),
    } as unknown as DbOrTx;
    const broken = new LexicalIndexCache(failing, { maxBytes: 1 << 20, warn: (_d, m) => warnings.push(m) });
    broken.lookup([file(1, 1)]);
    await broken.idle();
    expect(warnings).toEqual(['retrieval index build failed']);
  });
});
