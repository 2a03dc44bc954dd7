import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../core/db/database.js';
import { botFileGroups, fileGroups } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { type DocumentMeta, type TrainOptions, trainDocument } from './ingest.js';
import { LexicalIndexCache } from './lexical-index.js';
import { prepareText } from './prepare.js';
import { RetrievalService } from './retrieval.service.js';

/**
 * A text long enough for many chunks (so training writes several batches), every paragraph about
 * `topic`, which no other text or title of these tests mentions (searches ask for the topic alone: matching
 * is OR-style, so any shared word would find every document).
 */
function bookAbout(topic: string, paragraphs = 60) {
  const words = 'parcel warehouse invoice courier voucher receipt label tracking customs'.split(' ');
  return Array.from({ length: paragraphs }, (_, p) => {
    const filler = Array.from({ length: 300 }, (_, w) => words[(p + w) % words.length]).join(' ');
    return `${topic} ${p}. ${filler}`;
  }).join('\n\n');
}

describe('trainDocument: a large document trained in small transactions', () => {
  let server: TestServer;
  let owner: Account;
  let tenantId: number;
  let botId: number;
  let groupId: number;
  let retrieval: RetrievalService;
  let cache: LexicalIndexCache;
  let sourceId = 0;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await signupOwner(server);
    tenantId = owner.user.tenant_id;
    botId = (await insertBot(server, tenantId)).id;
    const [group] = await server.database.db
      .insert(fileGroups)
      .values({ tenantId, groupName: 'books' })
      .returning();
    groupId = group!.id;
    await server.database.db.insert(botFileGroups).values({ tenantId, botId, fileGroupId: groupId });
    cache = new LexicalIndexCache(server.database.db, { maxBytes: 1 << 24 });
    retrieval = new RetrievalService(server.database.db, null, undefined, cache);
  });
  afterAll(() => server?.close());

  const db = () => server.database.db;
  const newMeta = (title: string): DocumentMeta => ({
    tenantId,
    sourceType: 'file',
    sourceId: ++sourceId,
    collectionId: groupId,
    title,
  });
  const train = (meta: DocumentMeta, text: string, options?: TrainOptions) =>
    trainDocument(db(), meta, prepareText(meta.title, null, [{ text }]), options);

  /** Titles found for a query, from the in-memory index (rebuilt when stale) and from the API. */
  async function found(query: string): Promise<string[]> {
    const direct = (await retrieval.search(tenantId, botId, query)).hits.map((h) => h.page_title ?? '');
    const viaApi = await server.post<{ hits: { page_title: string }[] }>(
      `/api/knowledge/search/${botId}`,
      { query },
      { token: owner.access_token },
    );
    expect(viaApi.status).toBe(200);
    expect(new Set(viaApi.body.hits.map((h) => h.page_title))).toEqual(new Set(direct));
    return [...new Set(direct)];
  }

  async function chunkRows(documentId: number) {
    return queryRows<{ generation: number; n: number; distinct_index: number }>(
      db(),
      sql`SELECT generation, count(*)::int AS n, count(DISTINCT chunk_index)::int AS distinct_index
        FROM chunks WHERE document_id = ${documentId} GROUP BY generation ORDER BY generation`,
    );
  }

  it('keeps new chunks out of answers until all are written, then swaps them in at once', async () => {
    const meta = newMeta('volume-a.txt');
    const seen: string[][] = [];
    let batches = 0;
    const result = await train(meta, bookAbout('otters'), {
      onProgress: async () => {
        batches += 1;
        if (batches === 2) seen.push(await found('otters'));
      },
    });
    expect(result).toMatchObject({ unchanged: false });
    expect(batches).toBeGreaterThan(2);
    expect(seen).toEqual([[]]); // half-written: invisible
    expect(await found('otters')).toEqual(['volume-a.txt']);
    await cache.idle();
    expect(await found('otters')).toEqual(['volume-a.txt']);
    const rows = await chunkRows(result!.documentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(result!.chunkCount);
    expect(rows[0]!.distinct_index).toBe(result!.chunkCount);

    // The same text again changes nothing.
    const again = await train(meta, bookAbout('otters'));
    expect(again).toMatchObject({
      documentId: result!.documentId,
      unchanged: true,
      chunkCount: result!.chunkCount,
    });
    expect(await chunkRows(result!.documentId)).toEqual(rows);
  });

  it('answers from the old text while a retrain writes, and from the new text alone after', async () => {
    const meta = newMeta('volume-b.txt');
    const first = await train(meta, bookAbout('herons'));
    await found('herons');
    await cache.idle(); // a fresh index holding the old text
    const during: string[][] = [];
    const second = await train(meta, bookAbout('egrets', 40), {
      onProgress: async (written) => {
        if (during.length === 0 && written > 0) during.push(await found('herons'), await found('egrets'));
      },
    });
    expect(during).toEqual([['volume-b.txt'], []]);
    expect(second!.documentId).toBe(first!.documentId);
    // Stale index (old chunks in it) and SQL for the newer ones: the old text is gone already.
    expect(await found('herons')).toEqual([]);
    expect(await found('egrets')).toEqual(['volume-b.txt']);
    await cache.idle();
    expect(await found('herons')).toEqual([]);
    expect(await found('egrets')).toEqual(['volume-b.txt']);
    const rows = await chunkRows(second!.documentId);
    expect(rows).toHaveLength(1); // old generation deleted
    expect(rows[0]!.n).toBe(second!.chunkCount);
  });

  it('abandons a run whose source went away, and cleans up its chunks', async () => {
    const meta = newMeta('volume-c.txt');
    const first = await train(meta, bookAbout('swans'));
    const before = await chunkRows(first!.documentId);
    const abandoned = await train(meta, bookAbout('geese'), { onLive: async () => false });
    expect(abandoned).toBeNull();
    expect(await chunkRows(first!.documentId)).toEqual(before);
    expect(await found('geese')).toEqual([]);
    expect(await found('swans')).toEqual(['volume-c.txt']);
  });

  it('leaves a run killed half-way invisible, and the next run removes what it wrote', async () => {
    const meta = newMeta('volume-d.txt');
    const first = await train(meta, bookAbout('cranes'));
    const controller = new AbortController();
    await expect(
      train(meta, bookAbout('storks'), {
        signal: controller.signal,
        onProgress: (written) => {
          if (written > 0) controller.abort(new Error('worker died'));
        },
      }),
    ).rejects.toThrow('worker died');
    expect((await chunkRows(first!.documentId)).length).toBe(2); // the live one and the dead run's
    expect(await found('storks')).toEqual([]);
    expect(await found('cranes')).toEqual(['volume-d.txt']);

    const retried = await train(meta, bookAbout('storks'));
    const rows = await chunkRows(retried!.documentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(retried!.chunkCount);
    expect(await found('storks')).toEqual(['volume-d.txt']);
    expect(await found('cranes')).toEqual([]);
  });

  it('lets the newer of two overlapping runs win, never a mix of both', async () => {
    const meta = newMeta('volume-e.txt');
    let newer: Awaited<ReturnType<typeof train>> | undefined;
    // The older run (a worker that lost its lease) is overtaken by the run that took its job over.
    const older = await train(meta, bookAbout('pelicans'), {
      onProgress: async () => {
        newer ??= await train(meta, bookAbout('cormorants', 30));
      },
    });
    expect(older).toBeNull();
    expect(newer).toMatchObject({ unchanged: false });
    const rows = await chunkRows(newer!.documentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(newer!.chunkCount);
    expect(await found('cormorants')).toEqual(['volume-e.txt']);
    expect(await found('pelicans')).toEqual([]);
  });

  it('ends with nothing when the document is deleted while it trains', async () => {
    const meta = newMeta('volume-f.txt');
    const result = await train(meta, bookAbout('ibises'), {
      onProgress: async (written) => {
        if (written > 0)
          await db().execute(
            sql`DELETE FROM documents WHERE tenant_id = ${tenantId} AND source_type = 'file' AND source_id = ${meta.sourceId}`,
          );
      },
    });
    expect(result).toBeNull();
    const left = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM chunks WHERE tenant_id = ${tenantId} AND page_title = 'volume-f.txt'`,
    );
    expect(left[0]!.n).toBe(0);
    expect(await found('ibises')).toEqual([]);
  });
});
