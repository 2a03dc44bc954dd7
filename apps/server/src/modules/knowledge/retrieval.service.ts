import type { SearchHit, SearchResult } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { type Embedder, vectorLiteral } from './embeddings.js';

/** How much of the query a Q&A question must cover, and of the question the query, to answer directly. */
const QNA_QUERY_COVERAGE = 0.6;
const QNA_QUESTION_COVERAGE = 0.5;
/** A question's vector must come quickly: past this, full text answers alone. */
const QUERY_EMBED_TIMEOUT_MS = 5000;

type ChunkRow = {
  id: number;
  document_id: number;
  source_type: SearchHit['source_type'];
  page_title: string | null;
  page_url: string | null;
  page_number: number | null;
  heading_path: string | null;
  content: string;
  rank: number;
  /** Cosine distance, on rows found by the vector query. */
  distance?: number;
};

/** Collection ids per source type a bot's search covers (for Q&A: the bot itself). */
type Scope = { sourceType: SearchHit['source_type']; ids: number[] }[];

type Warn = (details: object, message: string) => void;

type QnaRow = {
  id: number;
  question: string;
  answer: string;
  matched: number;
  query_terms: number;
  question_terms: number;
};

/**
 * What a bot knows about a question: its attached sources (file groups, web sources, Notion
 * workspaces and its own Q&A), searched by full text. Matching is OR-style over stemmed terms
 * without stop words, ranked by cover density, so a natural question finds passages that hold only
 * some of its words. With an embedder (vector search on), the nearest chunks by vector are fused
 * with those by reciprocal rank. Tenant and bot scope are in the SQL itself.
 */
export class RetrievalService {
  constructor(
    private readonly db: DbOrTx,
    private readonly embedder: Embedder | null = null,
    private readonly warn: Warn = () => {},
  ) {}

  async search(tenantId: number, botId: number, query: string, limit = 8): Promise<SearchResult> {
    // The bot's collections first (one small query), so the chunk queries filter on plain id
    // lists the planner can match to the scope index, instead of an OR of subqueries per row.
    const scope = await this.scope(tenantId, botId);
    const [hits, nearest, qnaMatch] = await Promise.all([
      this.fullText(tenantId, scope, query, limit),
      this.nearest(tenantId, scope, query, limit),
      this.qnaMatch(tenantId, botId, query),
    ]);
    if (!nearest) return { qna_match: qnaMatch, hits: fuse([hits]), mode: 'full-text' };
    return { qna_match: qnaMatch, hits: fuse([hits, nearest]).slice(0, limit), mode: 'hybrid' };
  }

  /** The collections a bot may use: its attached file groups, web sources and Notion workspaces, and its own Q&A. */
  private async scope(tenantId: number, botId: number): Promise<Scope> {
    const [row] = await queryRows<{ file: number[]; web: number[]; notion: number[] }>(
      this.db,
      sql`SELECT
          ARRAY(SELECT file_group_id FROM bot_file_groups WHERE tenant_id = ${tenantId} AND bot_id = ${botId} ORDER BY 1) AS file,
          ARRAY(SELECT web_source_id FROM bot_web_sources WHERE tenant_id = ${tenantId} AND bot_id = ${botId} ORDER BY 1) AS web,
          ARRAY(SELECT notion_workspace_id FROM bot_notion_workspaces WHERE tenant_id = ${tenantId} AND bot_id = ${botId} ORDER BY 1) AS notion`,
    );
    return [
      { sourceType: 'file', ids: row?.file ?? [] },
      { sourceType: 'web', ids: row?.web ?? [] },
      { sourceType: 'notion', ids: row?.notion ?? [] },
      { sourceType: 'qna', ids: [botId] },
    ];
  }

  /** Chunks nearest the question by vector; null when vectors are off or the model failed. */
  private async nearest(tenantId: number, scope: Scope, query: string, limit: number) {
    if (!this.embedder) return null;
    let vector: number[];
    try {
      [vector] = (await this.embedder.embed([query], QUERY_EMBED_TIMEOUT_MS)) as [number[]];
    } catch (error) {
      // A search must answer even when the embedding model is down: full text alone then.
      this.warn({ err: (error as Error).message }, 'query embedding failed; searching by full text only');
      return null;
    }
    const literal = vectorLiteral(vector);
    return queryRows<ChunkRow>(
      this.db,
      sql`SELECT c.id, c.document_id, c.source_type, c.page_title, c.page_url, c.page_number, c.heading_path, c.content,
               0 AS rank, e.embedding <=> ${literal}::vector AS distance
        FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id
        WHERE e.tenant_id = ${tenantId} AND c.tenant_id = ${tenantId}
          AND ${inScope(scope)}
        ORDER BY e.embedding <=> ${literal}::vector
        LIMIT ${limit}`,
    );
  }

  private fullText(tenantId: number, scope: Scope, query: string, limit: number): Promise<ChunkRow[]> {
    return queryRows<ChunkRow>(
      this.db,
      sql`WITH q AS (SELECT ${orQuery(query)} AS query)
        SELECT c.id, c.document_id, c.source_type, c.page_title, c.page_url, c.page_number, c.heading_path, c.content,
               ts_rank_cd(c.search, q.query, 32) AS rank
        FROM chunks c, q
        WHERE c.tenant_id = ${tenantId}
          AND c.search @@ q.query
          AND ${inScope(scope)}
        ORDER BY rank DESC, c.id
        LIMIT ${limit}`,
    );
  }

  /** The trained Q&A pair of the bot whose question best matches, if it matches well enough. */
  private async qnaMatch(tenantId: number, botId: number, query: string): Promise<SearchResult['qna_match']> {
    const [best] = await queryRows<QnaRow>(
      this.db,
      sql`WITH q AS (SELECT tsvector_to_array(to_tsvector('english', ${query})) AS terms)
        SELECT a.id, a.question, a.answer,
               (SELECT count(*) FROM unnest(tsvector_to_array(to_tsvector('english', a.question))) t WHERE t = ANY(q.terms))::int AS matched,
               coalesce(array_length(q.terms, 1), 0) AS query_terms,
               coalesce(array_length(tsvector_to_array(to_tsvector('english', a.question)), 1), 0) AS question_terms
        FROM qna a, q
        WHERE a.tenant_id = ${tenantId} AND a.bot_id = ${botId} AND a.trained
          AND to_tsvector('english', a.question) @@ ${orQuery(query)}
        ORDER BY matched DESC, a.id
        LIMIT 5`,
    );
    if (!best || best.query_terms === 0 || best.question_terms === 0) return null;
    const overlap = best.matched / best.query_terms;
    const covered = best.matched / best.question_terms;
    if (overlap < QNA_QUERY_COVERAGE || covered < QNA_QUESTION_COVERAGE) return null;
    return { qna_id: best.id, question: best.question, answer: best.answer, overlap: round(overlap) };
  }
}

/** A tsquery that matches any of the question's stemmed terms (plainto_tsquery ANDs them). */
const orQuery = (query: string) =>
  sql`nullif(replace(plainto_tsquery('english', ${query})::text, '&', '|'), '')::tsquery`;

/** The chunks of these collections (per source type); only the types with any are named. */
const inScope = (scope: Scope) =>
  sql`(${sql.join(
    scope
      .filter(({ ids }) => ids.length > 0)
      .map(({ sourceType, ids }) =>
        ids.length === 1
          ? sql`(c.source_type = ${sourceType} AND c.collection_id = ${ids[0]})`
          : sql`(c.source_type = ${sourceType} AND c.collection_id = ANY(${`{${ids.join(',')}}`}::int[]))`,
      ),
    sql` OR `,
  )})`;

const RRF_K = 60;

/**
 * Reciprocal-rank fusion of ranked lists (full text, and vectors where configured): a chunk's score
 * is the sum of 1/(k + rank) over the lists it appears in.
 */
export function fuse(lists: ChunkRow[][]): SearchHit[] {
  const byId = new Map<
    number,
    { row: ChunkRow; score: number; textRank: number | null; distance: number | null }
  >();
  lists.forEach((list, listIndex) => {
    list.forEach((row, position) => {
      const entry = byId.get(row.id) ?? {
        row,
        score: 0,
        textRank: listIndex === 0 ? Number(row.rank) : null,
        distance: null,
      };
      if (row.distance !== undefined && row.distance !== null) entry.distance = Number(row.distance);
      entry.score += 1 / (RRF_K + position + 1);
      byId.set(row.id, entry);
    });
  });
  return [...byId.values()]
    .sort((a, b) => b.score - a.score)
    .map(({ row, score, textRank, distance }) => ({
      chunk_id: row.id,
      document_id: row.document_id,
      source_type: row.source_type,
      page_title: row.page_title,
      page_url: row.page_url,
      page_number: row.page_number,
      heading_path: row.heading_path,
      content: row.content,
      score: round(score),
      text_rank: textRank === null ? null : round(textRank),
      vector_distance: distance === null ? null : round(distance),
    }));
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
