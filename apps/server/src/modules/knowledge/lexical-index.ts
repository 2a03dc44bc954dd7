import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type DbOrTx, queryRows, sql } from '../../core/db/database.js';
import { typoOf } from './evidence.js';
import { LIVE_JOIN, type SourceType } from './knowledge.schema.js';
import { loadQuestions, type QnaQuestions } from './qna-questions.js';

/** BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
/**
 * How long one statement reading chunks for a build aims to take: PGlite answers every request
 * through one connection in this thread, so a batch of long chunks' tsvectors (some 0.5 s per
 * thousand to read, and as long again to parse) would stall them all. The batch grows or shrinks towards it, between these bounds.
 */
const BUILD_BATCH_MS = 20;
const BUILD_BATCH_FIRST = 100;
const BUILD_BATCH_MAX = 1000;
/** Bytes of one lexeme in the dictionary (string, map entry, offset), as measured on a heap. */
const LEXEME_BYTES = 160;

/**
 * A chunk collection within a tenant, as bots attach it (for Q&A: the bot itself), at the content
 * version the database reported.
 */
export type VersionedCollection = {
  tenantId: number;
  sourceType: SourceType;
  collectionId: number;
  version: number;
};
export type Candidate = { chunkId: number; score: number };
/** A collection's index, `stale` when built at an older version than the one asked for. */
export type IndexLookup = { index: CollectionIndex; stale: boolean };

type Warn = (details: object, message: string) => void;
export type LexicalIndexOptions = { maxBytes: number; warn?: Warn };

/**
 * One collection's postings, read from the chunks' own tsvectors (PostgreSQL's parser and stemmer
 * stay the tokenizer), in compressed rows: lexeme → a slice of `docs` (chunk positions in
 * `chunkIds`) and `tfs` (occurrences).
 */
export class CollectionIndex {
  constructor(
    readonly version: number,
    readonly chunkIds: Int32Array,
    readonly lengths: Uint32Array,
    readonly totalLength: number,
    private readonly terms: Map<string, number>,
    private readonly offsets: Uint32Array,
    private readonly docs: Uint32Array,
    private readonly tfs: Uint16Array,
  ) {}

  get size(): number {
    return this.chunkIds.length;
  }

  /** The highest chunk id it holds (they are read in id order), 0 when empty. */
  get lastChunkId(): number {
    return this.chunkIds.at(-1) ?? 0;
  }

  /** What the index holds, for the memory cap. */
  get bytes(): number {
    return (
      this.docs.byteLength +
      this.tfs.byteLength +
      this.offsets.byteLength +
      this.chunkIds.byteLength +
      this.lengths.byteLength +
      this.terms.size * LEXEME_BYTES
    );
  }

  /** The most frequent lexeme the typed one is likely a typo of, with its count; null when none is. */
  closest(typed: string): { lexeme: string; df: number } | null {
    let best: { lexeme: string; df: number } | null = null;
    for (const lexeme of this.terms.keys()) {
      if (!typoOf(typed, lexeme)) continue;
      const df = this.df(lexeme);
      if (!best || df > best.df) best = { lexeme, df };
    }
    return best;
  }

  /** The number of chunks holding the lexeme. */
  df(lexeme: string): number {
    const term = this.terms.get(lexeme);
    return term === undefined ? 0 : this.offsets[term + 1]! - this.offsets[term]!;
  }

  /**
   * Adds the lexeme's BM25 term scores to `scores` (by chunk position), listing in `touched` the
   * positions scored for the first time; answers the new length of `touched`.
   */
  accumulate(
    lexeme: string,
    idf: number,
    averageLength: number,
    scores: Float64Array,
    touched: Uint32Array,
    count: number,
  ): number {
    const term = this.terms.get(lexeme);
    if (term === undefined) return count;
    const end = this.offsets[term + 1]!;
    for (let p = this.offsets[term]!; p < end; p++) {
      const doc = this.docs[p]!;
      const tf = this.tfs[p]!;
      const norm = K1 * (1 - B + (B * this.lengths[doc]!) / averageLength);
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += (idf * tf * (K1 + 1)) / (tf + norm);
    }
    return count;
  }
}

/** Collects chunks (id and tsvector text) and freezes them into a CollectionIndex. */
export class IndexBuilder {
  private readonly terms = new Map<string, number>();
  private readonly chunkIds: number[] = [];
  private readonly lengths: number[] = [];
  /** Per posting, in chunk order: its term and tf; `starts` marks where each chunk begins. */
  private pairTerms = new Uint32Array(1 << 16);
  private pairTfs = new Uint16Array(1 << 16);
  private pairs = 0;
  private readonly starts: number[] = [];

  add(chunkId: number, tsvector: string): void {
    this.chunkIds.push(chunkId);
    this.starts.push(this.pairs);
    let length = 0;
    parseTsvector(tsvector, (lexeme, tf) => {
      let term = this.terms.get(lexeme);
      if (term === undefined) {
        term = this.terms.size;
        // V8 keeps a slice of 13 characters or more as a view of its source: copied, so the
        // dictionary does not hold every chunk's whole tsvector text alive.
        this.terms.set(lexeme.length > 12 ? Buffer.from(lexeme).toString() : lexeme, term);
      }
      this.push(term, tf);
      length += tf;
    });
    this.lengths.push(length);
  }

  build(version: number): CollectionIndex {
    const termCount = this.terms.size;
    const offsets = new Uint32Array(termCount + 1);
    for (let p = 0; p < this.pairs; p++) offsets[this.pairTerms[p]! + 1]! += 1;
    for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
    const fill = offsets.slice(0, termCount);
    const docs = new Uint32Array(this.pairs);
    const tfs = new Uint16Array(this.pairs);
    this.starts.push(this.pairs);
    for (let doc = 0; doc < this.chunkIds.length; doc++) {
      for (let p = this.starts[doc]!; p < this.starts[doc + 1]!; p++) {
        const slot = fill[this.pairTerms[p]!]!++;
        docs[slot] = doc;
        tfs[slot] = this.pairTfs[p]!;
      }
    }
    const lengths = Uint32Array.from(this.lengths);
    const totalLength = this.lengths.reduce((sum, l) => sum + l, 0);
    return new CollectionIndex(
      version,
      Int32Array.from(this.chunkIds),
      lengths,
      totalLength,
      this.terms,
      offsets,
      docs,
      tfs,
    );
  }

  private push(term: number, tf: number): void {
    if (this.pairs === this.pairTerms.length) {
      const terms = new Uint32Array(this.pairs * 2);
      terms.set(this.pairTerms);
      this.pairTerms = terms;
      const tfs = new Uint16Array(this.pairs * 2);
      tfs.set(this.pairTfs);
      this.pairTfs = tfs;
    }
    this.pairTerms[this.pairs] = term;
    this.pairTfs[this.pairs] = tf;
    this.pairs += 1;
  }
}

/**
 * A title or heading word (weight A in the chunk's tsvector) counts as this many body words: a
 * section titled "Removing the driver" is about removing the driver more than a passage that
 * mentions it once.
 */
export const HEADING_WEIGHT = 2;

/**
 * Reads a tsvector's text form (`'lexeme':1,5A 'it''s':3`): per lexeme its weighted occurrences,
 * a position of weight A counting HEADING_WEIGHT. A lexeme stored without positions counts once.
 */
export function parseTsvector(text: string, visit: (lexeme: string, tf: number) => void): void {
  let i = 0;
  const n = text.length;
  while (i < n) {
    // i is at the opening quote of a lexeme.
    let end = i + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(end);
      if (c === 92 /* \ */) {
        escaped = true;
        end += 2;
      } else if (c === 39 /* ' */ && text.charCodeAt(end + 1) === 39) {
        escaped = true;
        end += 2;
      } else if (c === 39 || end >= n) break;
      else end += 1;
    }
    const raw = text.slice(i + 1, end);
    const lexeme = escaped ? raw.replace(/''/g, "'").replace(/\\(.)/g, '$1') : raw;
    i = end + 1;
    let tf = 1;
    if (text.charCodeAt(i) === 58 /* : */) {
      tf = 0;
      let weight = 1;
      for (i += 1; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 65 /* A */) weight = HEADING_WEIGHT;
        else if (c === 44 /* , */ || c === 32 /* space */) {
          tf += weight;
          weight = 1;
          if (c === 32) break;
        }
      }
      if (i >= n) tf += weight;
    }
    visit(lexeme, tf);
    i += 1; // the space before the next lexeme
  }
}

/**
 * The best `k` chunks of these collections for the query's lexemes by BM25, with document
 * frequencies and average length taken over all of them (a bot's whole scope). Ties go to the
 * lower chunk id, as the SQL path orders them.
 */
export function bm25Top(indexes: CollectionIndex[], lexemes: string[], k: number): Candidate[] {
  const total = indexes.reduce((n, index) => n + index.size, 0);
  if (total === 0 || lexemes.length === 0) return [];
  const averageLength = indexes.reduce((n, index) => n + index.totalLength, 0) / total;
  const idfs = lexemes.map((lexeme) => {
    const df = indexes.reduce((n, index) => n + index.df(lexeme), 0);
    return Math.log(1 + (total - df + 0.5) / (df + 0.5));
  });
  const top = new TopK(k);
  for (const index of indexes) {
    const scores = new Float64Array(index.size);
    const touched = new Uint32Array(index.size);
    let count = 0;
    lexemes.forEach((lexeme, i) => {
      count = index.accumulate(lexeme, idfs[i]!, averageLength, scores, touched, count);
    });
    for (let i = 0; i < count; i++) top.offer(index.chunkIds[touched[i]!]!, scores[touched[i]!]!);
  }
  return top.sorted();
}

/** Keeps the k best (score, then lower id) of what it is offered, in a min-heap. */
class TopK {
  private readonly heap: Candidate[] = [];
  constructor(private readonly k: number) {}

  offer(chunkId: number, score: number): void {
    if (this.heap.length < this.k) {
      this.heap.push({ chunkId, score });
      this.up(this.heap.length - 1);
    } else if (this.k > 0 && better({ chunkId, score }, this.heap[0]!)) {
      this.heap[0] = { chunkId, score };
      this.down(0);
    }
  }

  sorted(): Candidate[] {
    return [...this.heap].sort((a, b) => (better(a, b) ? -1 : 1));
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(this.heap[parent]!, this.heap[i]!)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < this.heap.length && better(this.heap[worst]!, this.heap[child]!)) worst = child;
      }
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(a: number, b: number): void {
    [this.heap[a], this.heap[b]] = [this.heap[b]!, this.heap[a]!];
  }
}

const better = (a: Candidate, b: Candidate) =>
  a.score > b.score || (a.score === b.score && a.chunkId < b.chunkId);

/** What the cache holds: an index of one collection's chunks, or of one bot's Q&A questions. */
type Entry = { readonly version: number; readonly bytes: number };

/**
 * The in-memory first stage of full-text retrieval: per collection an index of its chunks (and per
 * bot its trained Q&A questions), kept while the collection's content version stays the one the
 * database reports, least recently used entries dropped past `maxBytes`. A missing or stale entry
 * is (re)built in the background, one at a time, while searches needing it take the SQL path (a
 * stale one serving meanwhile, with SQL for what is newer: see `lookup`). One
 * cache per process, shared by every search.
 */
export class LexicalIndexCache {
  private readonly entries = new Map<string, Entry>();
  /** Versions found too big for the cap, so they are not rebuilt on every search. */
  private readonly oversized = new Map<string, number>();
  private readonly building = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private bytes = 0;
  /** `served` counts lookups answered, `stale` those of them with a stale index. */
  readonly stats = { served: 0, stale: 0, missed: 0, builds: 0, evictions: 0 };

  constructor(
    private readonly db: DbOrTx,
    private readonly options: LexicalIndexOptions,
  ) {}

  /**
   * The chunk indexes of all these collections, or null when any has none yet. An index built at an
   * older version than asked for is still answered, marked stale, while the current one is built in
   * the background: chunks are only ever inserted (with growing ids) or deleted, never changed, so
   * the caller can add what is newer than `lastChunkId` by SQL and drop deleted rows when it reads
   * them, instead of ranking the whole collection in SQL while a large one is rebuilt.
   */
  lookup(collections: VersionedCollection[]): IndexLookup[] | null {
    const found = collections.map((c) => {
      const key = `chunks:${c.tenantId}:${c.sourceType}:${c.collectionId}`;
      const fresh = this.fresh(key, c.version, () => loadCollection(this.db, c));
      if (fresh) return { index: fresh, stale: false };
      const latest = this.entries.get(key);
      return latest instanceof CollectionIndex ? { index: latest, stale: true } : null;
    });
    if (found.includes(null)) {
      this.stats.missed += 1;
      return null;
    }
    this.stats.served += 1;
    if (found.some((f) => f!.stale)) this.stats.stale += 1;
    return found as IndexLookup[];
  }

  /** The bot's trained Q&A questions at its 'qna' collection's version (the qna table bumps it too). */
  questions(qna: VersionedCollection): QnaQuestions | null {
    return this.fresh(`qna:${qna.tenantId}:${qna.collectionId}`, qna.version, () =>
      loadQuestions(this.db, qna.tenantId, qna.collectionId, qna.version),
    );
  }

  /** Resolves once every build scheduled so far has finished. */
  idle(): Promise<void> {
    return this.queue;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  private fresh<T extends Entry>(key: string, version: number, load: () => Promise<T>): T | null {
    const entry = this.entries.get(key);
    if (entry?.version !== version) {
      this.schedule(key, version, load);
      return null;
    }
    this.entries.delete(key); // re-inserted last: the Map's order is the LRU order
    this.entries.set(key, entry);
    return entry as T;
  }

  private schedule(key: string, version: number, load: () => Promise<Entry>): void {
    if (this.building.has(key) || this.oversized.get(key) === version) return;
    this.building.add(key);
    this.queue = this.queue
      .then(async () => {
        if (this.entries.get(key)?.version !== version) this.store(key, await load());
      })
      .catch((error: unknown) =>
        this.options.warn?.({ err: (error as Error).message, entry: key }, 'retrieval index build failed'),
      )
      .finally(() => this.building.delete(key));
  }

  private store(key: string, entry: Entry): void {
    this.stats.builds += 1;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    if (entry.bytes > this.options.maxBytes) {
      this.oversized.set(key, entry.version);
      return;
    }
    for (const [oldest, old] of this.entries) {
      if (this.bytes + entry.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
      this.stats.evictions += 1;
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
  }
}

/**
 * Reads a collection's tsvectors in id order, in batches with a turn of the event loop between
 * them. Its version was read before the chunks: if a writer commits meanwhile, the index may hold
 * newer rows than its version says, but that version is then already past and never asked for again.
 */
async function loadCollection(db: DbOrTx, collection: VersionedCollection): Promise<CollectionIndex> {
  const builder = new IndexBuilder();
  let after = 0;
  let batch = BUILD_BATCH_FIRST;
  for (;;) {
    const started = performance.now();
    const rows = await queryRows<{ id: number; search: string }>(
      db,
      sql`SELECT c.id, c.search::text AS search FROM chunks c ${LIVE_JOIN}
        WHERE c.tenant_id = ${collection.tenantId} AND c.source_type = ${collection.sourceType}
          AND c.collection_id = ${collection.collectionId} AND c.id > ${after}
        ORDER BY c.id LIMIT ${batch}`,
    );
    for (const row of rows) builder.add(row.id, row.search);
    if (rows.length < batch) break;
    after = rows[rows.length - 1]!.id;
    // Reading and parsing both hold the thread: the batch is sized on the two together.
    const tookMs = Math.max(performance.now() - started, 1);
    batch = Math.min(BUILD_BATCH_MAX, batch * 2, Math.max(10, Math.round((batch * BUILD_BATCH_MS) / tookMs)));
    await yieldToEventLoop();
  }
  return builder.build(collection.version);
}
