import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, sql, type Tx } from '../../core/db/database.js';
import type { ChunkDraft, Section } from './chunker.js';
import { type Embedder, vectorLiteral } from './embeddings.js';
import { chunks, documents, type SourceType } from './knowledge.schema.js';
import type { Language } from './languages.js';
import { type PreparedText, prepareText } from './prepare.js';

export type DocumentInput = {
  tenantId: number;
  sourceType: SourceType;
  /** The source row: file id, crawled page id, Notion page id, Q&A id. */
  sourceId: number;
  /** What bots attach: file group id, web source id, Notion workspace id (for Q&A: the bot id). */
  collectionId: number;
  title: string;
  url?: string | null;
  sections: Section[];
};

export type IngestResult = {
  documentId: number;
  chunkCount: number;
  characterCount: number;
  unchanged: boolean;
};

/** What `trainDocument` stores: the document's identity and its prepared text. */
export type DocumentMeta = Omit<DocumentInput, 'sections'>;

export type TrainOptions = {
  embedder?: Embedder | null;
  /**
   * Runs in the transaction that makes the new chunks live, before it commits: the caller's own
   * writes (the file marked trained). Returning false abandons the document (its source went away).
   */
  onLive?: (tx: Tx, result: IngestResult) => Promise<boolean>;
  /** Called after each batch of chunks is written. */
  onProgress?: (written: number, total: number) => Promise<void> | void;
  signal?: AbortSignal;
};

/** Chunk rows per statement where rows are heavy: with their vectors, or deleted a batch at a time. */
const INSERT_BATCH = 200;
/** Chunk rows per statement without vectors, and the text one statement carries at most. */
const CHUNK_INSERT_ROWS = 1000;
const CHUNK_INSERT_CHARS = 2_000_000;
/** How long one write transaction of `trainDocument` aims to hold the database (PGlite has one connection). */
const TRAIN_BATCH_MS = 20;
const TRAIN_BATCH_MAX = 64;
/** First key of the advisory locks on source items (the second is a hash of the item). */
const DOCUMENT_LOCK_CLASS = 0x0d0c;

/**
 * Stores a source item's text as a document and its chunks, replacing what it had, in the caller's
 * transaction: for small items (a page, a Q&A pair) whose other writes belong with it. A worker
 * killed half-way leaves the old chunks, never a mix or doubles, and running it again with the same
 * text changes nothing. With an `embedder` (vector search on), the new chunks' vectors are stored in
 * the same transaction. Large items go through `trainDocument`, which never holds the database long.
 */
export async function replaceDocument(
  tx: DbOrTx,
  input: DocumentInput,
  embedder?: Embedder | null,
): Promise<IngestResult> {
  // One code path: a single item is a batch of one (the same statements, none more).
  const [result] = await replaceDocuments(tx, [input], embedder);
  return result!;
}

/**
 * `replaceDocument` for many small items of one tenant and source type (a page of store products),
 * in a handful of statements whatever their number, where one by one each cost about six round
 * trips: one statement locks every source, one reads their documents, then one insert of the new
 * documents, one update of the changed ones, one delete of their old chunks and the chunks in
 * batches. Unchanged items keep their chunks, as with `replaceDocument`. Answers one result per
 * input, in order. `prepared`: the inputs' texts (`prepareText`, in order) when the caller made
 * them before opening its transaction, so that CPU work does not hold the database.
 */
export async function replaceDocuments(
  tx: DbOrTx,
  inputs: DocumentInput[],
  embedder?: Embedder | null,
  prepared: PreparedText[] = prepareDocuments(inputs),
): Promise<IngestResult[]> {
  if (inputs.length === 0) return [];
  const scope = scopeOf(inputs);
  if (prepared.length !== inputs.length) throw new Error('replaceDocuments: one prepared text per input');
  const items = inputs.map((input, i) => ({ input, prepared: prepared[i]! }));
  await lockSources(tx, inputs);
  const found = await findDocuments(tx, scope, inputs);
  const { unchanged, changed, fresh } = classify(items, found);
  // Embedded before any write, so a slow or failing model changes nothing.
  const texts = [...changed.map((c) => c.item), ...fresh].flatMap((w) =>
    w.prepared.drafts.map(embeddingText),
  );
  const vectors = embedder ? await embedder.embed(texts) : null;
  const counts = await touchUnchanged(tx, unchanged);
  const insertedIds = await writeDocuments(tx, changed, fresh, vectors);
  return items.map(({ input, prepared }) => {
    const existing = found.get(input.sourceId);
    const count = existing && counts.get(existing.id);
    if (count !== undefined) return { ...resultOf(existing!.id, prepared, true), chunkCount: count };
    return resultOf(existing?.id ?? insertedIds.get(input.sourceId)!, prepared, false);
  });
}

/** Each input's text chunked and fingerprinted, for `replaceDocuments`. */
export const prepareDocuments = (inputs: DocumentInput[]): PreparedText[] =>
  inputs.map((input) => prepareText(input.title, input.url, input.sections));

type Item = { input: DocumentInput; prepared: PreparedText };
type Changed = { item: Item; existing: ExistingDocument };
type Scope = { tenantId: number; sourceType: SourceType };

/** Which items are new, which changed, and which are as stored (`isUnchanged`: left as they are). */
function classify(items: Item[], found: Map<number, ExistingDocument>) {
  const unchanged: ExistingDocument[] = [];
  const changed: Changed[] = [];
  const fresh: Item[] = [];
  for (const item of items) {
    const existing = found.get(item.input.sourceId);
    if (!existing) fresh.push(item);
    else if (isUnchanged(existing, item.input, item.prepared)) unchanged.push(existing);
    else changed.push({ item, existing });
  }
  return { unchanged, changed, fresh };
}

/**
 * The written documents' rows and chunks: changed ones keep their id and live generation and lose
 * all their old chunks, new ones start at generation 0. `vectors` follow the changed items' drafts,
 * then the new ones'. Answers the new documents' ids by source id.
 */
async function writeDocuments(
  tx: DbOrTx,
  changed: Changed[],
  fresh: Item[],
  vectors: number[][] | null,
): Promise<Map<number, number>> {
  const insertedIds = await insertDocuments(tx, fresh);
  await updateDocuments(tx, changed);
  const changedIds = changed.map((c) => c.existing.id);
  if (changedIds.length > 0) await tx.delete(chunks).where(inArray(chunks.documentId, changedIds));
  const rows = [
    ...changed.flatMap(({ item, existing }) => chunkRowsOf(item, existing.id, existing.generation)),
    ...fresh.flatMap((item) => chunkRowsOf(item, insertedIds.get(item.input.sourceId)!, 0)),
  ];
  await insertChunkRows(tx, rows, vectors);
  return insertedIds;
}

/** A batch shares its tenant and source type (its statements filter on them) and names each item once. */
function scopeOf(inputs: DocumentInput[]): Scope {
  const { tenantId, sourceType } = inputs[0]!;
  if (inputs.some((i) => i.tenantId !== tenantId || i.sourceType !== sourceType))
    throw new Error('replaceDocuments: inputs of one tenant and source type only');
  if (new Set(inputs.map((i) => i.sourceId)).size !== inputs.length)
    throw new Error('replaceDocuments: a source item named twice');
  return { tenantId, sourceType };
}

/**
 * Unchanged documents were still checked against their source now (citations show that time);
 * answers their live chunk counts, read in the same statement.
 */
async function touchUnchanged(tx: DbOrTx, unchanged: ExistingDocument[]): Promise<Map<number, number>> {
  if (unchanged.length === 0) return new Map();
  const rows = await tx
    .update(documents)
    .set({ syncedAt: new Date() })
    .where(
      inArray(
        documents.id,
        unchanged.map((u) => u.id),
      ),
    )
    .returning({
      id: documents.id,
      // Qualified by hand: Drizzle writes a RETURNING column bare, which the subquery would read as c's.
      chunkCount: sql<number>`(SELECT count(*) FROM chunks c
        WHERE c.document_id = documents.id AND c.generation = documents.generation)`.mapWith(Number),
    });
  return new Map(rows.map((row) => [row.id, row.chunkCount]));
}

/** New documents, one statement; answers their ids by source id (RETURNING's order is not promised). */
async function insertDocuments(tx: DbOrTx, fresh: Item[]): Promise<Map<number, number>> {
  if (fresh.length === 0) return new Map();
  const rows = await tx
    .insert(documents)
    .values(fresh.map(({ input, prepared }) => documentValues(input, prepared)))
    .returning({ id: documents.id, sourceId: documents.sourceId });
  return new Map(rows.map((row) => [row.sourceId, row.id]));
}

/** Changed documents take their new text's fields in one statement; their generation stays. */
async function updateDocuments(tx: DbOrTx, changed: Changed[]): Promise<void> {
  if (changed.length === 0) return;
  const now = new Date().toISOString();
  // Typed in every row: a VALUES list of bare parameters would read them all as text.
  const values = changed.map(
    ({ item: { input, prepared }, existing }) =>
      sql`(${existing.id}::int, ${input.collectionId}::int, ${input.title}::text, ${input.url ?? null}::text, ${prepared.contentHash}::text, ${prepared.characterCount}::int, ${prepared.language}::text)`,
  );
  await tx.execute(
    sql`UPDATE documents AS d SET collection_id = v.collection_id, title = v.title, url = v.url,
        content_hash = v.content_hash, character_count = v.character_count, language = v.language,
        updated_at = ${now}::timestamptz, synced_at = ${now}::timestamptz
      FROM (VALUES ${sql.join(values, sql`, `)})
        AS v (id, collection_id, title, url, content_hash, character_count, language)
      WHERE d.id = v.id`,
  );
}

/**
 * Stores a large document (an uploaded file) without ever holding the database for long: its chunks
 * are written as a new generation in small transactions (each aiming at TRAIN_BATCH_MS, with a turn
 * of the event loop between them), invisible to retrieval, then made live in one short transaction
 * that also runs the caller's `onLive`; the previous generation is deleted afterwards, in batches.
 * Returns null when the document was abandoned: its source went away, or a newer run of the same
 * document made its own chunks live first. A run killed half-way leaves only invisible chunks, which
 * the next run of the document deletes.
 */
export async function trainDocument(
  db: Db,
  meta: DocumentMeta,
  prepared: PreparedText,
  options: TrainOptions = {},
): Promise<IngestResult | null> {
  const staged = await db.transaction(async (tx) => {
    await lockSource(tx, meta);
    const existing = await findDocument(tx, meta);
    if (existing && isUnchanged(existing, meta, prepared)) {
      const result = await unchangedResult(tx, existing, prepared);
      return (await (options.onLive?.(tx, result) ?? true)) ? result : null;
    }
    const documentId = existing?.id ?? (await insertPlaceholder(tx, meta));
    const [row] = await queryRows<{ generation: number }>(
      tx,
      sql`SELECT nextval('chunk_generations')::int AS generation`,
    );
    return { documentId, generation: row!.generation };
  });
  if (!staged || 'unchanged' in staged) return staged;
  const { documentId, generation } = staged;
  try {
    await writeGeneration(db, meta, documentId, generation, prepared, options);
    const result = resultOf(documentId, prepared, false);
    const live = await db.transaction((tx) => makeLive(tx, meta, prepared, generation, result, options));
    await deleteOtherGenerations(db, documentId, live ? generation : null, generation);
    return live ? result : null;
  } catch (error) {
    // Its source deleted meanwhile (the document with it): nothing to train.
    if (!(await documentExists(db, documentId))) return null;
    throw error;
  }
}

/** The new generation's chunks (and vectors), a batch per short transaction. */
async function writeGeneration(
  db: Db,
  meta: DocumentMeta,
  documentId: number,
  generation: number,
  { drafts, language }: PreparedText,
  { embedder, onProgress, signal }: TrainOptions,
): Promise<void> {
  let size = 8;
  for (let i = 0; i < drafts.length; ) {
    signal?.throwIfAborted();
    const batch = drafts.slice(i, i + size);
    // Embedded outside the transaction: a model's latency must not hold the database.
    const vectors = embedder ? await embedder.embed(batch.map(embeddingText)) : null;
    const started = performance.now();
    await db.transaction((tx) => insertChunks(tx, meta, documentId, generation, batch, language, vectors));
    size = nextBatchSize(size, performance.now() - started);
    i += batch.length;
    await onProgress?.(i, drafts.length);
    await yieldToEventLoop();
  }
}

/** Grows or shrinks the batch so that a write takes about TRAIN_BATCH_MS. */
function nextBatchSize(size: number, tookMs: number): number {
  const scaled = Math.round((size * TRAIN_BATCH_MS) / Math.max(tookMs, 1));
  return Math.min(TRAIN_BATCH_MAX, Math.max(1, Math.min(size * 2, scaled)));
}

/**
 * Points the document at its new generation, unless the source went away or a newer generation is
 * already live (a run that took this job over after a lost lease): then this one is abandoned.
 * Bumps the collection's content version, since retrieval's in-memory index is keyed by it and no
 * chunk row changes here.
 */
async function makeLive(
  tx: Tx,
  meta: DocumentMeta,
  prepared: PreparedText,
  generation: number,
  result: IngestResult,
  options: TrainOptions,
): Promise<boolean> {
  await lockSource(tx, meta);
  const current = await findDocument(tx, meta);
  if (!current || current.id !== result.documentId || current.generation > generation) return false;
  if (!(await (options.onLive?.(tx, result) ?? true))) return false;
  await tx
    .update(documents)
    .set({ ...documentValues(meta, prepared), generation })
    .where(eq(documents.id, current.id));
  const touched = new Set([current.collectionId, meta.collectionId]);
  for (const collectionId of touched)
    await bumpCollectionVersion(tx, meta.tenantId, meta.sourceType, collectionId);
  return true;
}

/**
 * Deletes a document's chunks of other generations than the live one, in batches: the old text
 * after a retrain, or (live null) this abandoned run's own. Older generations only, so a run in
 * progress of a newer one is left alone.
 */
async function deleteOtherGenerations(db: Db, documentId: number, live: number | null, own: number) {
  const which = live === null ? sql`generation = ${own}` : sql`generation < ${live}`;
  for (;;) {
    const deleted = await queryRows<{ id: number }>(
      db,
      sql`DELETE FROM chunks WHERE id IN (
          SELECT id FROM chunks WHERE document_id = ${documentId} AND ${which} LIMIT ${INSERT_BATCH})
        RETURNING id`,
    );
    if (deleted.length < INSERT_BATCH) return;
    await yieldToEventLoop();
  }
}

/** Source items read again and found as they were: their documents were synced at `at` (citations show it). */
export async function markDocumentsSynced(
  tx: DbOrTx,
  tenantId: number,
  sourceType: SourceType,
  sourceIds: number[],
  at: Date,
): Promise<void> {
  if (sourceIds.length === 0) return;
  await tx
    .update(documents)
    .set({ syncedAt: at })
    .where(
      and(
        eq(documents.tenantId, tenantId),
        eq(documents.sourceType, sourceType),
        inArray(documents.sourceId, sourceIds),
      ),
    );
}

/** Characters a source item's sections hold, as training counts them (prepare.ts). */
export const charactersOf = (sections: Section[]): number => sections.reduce((n, s) => n + s.text.length, 0);

/** Forgets a source item: its document and chunks. */
export async function removeDocument(
  tx: DbOrTx,
  tenantId: number,
  sourceType: SourceType,
  sourceId: number,
): Promise<void> {
  await tx.delete(documents).where(sourceOf(tenantId, sourceType, sourceId));
}

/** The chunks of one document's generation (a batch of `writeGeneration`). */
function insertChunks(
  tx: DbOrTx,
  meta: DocumentMeta,
  documentId: number,
  generation: number,
  drafts: ChunkDraft[],
  language: Language,
  vectors: number[][] | null,
): Promise<void> {
  return insertChunkRows(
    tx,
    drafts.map((draft) => ({ meta, documentId, generation, draft, language })),
    vectors,
  );
}

type ChunkRow = {
  meta: DocumentMeta;
  documentId: number;
  generation: number;
  draft: ChunkDraft;
  language: Language;
};

const chunkRowsOf = (item: Item, documentId: number, generation: number): ChunkRow[] =>
  item.prepared.drafts.map((draft) => ({
    meta: item.input,
    documentId,
    generation,
    draft,
    language: item.prepared.language,
  }));

/**
 * Chunks of any documents (and their vectors, `vectors[i]` for `rows[i]`), a multi-row statement
 * per batch: up to CHUNK_INSERT_ROWS rows, fewer with vectors (their insert binds 3 parameters a
 * row, each vector thousands of numbers as text), and no more than CHUNK_INSERT_CHARS of text, so
 * no statement grows without bound with a large document.
 */
async function insertChunkRows(tx: DbOrTx, rows: ChunkRow[], vectors: number[][] | null): Promise<void> {
  const maxRows = vectors ? INSERT_BATCH : CHUNK_INSERT_ROWS;
  for (let start = 0; start < rows.length; ) {
    let end = start;
    let chars = 0;
    while (end < rows.length && end - start < maxRows && (end === start || chars < CHUNK_INSERT_CHARS))
      chars += rows[end++]!.draft.content.length;
    await insertChunkBatch(tx, rows.slice(start, end), vectors?.slice(start, end) ?? null);
    start = end;
  }
}

/**
 * One statement of chunk rows. They travel as one JSON parameter, not twelve parameters a row:
 * building a VALUES list of thousands of parameters (Drizzle) and binding them (PGlite) cost about
 * a third of the insert of 250 store products' chunks, more than the JSON.
 */
async function insertChunkBatch(tx: DbOrTx, rows: ChunkRow[], vectors: number[][] | null): Promise<void> {
  const json = JSON.stringify(
    rows.map(({ meta, documentId, generation, draft, language }) => ({
      tenant_id: meta.tenantId,
      document_id: documentId,
      generation,
      source_type: meta.sourceType,
      collection_id: meta.collectionId,
      chunk_index: draft.chunkIndex,
      content: wellFormed(draft.content),
      heading_path: wellFormed(draft.headingPath),
      page_title: wellFormed(meta.title),
      page_url: wellFormed(sectionUrl(meta.url, draft.anchor)),
      page_number: draft.pageNumber,
      token_count: draft.tokenCount,
      language,
    })),
  );
  const inserted = await queryRows<{ id: number; document_id: number; chunk_index: number }>(
    tx,
    sql`INSERT INTO chunks (tenant_id, document_id, generation, source_type, collection_id, chunk_index,
        content, heading_path, page_title, page_url, page_number, token_count, language)
      SELECT * FROM json_to_recordset(${json}::json) AS r (tenant_id int, document_id int,
        generation int, source_type text, collection_id int, chunk_index int, content text,
        heading_path text, page_title text, page_url text, page_number int, token_count int,
        language regconfig)
      RETURNING id, document_id, chunk_index`,
  );
  if (!vectors) return;
  // By document and index, not by position: RETURNING's order is not promised.
  const idOf = new Map(inserted.map((row) => [`${row.document_id}:${row.chunk_index}`, row.id]));
  const values = rows.map(
    ({ meta, documentId, draft }, j) =>
      sql`(${idOf.get(`${documentId}:${draft.chunkIndex}`)!}, ${meta.tenantId}, ${vectorLiteral(vectors[j]!)}::vector)`,
  );
  await tx.execute(
    sql`INSERT INTO chunk_embeddings (chunk_id, tenant_id, embedding) VALUES ${sql.join(values, sql`, `)}`,
  );
}

/**
 * A lone surrogate (text cut inside an emoji) as U+FFFD, as a bound parameter's UTF-8 would have
 * it: in JSON it is an escape that PostgreSQL refuses to turn into text.
 */
const wellFormed = (text: string | null) => text?.replace(/\p{Cs}/gu, '\uFFFD') ?? null;

/** A chunk's link: its page, at its section's heading when that has an id. */
const sectionUrl = (url: string | null | undefined, anchor: string | null) =>
  url ? (anchor ? `${url.split('#')[0]}#${encodeURIComponent(anchor)}` : url) : null;

/** What a chunk's vector stands for: its heading path gives the passage its context. */
const embeddingText = (draft: ChunkDraft) =>
  draft.headingPath ? `${draft.headingPath}\n\n${draft.content}` : draft.content;

type ExistingDocument = {
  id: number;
  contentHash: string;
  collectionId: number;
  generation: number;
  language: string;
};

/**
 * Two runs may index the same item at once (a worker that lost its lease and the one that took the
 * job over). FOR UPDATE only locks a document that exists; this lock also serialises the first
 * indexing, so the second run sees the first one's document instead of failing on the unique key.
 * Held until the transaction ends.
 */
async function lockSource(tx: DbOrTx, meta: DocumentMeta): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${DOCUMENT_LOCK_CLASS}::int, hashtext(${lockKey(meta)}))`,
  );
}

/**
 * `lockSource` for many items in one statement, with the same keys, so it excludes a concurrent
 * `replaceDocument` or `trainDocument` of any of them. Taken in the order of the keys: two batches
 * that share items wait for each other instead of deadlocking. (A subquery with ORDER BY is never
 * merged into its outer query, so the locks are taken in its order.)
 */
async function lockSources(tx: DbOrTx, metas: DocumentMeta[]): Promise<void> {
  const keys = sql.join(
    metas.map((meta) => sql`${lockKey(meta)}`),
    sql`, `,
  );
  await tx.execute(
    sql`SELECT count(pg_advisory_xact_lock(${DOCUMENT_LOCK_CLASS}::int, h)) FROM (
        SELECT DISTINCT hashtext(k) AS h FROM unnest(ARRAY[${keys}]::text[]) AS k ORDER BY h) AS locks`,
  );
}

const lockKey = (meta: DocumentMeta) => `${meta.tenantId}:${meta.sourceType}:${meta.sourceId}`;

async function findDocument(tx: DbOrTx, meta: DocumentMeta): Promise<ExistingDocument | undefined> {
  const [row] = await tx
    .select({
      id: documents.id,
      contentHash: documents.contentHash,
      collectionId: documents.collectionId,
      generation: documents.generation,
      language: documents.language,
    })
    .from(documents)
    .where(sourceOf(meta.tenantId, meta.sourceType, meta.sourceId))
    .for('update');
  return row;
}

/** The documents of a batch's items that exist, locked, by source id. */
async function findDocuments(
  tx: DbOrTx,
  scope: Scope,
  metas: DocumentMeta[],
): Promise<Map<number, ExistingDocument>> {
  const rows = await tx
    .select({
      id: documents.id,
      sourceId: documents.sourceId,
      contentHash: documents.contentHash,
      collectionId: documents.collectionId,
      generation: documents.generation,
      language: documents.language,
    })
    .from(documents)
    .where(
      and(
        eq(documents.tenantId, scope.tenantId),
        eq(documents.sourceType, scope.sourceType),
        inArray(
          documents.sourceId,
          metas.map((m) => m.sourceId),
        ),
      ),
    )
    .for('update');
  return new Map(rows.map(({ sourceId, ...existing }) => [sourceId, existing]));
}

/** Unchanged: the same text, collection and language (a page stored before languages were told is re-indexed). */
const isUnchanged = (existing: ExistingDocument, meta: DocumentMeta, prepared: PreparedText) =>
  existing.contentHash === prepared.contentHash &&
  existing.collectionId === meta.collectionId &&
  existing.language === prepared.language;

/** An unchanged document was still checked against its source now: citations show that time. */
async function unchangedResult(tx: DbOrTx, existing: ExistingDocument, prepared: PreparedText) {
  const counts = await touchUnchanged(tx, [existing]);
  return { ...resultOf(existing.id, prepared, true), chunkCount: counts.get(existing.id) ?? 0 };
}

const resultOf = (documentId: number, prepared: PreparedText, unchanged: boolean): IngestResult => ({
  documentId,
  chunkCount: prepared.drafts.length,
  characterCount: prepared.characterCount,
  unchanged,
});

const documentValues = (meta: DocumentMeta, prepared: PreparedText) => ({
  tenantId: meta.tenantId,
  sourceType: meta.sourceType,
  sourceId: meta.sourceId,
  collectionId: meta.collectionId,
  title: meta.title,
  url: meta.url ?? null,
  contentHash: prepared.contentHash,
  characterCount: prepared.characterCount,
  language: prepared.language,
  updatedAt: new Date(),
  syncedAt: new Date(),
});

/**
 * A new document's row while its first generation is written: live generation 0 has no chunks, and
 * its empty fingerprint never matches a text, so it reads as an empty document until made live.
 */
async function insertPlaceholder(tx: Tx, meta: DocumentMeta): Promise<number> {
  const values = {
    ...documentValues(meta, { drafts: [], characterCount: 0, contentHash: '', language: 'english' }),
    generation: 0,
  };
  const [row] = await tx.insert(documents).values(values).returning({ id: documents.id });
  return row!.id;
}

async function documentExists(db: Db, documentId: number): Promise<boolean> {
  return (await db.$count(documents, eq(documents.id, documentId))) > 0;
}

/** As the chunks triggers do (migration 0006), for a change retrieval must see that writes no chunk. */
export async function bumpCollectionVersion(
  tx: Tx,
  tenantId: number,
  sourceType: SourceType,
  collectionId: number,
) {
  await tx.execute(
    sql`INSERT INTO chunk_collection_versions AS v (tenant_id, source_type, collection_id, version)
      VALUES (${tenantId}, ${sourceType}, ${collectionId}, 1)
      ON CONFLICT (tenant_id, source_type, collection_id) DO UPDATE SET version = v.version + 1`,
  );
}

const sourceOf = (tenantId: number, sourceType: SourceType, sourceId: number) =>
  and(
    eq(documents.tenantId, tenantId),
    eq(documents.sourceType, sourceType),
    eq(documents.sourceId, sourceId),
  );
