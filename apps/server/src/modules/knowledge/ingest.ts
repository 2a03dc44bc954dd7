import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, sql, type Tx } from '../../core/db/database.js';
import type { ChunkDraft, Section } from './chunker.js';
import { type Embedder, vectorLiteral } from './embeddings.js';
import { chunks, documents, type SourceType } from './knowledge.schema.js';
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

const INSERT_BATCH = 200;
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
  const prepared = prepareText(input.title, input.url, input.sections);
  await lockSource(tx, input);
  const existing = await findDocument(tx, input);
  if (existing && isUnchanged(existing, input, prepared)) return unchangedResult(tx, existing, prepared);
  // Embedded before this document's writes, so a slow or failing model changes nothing.
  const vectors = embedder ? await embedder.embed(prepared.drafts.map(embeddingText)) : null;
  const values = documentValues(input, prepared);
  const documentId = existing
    ? (
        await tx
          .update(documents)
          .set(values)
          .where(eq(documents.id, existing.id))
          .returning({ id: documents.id })
      )[0]!.id
    : (await tx.insert(documents).values(values).returning({ id: documents.id }))[0]!.id;
  const generation = existing?.generation ?? 0;
  await tx.delete(chunks).where(eq(chunks.documentId, documentId));
  for (let i = 0; i < prepared.drafts.length; i += INSERT_BATCH) {
    const batch = prepared.drafts.slice(i, i + INSERT_BATCH);
    await insertChunks(tx, input, documentId, generation, batch, vectors?.slice(i, i + INSERT_BATCH) ?? null);
  }
  return resultOf(documentId, prepared, false);
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
    await writeGeneration(db, meta, documentId, generation, prepared.drafts, options);
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
  drafts: ChunkDraft[],
  { embedder, onProgress, signal }: TrainOptions,
): Promise<void> {
  let size = 8;
  for (let i = 0; i < drafts.length; ) {
    signal?.throwIfAborted();
    const batch = drafts.slice(i, i + size);
    // Embedded outside the transaction: a model's latency must not hold the database.
    const vectors = embedder ? await embedder.embed(batch.map(embeddingText)) : null;
    const started = performance.now();
    await db.transaction((tx) => insertChunks(tx, meta, documentId, generation, batch, vectors));
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

/** Forgets a source item: its document and chunks. */
export async function removeDocument(
  tx: DbOrTx,
  tenantId: number,
  sourceType: SourceType,
  sourceId: number,
): Promise<void> {
  await tx.delete(documents).where(sourceOf(tenantId, sourceType, sourceId));
}

async function insertChunks(
  tx: DbOrTx,
  meta: DocumentMeta,
  documentId: number,
  generation: number,
  drafts: ChunkDraft[],
  vectors: number[][] | null,
): Promise<void> {
  if (drafts.length === 0) return;
  const rows = await tx
    .insert(chunks)
    .values(
      drafts.map((draft) => ({
        tenantId: meta.tenantId,
        documentId,
        generation,
        sourceType: meta.sourceType,
        collectionId: meta.collectionId,
        chunkIndex: draft.chunkIndex,
        content: draft.content,
        headingPath: draft.headingPath,
        pageTitle: meta.title,
        pageUrl: sectionUrl(meta.url, draft.anchor),
        pageNumber: draft.pageNumber,
        tokenCount: draft.tokenCount,
      })),
    )
    .returning({ id: chunks.id, chunkIndex: chunks.chunkIndex });
  if (!vectors) return;
  const idOf = new Map(rows.map((row) => [row.chunkIndex, row.id]));
  const values = drafts.map(
    (draft, j) =>
      sql`(${idOf.get(draft.chunkIndex)!}, ${meta.tenantId}, ${vectorLiteral(vectors[j]!)}::vector)`,
  );
  await tx.execute(
    sql`INSERT INTO chunk_embeddings (chunk_id, tenant_id, embedding) VALUES ${sql.join(values, sql`, `)}`,
  );
}

/** A chunk's link: its page, at its section's heading when that has an id. */
const sectionUrl = (url: string | null | undefined, anchor: string | null) =>
  url ? (anchor ? `${url.split('#')[0]}#${encodeURIComponent(anchor)}` : url) : null;

/** What a chunk's vector stands for: its heading path gives the passage its context. */
const embeddingText = (draft: ChunkDraft) =>
  draft.headingPath ? `${draft.headingPath}\n\n${draft.content}` : draft.content;

type ExistingDocument = { id: number; contentHash: string; collectionId: number; generation: number };

/**
 * Two runs may index the same item at once (a worker that lost its lease and the one that took the
 * job over). FOR UPDATE only locks a document that exists; this lock also serialises the first
 * indexing, so the second run sees the first one's document instead of failing on the unique key.
 * Held until the transaction ends.
 */
async function lockSource(tx: DbOrTx, meta: DocumentMeta): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${DOCUMENT_LOCK_CLASS}::int, hashtext(${`${meta.tenantId}:${meta.sourceType}:${meta.sourceId}`}))`,
  );
}

async function findDocument(tx: DbOrTx, meta: DocumentMeta): Promise<ExistingDocument | undefined> {
  const [row] = await tx
    .select({
      id: documents.id,
      contentHash: documents.contentHash,
      collectionId: documents.collectionId,
      generation: documents.generation,
    })
    .from(documents)
    .where(sourceOf(meta.tenantId, meta.sourceType, meta.sourceId))
    .for('update');
  return row;
}

const isUnchanged = (existing: ExistingDocument, meta: DocumentMeta, prepared: PreparedText) =>
  existing.contentHash === prepared.contentHash && existing.collectionId === meta.collectionId;

/** An unchanged document was still checked against its source now: citations show that time. */
async function unchangedResult(tx: DbOrTx, existing: ExistingDocument, prepared: PreparedText) {
  await tx.update(documents).set({ syncedAt: new Date() }).where(eq(documents.id, existing.id));
  const count = await tx.$count(
    chunks,
    and(eq(chunks.documentId, existing.id), eq(chunks.generation, existing.generation)),
  );
  return { ...resultOf(existing.id, prepared, true), chunkCount: count };
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
  updatedAt: new Date(),
  syncedAt: new Date(),
});

/**
 * A new document's row while its first generation is written: live generation 0 has no chunks, and
 * its empty fingerprint never matches a text, so it reads as an empty document until made live.
 */
async function insertPlaceholder(tx: Tx, meta: DocumentMeta): Promise<number> {
  const values = {
    ...documentValues(meta, { drafts: [], characterCount: 0, contentHash: '' }),
    generation: 0,
  };
  const [row] = await tx.insert(documents).values(values).returning({ id: documents.id });
  return row!.id;
}

async function documentExists(db: Db, documentId: number): Promise<boolean> {
  return (await db.$count(documents, eq(documents.id, documentId))) > 0;
}

/** As the chunks triggers do (migration 0006), for a change retrieval must see that writes no chunk. */
async function bumpCollectionVersion(tx: Tx, tenantId: number, sourceType: SourceType, collectionId: number) {
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
