// Shared by the benchmarks that need many chunks (bench/retrieval, bench/chat): a bulk loader that
// writes documents of `chunksPerDocument` chunks straight to the chunks table, in batches.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const { queryRows } = await import(dist('core/db/database.js'));
const { documents } = await import(dist('core/db/schema.js'));
const { sql } = await import(pathToFileURL(serverRequire.resolve('drizzle-orm')).href);

/**
 * `fill(total)` adds chunks until `total` are loaded: the n-th goes where `placeOf(n)` says
 * ({ tenantId, collectionId }), with `chunkText()` as content; `onPlaced(place)` sees each one. The
 * GIN index is dropped during the load and built once after it (what CREATE INDEX does better than
 * row by row); statistics are refreshed as autovacuum would have by then.
 */
export function chunkLoader(
  db,
  { placeOf, chunkText, chunksPerDocument, batch, firstSourceId = 0, onPlaced },
) {
  const client = db.$client;
  let loaded = 0;
  let sourceId = firstSourceId;

  async function insertBatch(rows) {
    if (rows.length === 0) return;
    const column = (key) => rows.map((row) => row[key]);
    // One statement per batch, its columns as arrays (unnest), straight to the driver.
    await client.query(
      `INSERT INTO chunks (tenant_id, document_id, source_type, collection_id, chunk_index, content, page_title, page_number, token_count)
       SELECT t, d, 'file', c, i, x, pt, pn, tc
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::int[]) AS u(t, d, c, i, x, pt, pn, tc)`,
      [
        column('tenantId'),
        column('documentId'),
        column('collectionId'),
        column('chunkIndex'),
        column('content'),
        column('pageTitle'),
        column('pageNumber'),
        column('tokenCount'),
      ],
    );
  }

  async function newDocument(place) {
    sourceId += 1;
    const title = `document-${sourceId}.pdf`;
    const [row] = await db
      .insert(documents)
      .values({
        tenantId: place.tenantId,
        sourceType: 'file',
        sourceId,
        collectionId: place.collectionId,
        title,
        contentHash: `bench-${sourceId}`,
        characterCount: 0,
      })
      .returning({ id: documents.id });
    return { documentId: row.id, title, next: 0 };
  }

  async function fill(total) {
    const [gin] = await queryRows(
      db,
      sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_search_idx'`,
    );
    if (gin) await db.execute(sql`DROP INDEX chunks_search_idx`);
    const open = new Map(); // place → the document being filled
    let rows = [];
    while (loaded < total) {
      const place = placeOf(loaded);
      const key = `${place.tenantId}:${place.collectionId}`;
      let doc = open.get(key);
      if (!doc || doc.next === chunksPerDocument) {
        doc = await newDocument(place);
        open.set(key, doc);
      }
      const content = chunkText();
      rows.push({
        tenantId: place.tenantId,
        documentId: doc.documentId,
        collectionId: place.collectionId,
        chunkIndex: doc.next,
        content,
        pageTitle: doc.title,
        pageNumber: doc.next + 1,
        tokenCount: Math.round(content.length / 4),
      });
      doc.next += 1;
      onPlaced?.(place);
      loaded += 1;
      if (rows.length === batch) {
        await insertBatch(rows);
        rows = [];
      }
    }
    await insertBatch(rows);
    if (gin) await db.execute(sql.raw(gin.indexdef));
    await db.execute(sql`VACUUM ANALYZE chunks`);
    await db.execute(sql`ANALYZE documents`);
    return loaded;
  }

  return { fill };
}
