import type { SearchHit, SearchResult } from '@parley/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared, queryRows } from '../../core/db/database.js';
import type { ModuleDeps } from '../../core/module.js';
import { botCollections } from '../bots/visitor-language.js';
import { type Embedder, vectorLiteral } from './embeddings.js';
import { type CorpusStats, contentWords, STOP_WORDS, SYNONYM_WORDS } from './evidence.js';
import { LIVE_JOIN } from './knowledge.schema.js';
import { isLanguage, type Language, lexiconOf, questionLanguage } from './languages.js';
import {
  bm25Top,
  type Candidate,
  type IndexLookup,
  LexicalIndexCache,
  type VersionedCollection,
} from './lexical-index.js';
import { type Alike, bestPair, PAIR_LANGUAGE, type PairTerms, WORDING, WORDINGS } from './qna-questions.js';
import { embedderOf } from './vectors.js';

/** Matches ranked by SQL at most, among chunks newer than a stale in-memory index (see rankNewer). */
const NEWER_RANK_CAP = 100;
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
  /** Full-text rank (SearchHit.text_rank): BM25 from the in-memory stage, cover density from SQL alone. */
  rank: number;
  /** Cosine distance, on rows found by the vector query. */
  distance?: number;
  /** When the chunk's document was last fetched or confirmed unchanged. */
  synced_at: Date | string | null;
};

/** The evidence's words PostgreSQL is asked to stem once: one-word synonyms and stop words. */
const VOCABULARY_WORDS = [...new Set([...SYNONYM_WORDS.flat(), ...STOP_WORDS])].filter((w) =>
  /^[a-z]+$/.test(w),
);

/** Synonyms' stems by stem, and the stems of words that carry no subject (evidence.ts). */
type Vocabulary = { alike: Alike; filler: ReadonlySet<string> };

/** Collection ids per source type a bot's search covers (for Q&A: the bot itself). */
type Scope = { sourceType: SearchHit['source_type']; ids: number[] }[];
/**
 * A bot's scope, its collections' content versions, the languages its sources are written in (and
 * the question's own, when its words tell it), and
 * the question's lexemes as PostgreSQL stems it in each of them.
 */
type ScopeInfo = {
  scope: Scope;
  collections: VersionedCollection[];
  languages: Language[];
  lexemes: string[];
};

type Warn = (details: object, message: string) => void;

type QnaRow = { id: number; question: string; answer: string };

/** What a search finds, with the corpus figures an answer's evidence is judged by (evidence.ts). */
export type Retrieved = Omit<SearchResult, 'decision' | 'languages'> & { stats: CorpusStats };

/**
 * What a bot knows about a question: its attached sources (file groups, web sources, Notion
 * workspaces and its own Q&A), searched by full text. Matching is OR-style over stemmed terms
 * without stop words, so a natural question finds passages that hold only some of its words.
 * With a lexical index cache, the best chunks are picked in memory by BM25 and read by id;
 * otherwise (cache off, or a collection's index not built at its current version) SQL ranks every
 * match by cover density, which costs more the more chunks match. With an embedder (vector search on), the nearest chunks by
 * vector are fused with those by reciprocal rank. Tenant and bot scope are in the SQL itself.
 */
export class RetrievalService {
  constructor(
    private readonly db: DbOrTx,
    private readonly embedder: Embedder | null = null,
    private readonly warn: Warn = () => {},
    private readonly lexical: LexicalIndexCache | null = null,
  ) {
    this.languages = new CollectionLanguages(db);
  }

  /** The evidence's vocabulary (evidence.ts) as PostgreSQL stems it, read once. */
  private vocabulary: Promise<Vocabulary> | null = null;
  private readonly languages: CollectionLanguages;

  async search(tenantId: number, botId: number, query: string, limit = 8): Promise<Retrieved> {
    // The bot's collections first (one small query), so the chunk queries filter on plain id
    // lists the planner can match to the scope index, instead of an OR of subqueries per row.
    const found = await this.scope(tenantId, botId, query);
    const indexes = this.lexical?.lookup(found.collections) ?? null;
    // With the indexes in memory the corpus figures cost one small query, and tell which words the
    // corpus never holds: a likely typo's correction is searched beside it ("pasport": "passport").
    const known = indexes ? await this.corpusStats(tenantId, found, indexes, query) : null;
    const corrections = known?.corrections ?? [];
    const scope = corrections.length > 0 ? { ...found, lexemes: [...found.lexemes, ...corrections] } : found;
    const [lists, nearest, qnaMatch, stats] = await Promise.all([
      this.fullText(tenantId, scope, indexes, limit),
      this.nearest(tenantId, scope, query, limit),
      this.qnaMatch(tenantId, botId, scope),
      known ?? this.corpusStats(tenantId, scope, indexes, query),
    ]);
    if (!nearest) return { qna_match: qnaMatch, hits: fuse(lists).slice(0, limit), mode: 'full-text', stats };
    return { qna_match: qnaMatch, hits: fuse([...lists, nearest]).slice(0, limit), mode: 'hybrid', stats };
  }

  /**
   * How many chunks the bot's scope holds and, for each content word of the question, how many hold
   * it (by PostgreSQL's stems, as the search matches): from the in-memory indexes when every
   * collection has one, else counted by SQL on the search index. A word PostgreSQL drops as a stop
   * word gets df -1 (no weight).
   */
  private async corpusStats(
    tenantId: number,
    { scope, languages }: ScopeInfo,
    indexes: IndexLookup[] | null,
    query: string,
  ): Promise<CorpusStats> {
    const words = contentWords(query, lexiconOf(languages));
    if (indexes) {
      const chunks = indexes.reduce((n, { index }) => n + index.size, 0);
      if (words.length === 0) return { chunks, terms: [], languages };
      const lexemes = await this.lexemesOf(words, languages);
      const df = (lexeme: string) => indexes.reduce((n, { index }) => n + index.df(lexeme), 0);
      const terms = lexemes.map(({ word, lexemes: stems }) => ({
        word,
        df: stems.length === 0 ? -1 : Math.max(...stems.map(df)),
      }));
      const unknown = lexemes.filter((l, i) => terms[i]!.df === 0 && l.word.length >= 4);
      const corrections = unknown.flatMap((l) => correctionOf(l.lexemes[0]!, indexes));
      return { chunks, terms, corrections, languages };
    }
    const rows = await queryRows<{ word: string | null; df: number }>(
      this.db,
      sql`WITH w AS (SELECT word, ${STEMS_IN(languages)} AS lexemes
                     FROM unnest(${arrayLiteral(words)}::text[]) AS word)
        SELECT w.word, CASE WHEN cardinality(w.lexemes) = 0 THEN -1 ELSE (
          SELECT count(*) FROM chunks c ${LIVE_JOIN}
          WHERE c.tenant_id = ${tenantId} AND ${inScope(scope)}
            AND c.search @@ (SELECT string_agg(quote_literal(l), ' | ')::tsquery FROM unnest(w.lexemes) l)) END::int AS df
        FROM w
        UNION ALL
        SELECT NULL, count(*)::int FROM chunks c ${LIVE_JOIN} WHERE c.tenant_id = ${tenantId} AND ${inScope(scope)}`,
    );
    return {
      chunks: rows.find((r) => r.word === null)?.df ?? 0,
      terms: rows.flatMap((r) => (r.word === null ? [] : [{ word: r.word, df: Number(r.df) }])),
      languages,
    };
  }

  /** Each word's stems as PostgreSQL's configurations of these languages make them (none for a stop word of all). */
  private lexemesOf(words: string[], languages: Language[] = ['english']) {
    return queryRows<{ word: string; lexemes: string[] }>(
      this.db,
      sql`SELECT word, ${STEMS_IN(languages)} AS lexemes FROM unnest(${arrayLiteral(words)}::text[]) AS word`,
    );
  }

  /**
   * The collections a bot may use (its attached file groups, web sources, Notion workspaces and stores, and
   * its own Q&A) with their content versions, and the question's lexemes as plainto_tsquery
   * stems them: what the in-memory stage needs, in the statement the search makes anyway. The
   * question is stemmed in the languages the bot's sources had at its last search; when they have
   * changed since, once more in the new ones.
   */
  private async scope(tenantId: number, botId: number, query: string): Promise<ScopeInfo> {
    const guessed = this.languages.lastOf(tenantId, botId);
    const rows = await queryPrepared<{
      source_type: SearchHit['source_type'];
      collection_id: number;
      version: number;
      stems: Record<string, string[]>;
    }>(
      this.db,
      sql`SELECT s.source_type, s.collection_id,
               coalesce((SELECT v.version FROM chunk_collection_versions v
                 WHERE v.tenant_id = ${tenantId} AND v.source_type = s.source_type AND v.collection_id = s.collection_id), 0)::float8 AS version,
               ${stemsOf(query, guessed)} AS stems
        FROM ${botCollections(tenantId, botId)} s`,
    );
    const idsOf = (type: SearchHit['source_type']) =>
      rows.filter((r) => r.source_type === type).map((r) => r.collection_id);
    const collections = rows.map((r) => ({
      tenantId,
      sourceType: r.source_type,
      collectionId: r.collection_id,
      version: Number(r.version),
    }));
    const corpus = await this.languages.of(collections);
    this.languages.remember(tenantId, botId, corpus);
    const languages = withQuestionLanguage(corpus, query);
    const missing = languages.filter((language) => !guessed.includes(language));
    const stems = {
      ...rows[0]?.stems,
      ...(missing.length > 0
        ? (
            await queryRows<{ stems: Record<string, string[]> }>(
              this.db,
              sql`SELECT ${stemsOf(query, missing)} AS stems`,
            )
          )[0]?.stems
        : {}),
    };
    return {
      scope: (['file', 'web', 'notion', 'qna', 'store'] as const).map((sourceType) => ({
        sourceType,
        ids: idsOf(sourceType),
      })),
      collections,
      languages,
      lexemes: [...new Set(languages.flatMap((language) => stems[language] ?? []))],
    };
  }

  /** Chunks nearest the question by vector; null when vectors are off or the model failed. */
  private async nearest(tenantId: number, { scope }: ScopeInfo, query: string, limit: number) {
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
      sql`SELECT ${HIT_COLUMNS}, 0 AS rank, e.embedding <=> ${literal}::vector AS distance
        FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id ${LIVE_JOIN}
        WHERE e.tenant_id = ${tenantId} AND c.tenant_id = ${tenantId}
          AND ${inScope(scope)}
        ORDER BY e.embedding <=> ${literal}::vector
        LIMIT ${limit}`,
    );
  }

  /**
   * The best chunks by full text, as ranked lists to fuse: the in-memory BM25 candidates when every
   * collection has an index, plus, where an index is stale, the chunks newer than it ranked by SQL
   * (so a search stays exact and cheap while a large collection's index is rebuilt); else SQL alone.
   */
  private async fullText(
    tenantId: number,
    info: ScopeInfo,
    found: IndexLookup[] | null,
    limit: number,
  ): Promise<ChunkRow[][]> {
    if (!found) return [await this.rankAll(tenantId, inScope(info.scope), info.lexemes, limit)];
    const best = bm25Top(
      found.map((f) => f.index),
      info.lexemes,
      limit,
    );
    // Chunks only get higher ids: what a stale index lacks is above its last id.
    const newer = info.collections.flatMap((c, i) => {
      const { stale, index } = found[i]!;
      return stale
        ? [
            sql`(c.source_type = ${c.sourceType} AND c.collection_id = ${c.collectionId} AND c.id > ${index.lastChunkId})`,
          ]
        : [];
    });
    return Promise.all([
      this.fetchCandidates(tenantId, info.scope, best),
      ...(newer.length > 0
        ? [this.rankNewer(tenantId, sql`(${sql.join(newer, sql` OR `)})`, info.lexemes, limit)]
        : []),
    ]);
  }

  /** Every match in scope ranked by cover density: exact, but its cost grows with the matches. */
  private rankAll(tenantId: number, scope: SQL, lexemes: string[], limit: number): Promise<ChunkRow[]> {
    return queryRows<ChunkRow>(
      this.db,
      sql`WITH q AS (SELECT ${orQuery(lexemes)} AS query)
        SELECT ${HIT_COLUMNS}, ts_rank_cd(c.search, q.query, 32) AS rank
        FROM chunks c ${LIVE_JOIN}, q
        WHERE c.tenant_id = ${tenantId}
          AND c.search @@ q.query
          AND ${scope}
        ORDER BY rank DESC, c.id
        LIMIT ${limit}`,
    );
  }

  /**
   * Chunks newer than a stale index, ranked by cover density among at most NEWER_RANK_CAP of their
   * matches: exact after an ordinary change (a page, a pair), and bounded work for the seconds it
   * takes to rebuild the index after a large file, whose rows would otherwise all be ranked.
   */
  private rankNewer(tenantId: number, newer: SQL, lexemes: string[], limit: number): Promise<ChunkRow[]> {
    return queryRows<ChunkRow>(
      this.db,
      sql`WITH q AS (SELECT ${orQuery(lexemes)} AS query),
        m AS MATERIALIZED (
          SELECT c.id FROM chunks c ${LIVE_JOIN}, q
          WHERE c.tenant_id = ${tenantId} AND c.search @@ q.query AND ${newer}
          LIMIT ${NEWER_RANK_CAP})
        SELECT ${HIT_COLUMNS}, ts_rank_cd(c.search, q.query, 32) AS rank
        FROM m JOIN chunks c ON c.id = m.id JOIN documents d ON d.id = c.document_id, q
        ORDER BY rank DESC, c.id
        LIMIT ${limit}`,
    );
  }

  /**
   * The BM25 best, read by id, in BM25 order (the retrieval evaluation scores it above ordering
   * them, or four times as many, by cover density or by both fused), their BM25 score as `rank`.
   * Tenant and scope are checked again here, so an index that is stale or not this bot's can never
   * show another tenant's or collection's chunk.
   */
  private async fetchCandidates(
    tenantId: number,
    scope: Scope,
    candidates: Candidate[],
  ): Promise<ChunkRow[]> {
    if (candidates.length === 0) return [];
    // Materialized so the ids are looked up first by primary key, whatever the planner's statistics
    // (PGlite has no autovacuum to gather them), and only those rows are checked against the scope.
    const rows = await queryPrepared<Omit<ChunkRow, 'rank'>>(
      this.db,
      sql`WITH c AS MATERIALIZED (
          SELECT ${CHUNK_COLUMNS}, c.tenant_id, c.collection_id, c.generation FROM chunks c WHERE c.id = ANY(${`{${candidates.map((c) => c.chunkId).join(',')}}`}::int[]))
        SELECT ${HIT_COLUMNS} FROM c ${LIVE_JOIN} WHERE c.tenant_id = ${tenantId} AND ${inScope(scope)}`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return candidates.flatMap(({ chunkId, score }) => {
      const row = byId.get(chunkId);
      return row ? [{ ...row, rank: score }] : [];
    });
  }

  /**
   * The trained Q&A pair of the bot the question clearly means (see bestPair): found among the
   * pairs held in memory when their index is fresh (its answer then read by id, with tenant, bot
   * and training checked again), else among the pairs SQL finds sharing a stem with the question.
   */
  private async qnaMatch(
    tenantId: number,
    botId: number,
    info: ScopeInfo,
  ): Promise<SearchResult['qna_match']> {
    const qna = info.collections.find((c) => c.sourceType === 'qna')!;
    const questions = this.lexical?.questions(qna);
    // A pair says what the visitor means in the owner's words: "tidy up" is "Do you clean up?";
    // "guys" and "please" say nothing of it.
    const { alike, filler } = await this.vocabularyStems();
    const lexemes = info.lexemes.filter((l) => !filler.has(l));
    const best = questions
      ? questions.best(lexemes, alike)
      : await this.qnaMatchSql(tenantId, botId, lexemes, alike);
    if (!best) return null;
    // The wording the visitor's question was read against: the evidence checks it means the question.
    const [pair] = await queryPrepared<Pick<QnaRow, 'id' | 'question' | 'answer'>>(
      this.db,
      sql`SELECT id, coalesce((array[question] || alternate_questions)[${best.wording + 1}], question) AS question, answer
        FROM qna WHERE id = ${best.qnaId} AND tenant_id = ${tenantId} AND bot_id = ${botId} AND trained`,
    );
    return pair
      ? { qna_id: pair.id, question: pair.question, answer: pair.answer, overlap: best.coverage }
      : null;
  }

  /**
   * The synonym groups' stems, each stem's group-mates (words of several stems, "gluten-free", left
   * out), and the stems of the words that carry no subject ("guys", "please").
   */
  private vocabularyStems(): Promise<Vocabulary> {
    this.vocabulary ??= this.lexemesOf(VOCABULARY_WORDS)
      .then((rows) => {
        const stemOf = new Map(
          rows.flatMap((r) => (r.lexemes.length === 1 ? [[r.word, r.lexemes[0]!]] : [])),
        );
        const filler = new Set([...STOP_WORDS].flatMap((w) => stemOf.get(w) ?? []));
        const alike = new Map<string, Set<string>>();
        for (const group of SYNONYM_WORDS) {
          const stems = [...new Set(group.flatMap((w) => stemOf.get(w) ?? []))];
          for (const stem of stems) {
            const mates = alike.get(stem) ?? new Set<string>();
            for (const other of stems) if (other !== stem) mates.add(other);
            alike.set(stem, mates);
          }
        }
        return { alike: new Map([...alike].map(([stem, mates]) => [stem, [...mates]])), filler };
      })
      .catch((error: unknown) => {
        this.vocabulary = null;
        throw error;
      });
    return this.vocabulary;
  }

  /** The Q&A match in SQL: stems the pairs sharing a stem (or a synonym's) with the question, per query. */
  private async qnaMatchSql(tenantId: number, botId: number, lexemes: string[], alike: Alike) {
    if (lexemes.length === 0) return null;
    const mates = [...new Set(lexemes.flatMap((l) => alike.get(l) ?? []))];
    const orMates =
      mates.length > 0
        ? sql` OR (v.question || v.answer) @@ (SELECT string_agg(quote_literal(l), ' | ')::tsquery FROM unnest(${arrayLiteral(mates)}::text[]) l)`
        : sql``;
    const candidates = await queryRows<PairTerms & { total: number }>(
      this.db,
      sql`SELECT q.id, ${WORDING} AS wording, tsvector_to_array(v.question) AS question, tsvector_to_array(v.answer) AS answer,
               (SELECT count(*) FROM qna t WHERE t.tenant_id = ${tenantId} AND t.bot_id = ${botId} AND t.trained)::int AS total
        FROM qna q ${PAIR_LANGUAGE} ${WORDINGS} CROSS JOIN LATERAL (SELECT to_tsvector(pl.language, w.text) AS question,
                                              to_tsvector(pl.language, q.answer) AS answer) v
        WHERE q.tenant_id = ${tenantId} AND q.bot_id = ${botId} AND q.trained
          AND ((v.question || v.answer) @@ ${orQuery(lexemes)}${orMates})`,
    );
    return bestPair(candidates, candidates[0]?.total ?? 0, lexemes, alike);
  }
}

const CHUNK_FIELDS =
  'c.id, c.document_id, c.source_type, c.page_title, c.page_url, c.page_number, c.heading_path, c.content';
const CHUNK_COLUMNS = sql.raw(CHUNK_FIELDS);
/** A hit's columns: the chunk's, and when its document was last synced (`d` is documents). */
const HIT_COLUMNS = sql.raw(`${CHUNK_FIELDS}, d.synced_at`);

/** The corpus's most frequent stem that a stem it does not hold is likely a typo of, if any. */
function correctionOf(typed: string, indexes: IndexLookup[]): string[] {
  const best = indexes
    .map(({ index }) => index.closest(typed))
    .reduce<{ lexeme: string; df: number } | null>((a, b) => (b && (!a || b.df > a.df) ? b : a), null);
  return best ? [best.lexeme] : [];
}

/** A text[] parameter's literal; the words hold letters, digits, hyphens and apostrophes only. */
const arrayLiteral = (words: string[]) => `{${words.map((w) => `"${w.replace(/["\\]/g, '')}"`).join(',')}}`;

/** A tsquery that matches any of the question's stems (plainto_tsquery would AND them); NULL for none. */
const orQuery = (lexemes: string[]) =>
  sql`(SELECT string_agg(quote_literal(l), ' | ')::tsquery FROM unnest(${arrayLiteral(lexemes)}::text[]) l)`;

/**
 * The languages a question is read in: its sources', and its own when its words clearly tell it. A
 * price list of names ("Croissant: 2.80") tells no language, and letter trigrams may call it French:
 * "How much is a croissant?" must still lose "how", "much" and "is" as English's function words.
 */
function withQuestionLanguage(corpus: Language[], question: string): Language[] {
  const asked = questionLanguage(question);
  return asked && !corpus.includes(asked) ? [...corpus, asked] : corpus;
}

/** The text's stems in each of the languages, as a JSON object by language. */
const stemsOf = (text: string, languages: Language[]) =>
  sql`(SELECT json_object_agg(l, tsvector_to_array(to_tsvector(l::regconfig, ${text})))
    FROM unnest(${`{${languages.join(',')}}`}::text[]) l)`;

/** A word's stems in each of the languages (the column `word`), as one text[]. */
const STEMS_IN = (languages: Language[]) =>
  languages.length === 1
    ? sql`tsvector_to_array(to_tsvector(${languages[0]}::regconfig, word))`
    : sql`array(SELECT DISTINCT s FROM unnest(${`{${languages.join(',')}}`}::regconfig[]) l,
        unnest(tsvector_to_array(to_tsvector(l, word))) s)`;

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

/** Reciprocal-rank fusion's k: a list's first place counts 1/(k+1). */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion of ranked lists (full text, and vectors where configured): a chunk's score
 * is the sum of 1/(k + rank) over the lists it appears in.
 */
export function fuse(lists: ChunkRow[][]): SearchHit[] {
  const byId = new Map<
    number,
    { row: ChunkRow; score: number; textRank: number | null; distance: number | null }
  >();
  lists.forEach((list) => {
    list.forEach((row, position) => {
      const entry = byId.get(row.id) ?? {
        row,
        score: 0,
        textRank: row.distance === undefined ? Number(row.rank) : null,
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
      synced_at: row.synced_at === null ? null : new Date(row.synced_at).toISOString(),
      score: round(score),
      text_rank: textRank === null ? null : round(textRank),
      vector_distance: distance === null ? null : round(distance),
    }));
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

const services = new WeakMap<ModuleDeps, RetrievalService>();

/**
 * The process's retrieval service, shared by chat and the knowledge routes so they share one
 * in-memory index (RETRIEVAL_INDEX_MB bounds it; 0 turns it off).
 */
export function retrievalOf(deps: ModuleDeps): RetrievalService {
  let service = services.get(deps);
  if (!service) {
    const warn: Warn = (details, message) => deps.log.warn(details, message);
    const maxBytes = deps.config.RETRIEVAL_INDEX_MB * 1024 * 1024;
    const lexical = maxBytes > 0 ? new LexicalIndexCache(deps.db, { maxBytes, warn }) : null;
    service = new RetrievalService(deps.db, embedderOf(deps), warn, lexical);
    services.set(deps, service);
  }
  return service;
}

/** Collections whose languages are kept in memory, at most; past it the map starts again. */
const MAX_REMEMBERED_COLLECTIONS = 10_000;

/**
 * The languages of each collection's documents, most documents first, at its content version, read from the database
 * once per version (a version changes with every write of its chunks, and so with any language).
 * A bot with no documents yet searches in English.
 */
class CollectionLanguages {
  /** Each collection's documents per language, at a content version. */
  private readonly known = new Map<string, { version: number; counts: Map<Language, number> }>();
  /** Each bot's languages at its last search: what its next question is stemmed in first. */
  private readonly lastByBot = new Map<string, Language[]>();

  lastOf(tenantId: number, botId: number): Language[] {
    return this.lastByBot.get(`${tenantId}:${botId}`) ?? ['english'];
  }

  remember(tenantId: number, botId: number, languages: Language[]): void {
    if (this.lastByBot.size >= MAX_REMEMBERED_COLLECTIONS) this.lastByBot.clear();
    this.lastByBot.set(`${tenantId}:${botId}`, languages);
  }

  constructor(private readonly db: DbOrTx) {}

  async of(collections: VersionedCollection[]): Promise<Language[]> {
    const keyOf = (c: VersionedCollection) => `${c.tenantId}:${c.sourceType}:${c.collectionId}`;
    const missing = collections.filter((c) => this.known.get(keyOf(c))?.version !== c.version);
    if (missing.length > 0) {
      const rows = await queryRows<{
        source_type: string;
        collection_id: number;
        language: string;
        n: number;
      }>(
        this.db,
        sql`SELECT d.source_type, d.collection_id, d.language, count(*)::int AS n
          FROM documents d
          WHERE d.tenant_id = ${missing[0]!.tenantId}
            AND (d.source_type, d.collection_id) IN (${sql.join(
              missing.map((c) => sql`(${c.sourceType}, ${c.collectionId}::int)`),
              sql`, `,
            )})
          GROUP BY d.source_type, d.collection_id, d.language`,
      );
      if (this.known.size + missing.length > MAX_REMEMBERED_COLLECTIONS) this.known.clear();
      for (const c of missing) {
        const counts = new Map<Language, number>();
        for (const r of rows)
          if (r.source_type === c.sourceType && r.collection_id === c.collectionId && isLanguage(r.language))
            counts.set(r.language, r.n);
        this.known.set(keyOf(c), { version: c.version, counts });
      }
    }
    const totals = new Map<Language, number>();
    for (const c of collections)
      for (const [language, n] of this.known.get(keyOf(c))?.counts ?? [])
        totals.set(language, (totals.get(language) ?? 0) + n);
    // Most documents first: the bot's main language leads (visitorLanguageOf).
    const languages = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l]) => l);
    return languages.length > 0 ? languages : ['english'];
  }
}
