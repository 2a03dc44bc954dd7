import type { QnA, SearchResult, TrainingProgress } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../core/db/database.js';
import { botFileGroups, fileGroups } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { removeDocument, replaceDocument } from './ingest.js';
import { IndexBuilder, LexicalIndexCache } from './lexical-index.js';
import { RetrievalService } from './retrieval.service.js';

const REFUNDS = ['refunds.md', 'Refunds are paid back within 30 days of the return.'] as const;

const as = (account: Account) => ({ token: account.access_token });

/** A bot of the account's tenant with one attached file group. */
async function botWithGroup(server: TestServer, account: Account) {
  const tenantId = account.user.tenant_id;
  const bot = await insertBot(server, tenantId);
  const [group] = await server.database.db
    .insert(fileGroups)
    .values({ tenantId, groupName: `group_${bot.id}` })
    .returning();
  await server.database.db.insert(botFileGroups).values({ tenantId, botId: bot.id, fileGroupId: group!.id });
  return { tenantId, botId: bot.id, groupId: group!.id };
}

function addFile(
  server: TestServer,
  tenantId: number,
  groupId: number,
  sourceId: number,
  title: string,
  text: string,
) {
  return server.database.db.transaction((tx) =>
    replaceDocument(tx, {
      tenantId,
      sourceType: 'file',
      sourceId,
      collectionId: groupId,
      title,
      sections: [{ text }],
    }),
  );
}

async function trainQna(server: TestServer, account: Account, botId: number): Promise<void> {
  const started = await server.post<{ task_id: string }>(
    `/api/training/train/qna/${botId}`,
    undefined,
    as(account),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  for (let tries = 0; tries < 300; tries++) {
    const progress = await server.get<TrainingProgress>(
      `/api/training/train/progress/${started.body.task_id}`,
      as(account),
    );
    if (progress.body.status === 'completed') return;
    if (progress.body.status === 'failed') throw new Error(`training failed: ${progress.body.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('training did not finish');
}

const searchApi = (server: TestServer, account: Account, botId: number, query: string) =>
  server.post<SearchResult>(`/api/knowledge/search/${botId}`, { query }, as(account));

const titles = (result: Pick<SearchResult, 'hits'>) => result.hits.map((h) => h.page_title);

describe('in-memory retrieval stage', () => {
  let server: TestServer;
  let owner: Account;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await signupOwner(server);
  });
  afterAll(() => server?.close());

  it('sees a document trained or deleted right after, whether its index is fresh or not', async () => {
    const { tenantId, botId, groupId } = await botWithGroup(server, owner);
    const cache = new LexicalIndexCache(server.database.db, { maxBytes: 1 << 24 });
    const retrieval = new RetrievalService(server.database.db, null, undefined, cache);
    const search = (query: string) => retrieval.search(tenantId, botId, query);
    await addFile(server, tenantId, groupId, 1, ...REFUNDS);
    await search('refund');
    await cache.idle();
    expect(titles(await search('how are refunds paid'))).toEqual(['refunds.md']);
    expect(cache.stats).toMatchObject({ served: 1, missed: 1 });

    await addFile(server, tenantId, groupId, 2, 'warranty.md', 'The warranty covers repairs for two years.');
    // Stale: the old index, and SQL for the chunks newer than it.
    expect(titles(await search('warranty repairs'))).toEqual(['warranty.md']);
    expect(titles((await searchApi(server, owner, botId, 'warranty repairs')).body)).toEqual(['warranty.md']);
    await cache.idle();
    expect(titles(await search('warranty repairs'))).toEqual(['warranty.md']); // rebuilt: in memory
    expect(cache.stats).toMatchObject({ served: 3, stale: 1, missed: 1 });

    await server.database.db.transaction((tx) => removeDocument(tx, tenantId, 'file', 1));
    expect((await search('how are refunds paid')).hits).toEqual([]);
    expect((await searchApi(server, owner, botId, 'how are refunds paid')).body.hits).toEqual([]);
    await cache.idle();
    expect((await search('how are refunds paid')).hits).toEqual([]);
    expect(cache.stats).toMatchObject({ served: 5, stale: 2, missed: 1 });
  });

  it('sees a Q&A pair trained or deleted right after', async () => {
    const { tenantId, botId } = await botWithGroup(server, owner);
    const cache = new LexicalIndexCache(server.database.db, { maxBytes: 1 << 24 });
    const retrieval = new RetrievalService(server.database.db, null, undefined, cache);
    const search = (query: string) => retrieval.search(tenantId, botId, query);
    await search('warm up');
    await cache.idle();

    const created = await server.post<QnA>(
      '/api/qna/',
      { bot_id: botId, question: 'How long does shipping take?', answer: 'Three to five business days.' },
      as(owner),
    );
    await trainQna(server, owner, botId);
    const asked = 'how long does shipping take';
    expect((await search(asked)).qna_match).toMatchObject({ qna_id: created.body.id });
    expect((await searchApi(server, owner, botId, asked)).body.qna_match).toMatchObject({
      qna_id: created.body.id,
    });
    await cache.idle();
    const fromMemory = await search(asked);
    expect(fromMemory.qna_match).toEqual({
      qna_id: created.body.id,
      question: 'How long does shipping take?',
      answer: 'Three to five business days.',
      overlap: 1,
    });
    expect(titles(fromMemory)).toEqual(['How long does shipping take?']);
    const served = cache.stats.served;

    expect((await server.delete(`/api/qna/${created.body.id}`, as(owner))).status).toBe(200);
    expect((await search(asked)).qna_match).toBeNull();
    expect((await searchApi(server, owner, botId, asked)).body.qna_match).toBeNull();
    await cache.idle();
    expect(await search(asked)).toMatchObject({ qna_match: null, hits: [] });
    // The chunk index answered both searches: stale (the pair's chunk deleted, dropped when read), then rebuilt.
    expect(cache.stats.served).toBe(served + 2);
  });

  it("never returns another tenant's chunk, even from an index entry holding it", async () => {
    const a = await botWithGroup(server, owner);
    await addFile(
      server,
      a.tenantId,
      a.groupId,
      10,
      'secret.md',
      'The vault code of tenant A is hidden here.',
    );
    const other = await signupOwner(server);
    const b = await botWithGroup(server, other);
    await addFile(server, b.tenantId, b.groupId, 10, 'public.md', 'Opening hours are nine to five.');

    const cache = new LexicalIndexCache(server.database.db, { maxBytes: 1 << 24 });
    const retrieval = new RetrievalService(server.database.db, null, undefined, cache);
    await retrieval.search(b.tenantId, b.botId, 'vault code');
    await cache.idle();
    // B's file group index replaced by one of A's chunks, at B's current version.
    const foreign = new IndexBuilder();
    const rows = await queryRows<{ id: number; search: string }>(
      server.database.db,
      sql`SELECT id, search::text AS search FROM chunks WHERE tenant_id = ${a.tenantId} AND collection_id = ${a.groupId}`,
    );
    for (const row of rows) foreign.add(row.id, row.search);
    const [version] = await queryRows<{ version: number }>(
      server.database.db,
      sql`SELECT version::float8 AS version FROM chunk_collection_versions
        WHERE tenant_id = ${b.tenantId} AND source_type = 'file' AND collection_id = ${b.groupId}`,
    );
    (cache as unknown as { store(key: string, entry: unknown): void }).store(
      `chunks:${b.tenantId}:file:${b.groupId}`,
      foreign.build(version!.version),
    );
    const served = cache.stats.served;
    const result = await retrieval.search(b.tenantId, b.botId, 'vault code of tenant A');
    expect(cache.stats.served).toBe(served + 1);
    expect(result.hits).toEqual([]);
  });
});

describe('RETRIEVAL_INDEX_MB=0', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('answers from SQL alone', async () => {
    server = await startTestServer({ env: { RETRIEVAL_INDEX_MB: '0' } });
    const owner = await signupOwner(server);
    const { tenantId, botId, groupId } = await botWithGroup(server, owner);
    await addFile(server, tenantId, groupId, 1, ...REFUNDS);
    for (let i = 0; i < 3; i++) {
      const found = await searchApi(server, owner, botId, 'how are refunds paid');
      expect(found.status).toBe(200);
      expect(titles(found.body)).toEqual(['refunds.md']);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
