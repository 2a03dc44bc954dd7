import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../core/db/database.js';
import { botFileGroups, fileGroups } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { type DocumentInput, replaceDocument, replaceDocuments, trainDocument } from './ingest.js';
import { prepareText } from './prepare.js';
import { RetrievalService } from './retrieval.service.js';

/** More chunks than one insert statement takes (1,000 rows), so the batching of chunk rows is crossed. */
const COUNT = 1_200;

describe('replaceDocuments: many small documents in a few statements', () => {
  let server: TestServer;
  let tenantId: number;
  let botId: number;
  let groupId: number;
  let retrieval: RetrievalService;

  beforeAll(async () => {
    server = await startTestServer();
    tenantId = (await signupOwner(server)).user.tenant_id;
    botId = (await insertBot(server, tenantId)).id;
    const [group] = await server.database.db
      .insert(fileGroups)
      .values({ tenantId, groupName: 'catalogue' })
      .returning();
    groupId = group!.id;
    await server.database.db.insert(botFileGroups).values({ tenantId, botId, fileGroupId: groupId });
    retrieval = new RetrievalService(server.database.db, null);
    catalogue = Array.from({ length: COUNT }, (_, i) => item(i + 1));
  });
  afterAll(() => server?.close());

  const db = () => server.database.db;
  /** Item `n` of the catalogue; its text names `word`, which no other item's text does. */
  const item = (n: number, word = `sku${n}x`): DocumentInput => ({
    tenantId,
    sourceType: 'file',
    sourceId: n,
    collectionId: groupId,
    title: `item-${n}.txt`,
    sections: [{ text: `Product ${word}. A sturdy thing made of oak, sold by the piece.` }],
  });
  /** Made once the tenant and group exist. */
  let catalogue: DocumentInput[];

  const titlesFound = async (query: string) =>
    [...new Set((await retrieval.search(tenantId, botId, query)).hits.map((h) => h.page_title))].sort();

  /** Each document's chunk ids, by source id. */
  async function chunkIds(): Promise<Map<number, number[]>> {
    const rows = await queryRows<{ source_id: number; ids: number[] }>(
      db(),
      sql`SELECT d.source_id, array_agg(c.id ORDER BY c.id) AS ids FROM documents d
        JOIN chunks c ON c.document_id = d.id AND c.generation = d.generation
        WHERE d.tenant_id = ${tenantId} AND d.source_type = 'file' GROUP BY d.source_id`,
    );
    return new Map(rows.map((row) => [Number(row.source_id), row.ids.map(Number)]));
  }

  it('stores every new document with its chunks in one call, and finds them', async () => {
    const results = await db().transaction((tx) => replaceDocuments(tx, catalogue));
    expect(results).toHaveLength(COUNT);
    expect(results.every((r) => !r.unchanged && r.chunkCount === 1 && r.characterCount > 0)).toBe(true);
    expect(new Set(results.map((r) => r.documentId)).size).toBe(COUNT);
    const ids = await chunkIds();
    expect(ids.size).toBe(COUNT);
    expect([...ids.values()].every((chunkIdsOfOne) => chunkIdsOfOne.length === 1)).toBe(true);
    expect(await titlesFound('sku7x')).toEqual(['item-7.txt']);
    expect(await titlesFound('sku1200x')).toEqual(['item-1200.txt']);
  });

  it('changes nothing when called again with the same inputs, but marks them synced', async () => {
    const before = await chunkIds();
    const [{ synced }] = await queryRows<{ synced: string }>(
      db(),
      sql`SELECT max(synced_at)::text AS synced FROM documents WHERE tenant_id = ${tenantId}`,
    ).then((rows) => rows as [{ synced: string }]);
    await sleep(5);
    const again = await db().transaction((tx) => replaceDocuments(tx, catalogue));
    expect(again.every((r) => r.unchanged && r.chunkCount === 1)).toBe(true);
    expect(await chunkIds()).toEqual(before);
    const [{ stale }] = (await queryRows<{ stale: number }>(
      db(),
      sql`SELECT count(*)::int AS stale FROM documents WHERE tenant_id = ${tenantId} AND synced_at <= ${synced}::timestamptz`,
    )) as [{ stale: number }];
    expect(stale).toBe(0);
  });

  it('replaces a changed document and adds a new one, leaving the others untouched', async () => {
    const before = await chunkIds();
    const first = await db().transaction((tx) => replaceDocuments(tx, catalogue.slice(0, 10)));
    const inputs = [...catalogue.slice(0, 10), item(COUNT + 1)];
    inputs[4] = item(5, 'walrus');
    const results = await db().transaction((tx) => replaceDocuments(tx, inputs));
    expect(results.map((r) => r.unchanged)).toEqual([...Array(10)].map((_, i) => i !== 4).concat(false));
    expect(results[4]!.documentId).toBe(first[4]!.documentId); // replaced in place
    const after = await chunkIds();
    expect(after.get(5)).not.toEqual(before.get(5));
    for (const n of [1, 4, 6, 10, COUNT]) expect(after.get(n)).toEqual(before.get(n));
    expect(after.get(COUNT + 1)).toHaveLength(1);
    expect(await titlesFound('walrus')).toEqual(['item-5.txt']);
    expect(await titlesFound('sku5x')).toEqual([]);
    expect(await titlesFound(`sku${COUNT + 1}x`)).toEqual([`item-${COUNT + 1}.txt`]);
  });

  it("holds every item's lock until it commits: a concurrent replaceDocument or trainDocument waits, then finds it", async () => {
    const fresh = [item(COUNT + 2), item(COUNT + 3)];
    let inside!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch = db().transaction(async (tx) => {
      const results = await replaceDocuments(tx, fresh);
      inside();
      await held;
      return results;
    });
    await entered;
    // Without the batch's locks both would miss its uncommitted documents and then fail on the
    // unique key (PostgreSQL); trainDocument takes its lock by `lockSource`, so the keys must agree.
    let settled = 0;
    const single = db()
      .transaction((tx) => replaceDocument(tx, fresh[0]!))
      .finally(() => settled++);
    const { sections, ...meta } = fresh[1]!;
    const large = trainDocument(db(), meta, prepareText(meta.title, meta.url, sections)).finally(
      () => settled++,
    );
    await sleep(100);
    expect(settled).toBe(0);
    release();
    const [results, one, other] = await Promise.all([batch, single, large]);
    expect(one).toMatchObject({ documentId: results[0]!.documentId, unchanged: true, chunkCount: 1 });
    expect(other).toMatchObject({ documentId: results[1]!.documentId, unchanged: true, chunkCount: 1 });
  });

  it('stores text cut inside an emoji as a parameter would: the lone half as U+FFFD', async () => {
    const cut = { ...item(COUNT + 4), title: 'cut \ud83d', sections: [{ text: 'Smile \ud83d then more' }] };
    const [result] = await replaceDocuments(db(), [cut]);
    const [row] = await queryRows<{ content: string; page_title: string }>(
      db(),
      sql`SELECT content, page_title FROM chunks WHERE document_id = ${result!.documentId}`,
    );
    expect(row).toEqual({ content: 'Smile \ufffd then more', page_title: 'cut \ufffd' });
  });

  it('stores a document in its language, and re-indexes one stored before languages were told', async () => {
    const spanish = {
      ...item(COUNT + 5),
      title: 'envios.txt',
      sections: [
        {
          text: 'Hacemos envíos a domicilio de martes a sábado. El envío cuesta 3 € y es gratis desde 30 €.',
        },
      ],
    };
    const languages = async (documentId: number) =>
      (
        await queryRows<{ document: string; chunk: string }>(
          db(),
          sql`SELECT d.language AS document, c.language::text AS chunk FROM documents d
            JOIN chunks c ON c.document_id = d.id WHERE d.id = ${documentId}`,
        )
      )[0];
    const [stored] = await replaceDocuments(db(), [spanish]);
    expect(await languages(stored!.documentId)).toEqual({ document: 'spanish', chunk: 'spanish' });
    // As migration 0029 left every older document: English.
    await db().execute(sql`UPDATE documents SET language = 'english' WHERE id = ${stored!.documentId}`);
    await db().execute(sql`UPDATE chunks SET language = 'english' WHERE document_id = ${stored!.documentId}`);
    const [again] = await replaceDocuments(db(), [spanish]);
    expect(again!.unchanged).toBe(false);
    expect(await languages(stored!.documentId)).toEqual({ document: 'spanish', chunk: 'spanish' });
    const [third] = await replaceDocuments(db(), [spanish]);
    expect(third!.unchanged).toBe(true);
  });

  it('refuses a batch that names an item twice or mixes tenants', async () => {
    await expect(replaceDocuments(db(), [item(1), item(1)])).rejects.toThrow('named twice');
    await expect(replaceDocuments(db(), [item(1), { ...item(2), tenantId: tenantId + 1 }])).rejects.toThrow(
      'one tenant',
    );
  });
});
