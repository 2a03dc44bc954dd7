import { and, eq } from 'drizzle-orm';
import { sha256 } from '../../core/crypto.js';
import type { DbOrTx } from '../../core/db/database.js';
import { type ChunkDraft, chunkSections, type Section } from './chunker.js';
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

/**
 * Stores a source item's text as a document and its chunks, replacing what it had. Run it inside
 * the caller's transaction: a worker killed half-way leaves the old chunks, never a mix or doubles,
 * and running it again with the same text changes nothing.
 */
export async function replaceDocument(tx: DbOrTx, input: DocumentInput): Promise<IngestResult> {
  const characterCount = input.sections.reduce((n, s) => n + s.text.length, 0);
  const contentHash = sha256(JSON.stringify([input.title, input.url ?? null, input.sections]));
  const [existing] = await tx
    .select({ id: documents.id, contentHash: documents.contentHash, collectionId: documents.collectionId })
    .from(documents)
    .where(sourceOf(input.tenantId, input.sourceType, input.sourceId))
    .for('update');
  if (existing && existing.contentHash === contentHash && existing.collectionId === input.collectionId) {
    const count = await tx.$count(chunks, eq(chunks.documentId, existing.id));
    return { documentId: existing.id, chunkCount: count, characterCount, unchanged: true };
  }
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
  const drafts = chunkSections(input.sections);
  await insertChunks(tx, input, documentId, drafts);
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
): Promise<void> {
  for (let i = 0; i < drafts.length; i += INSERT_BATCH) {
    await tx.insert(chunks).values(
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
    );
  }
}

const sourceOf = (tenantId: number, sourceType: SourceType, sourceId: number) =>
  and(
    eq(documents.tenantId, tenantId),
    eq(documents.sourceType, sourceType),
    eq(documents.sourceId, sourceId),
  );
