// bench/chat: bulk knowledge for the Parley server process (the way bench/retrieval/worker.mjs
// loads it): chunks of the retrieval evaluation's corpus at the lengths Parley's chunker cuts,
// 10% in the file group attached to the bench bot, 20% in its tenant's other groups, 70% in other
// tenants; multi-row inserts straight to the driver, GIN index rebuilt once, then VACUUM ANALYZE.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusParagraphs } from '../ingest/make-pdf.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));

const { queryRows } = await import(dist('core/db/database.js'));
const { tenants, fileGroups, documents } = await import(dist('core/db/schema.js'));
const { chunkSections } = await import(dist('modules/knowledge/chunker.js'));
const { markdownSections } = await import(dist('modules/knowledge/markdown.js'));
const { sql } = await import(pathToFileURL(serverRequire.resolve('drizzle-orm')).href);

const BOT_SHARE = 0.1;
const OTHER_GROUPS_SHARE = 0.2;
const OTHER_TENANTS = 9;
const CHUNKS_PER_DOCUMENT = 50;
const BATCH = 1000;

const corpusDir = path.join(root, 'eval/retrieval/corpus');
const paragraphs = corpusParagraphs(corpusDir);
const chunkLengths = readdirSync(corpusDir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.md'))
  .flatMap((f) => chunkSections(markdownSections(readFileSync(path.join(corpusDir, f), 'utf8'))))
  .map((c) => c.content.length);

/** The retrieval evaluation's natural questions: each matches passages of the corpus. */
export const QUESTIONS = JSON.parse(
  readFileSync(path.join(root, 'eval/retrieval/questions.json'), 'utf8'),
).map((q) => q.q);

// Deterministic pseudo-random numbers (mulberry32), so every run loads the same text.
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

function chunkText() {
  let i = Math.floor(random() * paragraphs.length);
  const target = pick(chunkLengths);
  const parts = [];
  let length = 0;
  while (length === 0 || length < target) {
    const paragraph = paragraphs[i % paragraphs.length];
    parts.push(paragraph);
    length += paragraph.length + 2;
    i += random() < 0.8 ? 1 : 1 + Math.floor(random() * 50);
  }
  return parts.join('\n\n');
}

/**
 * A loader for one tenant (the bench owner's): `fill(total)` adds chunks up to `total` and answers
 * the id of the file group to attach to the bot and how many chunks it holds.
 */
export async function knowledgeLoader(db, { tenantId, userId }) {
  const client = db.$client;
  const groups = await db
    .insert(fileGroups)
    .values([0, 1, 2, 3, 4].map((i) => ({ tenantId, userId, groupName: `bench_chat_${i}` })))
    .returning();
  const others = [];
  for (let t = 0; t < OTHER_TENANTS; t++) {
    const [other] = await db
      .insert(tenants)
      .values({ name: `Bench chat other ${t}` })
      .returning();
    const [group] = await db.insert(fileGroups).values({ tenantId: other.id, groupName: 'docs' }).returning();
    others.push({ tenantId: other.id, collectionId: group.id });
  }
  const placeOf = (n) => {
    const x = (n * 0.6180339887) % 1;
    if (x < BOT_SHARE) return { tenantId, collectionId: groups[0].id };
    if (x < BOT_SHARE + OTHER_GROUPS_SHARE) return { tenantId, collectionId: groups[1 + (n % 4)].id };
    return others[n % others.length];
  };

  let loaded = 0;
  let botChunks = 0;
  let sourceId = 1_000_000;
  async function fill(total) {
    const [gin] = await queryRows(
      db,
      sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_search_idx'`,
    );
    if (gin) await db.execute(sql`DROP INDEX chunks_search_idx`);
    const open = new Map();
    let rows = [];
    const flush = async () => {
      if (rows.length === 0) return;
      const column = (key) => rows.map((row) => row[key]);
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
      rows = [];
    };
    while (loaded < total) {
      const place = placeOf(loaded);
      const key = `${place.tenantId}:${place.collectionId}`;
      let doc = open.get(key);
      if (!doc || doc.next === CHUNKS_PER_DOCUMENT) {
        sourceId += 1;
        const [row] = await db
          .insert(documents)
          .values({
            tenantId: place.tenantId,
            sourceType: 'file',
            sourceId,
            collectionId: place.collectionId,
            title: `document-${sourceId}.pdf`,
            contentHash: `bench-${sourceId}`,
            characterCount: 0,
          })
          .returning({ id: documents.id });
        doc = { documentId: row.id, title: `document-${sourceId}.pdf`, next: 0 };
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
      if (place.collectionId === groups[0].id) botChunks += 1;
      loaded += 1;
      if (rows.length === BATCH) await flush();
    }
    await flush();
    if (gin) await db.execute(sql.raw(gin.indexdef));
    await db.execute(sql`VACUUM ANALYZE chunks`);
    await db.execute(sql`ANALYZE documents`);
    return { groupId: groups[0].id, botChunks, total: loaded };
  }
  return { fill };
}
