import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** A text search configuration's name ('english', 'spanish'): what a chunk's words are stemmed by. */
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' });

export const SOURCE_TYPES = ['file', 'web', 'notion', 'qna', 'store'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * One source item's text (a file, a crawled page, a Notion page, a Q&A pair). `collection_id` is
 * what a bot attaches: the file group, web source or Notion workspace (for Q&A: the bot itself).
 * `generation` names its live chunks: a large document is retrained by writing a new generation of
 * chunks in many small transactions, invisible to retrieval, then pointing this column at it in one
 * short one (see ingest.ts), so no reader ever sees half a document and no writer holds the
 * database for long.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    sourceType: text('source_type', { enum: SOURCE_TYPES }).notNull(),
    sourceId: integer('source_id').notNull(),
    collectionId: integer('collection_id').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    contentHash: text('content_hash').notNull(),
    characterCount: integer('character_count').notNull(),
    /** The language its text is written in (languages.ts), its chunks' text search configuration. */
    language: text('language').notNull().default('english'),
    generation: integer('generation').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the source item was last read from its source, changed or not (citations show it). */
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('documents_source_key').on(t.tenantId, t.sourceType, t.sourceId),
    index('documents_collection_idx').on(t.tenantId, t.sourceType, t.collectionId),
  ],
);

/**
 * Retrieval units, about 800 tokens with overlap, with the heading path kept as context. `search`
 * is the full-text vector (stemmed and stopped in the chunk's `language`), generated from title, headings and
 * text and indexed with GIN. Vectors, where pgvector exists, live in chunk_embeddings (made at
 * start only on such databases), so these migrations need no extension.
 */
export const chunks = pgTable(
  'chunks',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    sourceType: text('source_type', { enum: SOURCE_TYPES }).notNull(),
    collectionId: integer('collection_id').notNull(),
    /** Retrieval reads a chunk only while it equals its document's `generation`. */
    generation: integer('generation').notNull().default(0),
    chunkIndex: integer('chunk_index').notNull(),
    content: text('content').notNull(),
    headingPath: text('heading_path'),
    pageTitle: text('page_title'),
    pageUrl: text('page_url'),
    pageNumber: integer('page_number'),
    tokenCount: integer('token_count').notNull(),
    /** Its document's language, as a configuration: a generated column may only call immutable functions. */
    language: regconfig('language').notNull().default(sql`'english'::regconfig`),
    search: tsvector('search').notNull().generatedAlwaysAs(
      // Titles are often file names ("refund-policy_2024.pdf"), which the parser reads as one token:
      // split them on path and punctuation characters so their words count.
      sql`setweight(to_tsvector(language, regexp_replace(coalesce(page_title, ''), '[/_.\-]+', ' ', 'g') || ' ' || coalesce(heading_path, '')), 'A') || setweight(to_tsvector(language, content), 'B')`,
    ),
  },
  (t) => [
    uniqueIndex('chunks_document_index_key').on(t.documentId, t.generation, t.chunkIndex),
    // With the id last, a collection is read in id order batch by batch (the in-memory index build)
    // by walking the index, not by sorting the collection on each batch.
    index('chunks_scope_idx').on(t.tenantId, t.sourceType, t.collectionId, t.id),
    index('chunks_search_idx').using('gin', t.search),
  ],
);

/**
 * Joined to `chunks c` by every read of chunks: only those of their document's live generation, so a
 * retrain in progress stays invisible (ingest.ts).
 */
export const LIVE_JOIN = sql.raw('JOIN documents d ON d.id = c.document_id AND d.generation = c.generation');

/** Generations of staged chunks, unique across documents so two runs never share one. */
export const chunkGenerations = pgSequence('chunk_generations', { startWith: 1, maxValue: 2_147_483_647 });

/**
 * A content version per chunk collection, bumped by a statement-level trigger on `chunks` (see
 * migration 0006) whenever any statement inserts, updates or deletes its chunks, whoever runs it.
 * Retrieval's in-memory index of a collection is used only at the version it was built from. No
 * foreign key to tenants: a tenant's delete cascades to its chunks, whose trigger writes here.
 * Rows are never deleted, so a version never repeats.
 */
export const chunkCollectionVersions = pgTable(
  'chunk_collection_versions',
  {
    tenantId: integer('tenant_id').notNull(),
    sourceType: text('source_type', { enum: SOURCE_TYPES }).notNull(),
    collectionId: integer('collection_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sourceType, t.collectionId] })],
);
