import { and, eq } from 'drizzle-orm';
import { sha256 } from '../../core/crypto.js';
import { type DbOrTx, sql } from '../../core/db/database.js';
import { type ChunkDraft, chunkSections, type Section } from './chunker.js';
import { type Embedder, vectorLiteral } from './embeddings.js';
import { chunks, documents, type SourceType } from './knowledge.schema.js';

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

const INSERT_BATCH = 200;
/** First key of the advisory locks on source items (the second is a hash of the item). */
const DOCUMENT_LOCK_CLASS = 0x0d0c;

/**
 * Stores a source item's text as a document and its chunks, replacing what it had. Run it inside
 * the caller's transaction: a worker killed half-way leaves the old chunks, never a mix or doubles,
 * and running it again with the same text changes nothing. With an `embedder` (vector search on),
 * the new chunks' vectors are stored in the same transaction.
 */
export async function replaceDocument(
  tx: DbOrTx,
  input: DocumentInput,
  embedder?: Embedder | null,
): Promise<IngestResult> {
  const characterCount = input.sections.reduce((n, s) => n + s.text.length, 0);
  const contentHash = sha256(JSON.stringify([input.title, input.url ?? null, input.sections]));
  // Two runs may index the same item at once (a worker that lost its lease and the one that took
  // the job over). FOR UPDATE below only locks a document that exists; this lock also serialises
  // the first indexing, so the second run sees the first one's document instead of failing on the
  // unique key. Held until the transaction ends.
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${DOCUMENT_LOCK_CLASS}::int, hashtext(${`${input.tenantId}:${input.sourceType}:${input.sourceId}`}))`,
  );
  const [existing] = await tx
    .select({ id: documents.id, contentHash: documents.contentHash, collectionId: documents.collectionId })
    .from(documents)
    .where(sourceOf(input.tenantId, input.sourceType, input.sourceId))
    .for('update');
  if (existing && existing.contentHash === contentHash && existing.collectionId === input.collectionId) {
    const count = await tx.$count(chunks, eq(chunks.documentId, existing.id));
    return { documentId: existing.id, chunkCount: count, characterCount, unchanged: true };
  }
  // Chunked and embedded before this document's writes, so a slow or failing model changes nothing.
  const drafts = chunkSections(input.sections);
  const vectors = embedder ? await embedder.embed(drafts.map(embeddingText)) : null;
  const values = {
    tenantId: input.tenantId,
    sourceType: input.sourceType,
    sourceId: input.sourceId,
    collectionId: input.collectionId,
    title: input.title,
    url: input.url ?? null,
    contentHash,
    characterCount,
    updatedAt: new Date(),
  };
  const documentId = existing
    ? (
        await tx
          .update(documents)
          .set(values)
          .where(eq(documents.id, existing.id))
          .returning({ id: documents.id })
      )[0]!.id
    : (await tx.insert(documents).values(values).returning({ id: documents.id }))[0]!.id;
  await tx.delete(chunks).where(eq(chunks.documentId, documentId));
  const chunkIds = await insertChunks(tx, input, documentId, drafts);
  if (vectors) await insertEmbeddings(tx, input.tenantId, chunkIds, vectors);
  return { documentId, chunkCount: drafts.length, characterCount, unchanged: false };
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
  input: DocumentInput,
  documentId: number,
  drafts: ChunkDraft[],
): Promise<number[]> {
  const byIndex = new Map<number, number>();
  for (let i = 0; i < drafts.length; i += INSERT_BATCH) {
    const rows = await tx
      .insert(chunks)
      .values(
        drafts.slice(i, i + INSERT_BATCH).map((draft) => ({
          tenantId: input.tenantId,
          documentId,
          sourceType: input.sourceType,
          collectionId: input.collectionId,
          chunkIndex: draft.chunkIndex,
          content: draft.content,
          headingPath: draft.headingPath,
          pageTitle: input.title,
          pageUrl: input.url ?? null,
          pageNumber: draft.pageNumber,
          tokenCount: draft.tokenCount,
        })),
      )
      .returning({ id: chunks.id, chunkIndex: chunks.chunkIndex });
    for (const row of rows) byIndex.set(row.chunkIndex, row.id);
  }
  // In the drafts' order, which is the order of their vectors.
  return drafts.map((draft) => byIndex.get(draft.chunkIndex)!);
}

/** What a chunk's vector stands for: its heading path gives the passage its context. */
const embeddingText = (draft: ChunkDraft) =>
  draft.headingPath ? `${draft.headingPath}\n\n${draft.content}` : draft.content;

async function insertEmbeddings(tx: DbOrTx, tenantId: number, chunkIds: number[], vectors: number[][]) {
  for (let i = 0; i < chunkIds.length; i += INSERT_BATCH) {
    const rows = chunkIds
      .slice(i, i + INSERT_BATCH)
      .map((id, j) => sql`(${id}, ${tenantId}, ${vectorLiteral(vectors[i + j]!)}::vector)`);
    await tx.execute(
      sql`INSERT INTO chunk_embeddings (chunk_id, tenant_id, embedding) VALUES ${sql.join(rows, sql`, `)}`,
    );
  }
}

const sourceOf = (tenantId: number, sourceType: SourceType, sourceId: number) =>
  and(
    eq(documents.tenantId, tenantId),
    eq(documents.sourceType, sourceType),
    eq(documents.sourceId, sourceId),
  );
