import { type DbOrTx, queryRows, sql } from '../../core/db/database.js';

/** Rough bytes per pair and per (lexeme, pair) entry, for the memory cap. */
const PAIR_BYTES = 48;
const POSTING_BYTES = 40;

/** A word of the visitor's found only in a pair's answer counts this much of one found in its question. */
const ANSWER_WEIGHT = 0.5;
/**
 * The weighted share of the visitor's words a pair must hold to answer directly: more than half,
 * so one shared word beside an unknown one ("Do you take PayPal?" and "How long does shipping
 * take?") is not enough.
 */
export const MIN_COVERAGE = 0.55;
/** The runner-up may score at most this share of the best pair; closer, neither is clearly meant. */
export const CLEAR_MARGIN = 0.8;

/**
 * A trained pair's stems (`to_tsvector('english', …)` of a wording of its question and of its
 * answer): one per wording, `wording` 0 its own question, n its n-th other wording.
 */
export type PairTerms = { id: number; wording?: number; question: string[]; answer: string[] };
/** The pair meant, and which of its wordings the visitor's question was read against. */
export type PairMatch = { qnaId: number; wording: number; coverage: number };
/** A stem's everyday synonyms' stems ("tidy": "clean"): a pair holding one holds the stem. */
export type Alike = ReadonlyMap<string, readonly string[]>;

/**
 * The pair a visitor's question means, when one clearly does. Each of the visitor's stems weighs by
 * how rare it is among the bot's pairs (a word every pair shares tells none apart, a word no pair
 * holds counts fully against a match); a pair scores the weighted share of them it holds, its
 * question counting twice its answer, so "Can I return an item?" finds the pair "What is your
 * return policy?" whose answer says "any unworn item". Among pairs with equal coverage, the one whose own
 * question the visitor said more fully ranks first. A pair with other wordings scores as its best
 * wording, and the runner-up it must clearly beat is another pair. `candidates` must hold every
 * wording sharing a stem with the query (the others score 0 and change no weight); `total` counts
 * all the bot's pairs.
 */
export function bestPair(
  candidates: PairTerms[],
  total: number,
  query: string[],
  alike: Alike = new Map(),
  /** How sure the match must be: the answer's bars, or an owner's suggestion's lower ones. */
  bars: { minCoverage: number; clearMargin: number } = {
    minCoverage: MIN_COVERAGE,
    clearMargin: CLEAR_MARGIN,
  },
): PairMatch | null {
  const terms = [...new Set(query)];
  const has = (stems: Set<string>, term: string) =>
    stems.has(term) || (alike.get(term)?.some((other) => stems.has(other)) ?? false);
  if (terms.length === 0 || candidates.length === 0) return null;
  const sets = candidates.map((pair) => ({
    id: pair.id,
    wording: pair.wording ?? 0,
    question: new Set(pair.question),
    answer: new Set(pair.answer),
  }));
  // Rarity among pairs, not wordings: a pair's five wordings of "parking" make it no commoner.
  const weight = new Map(
    terms.map((term) => {
      const holders = sets.filter((pair) => has(pair.question, term) || has(pair.answer, term));
      const df = new Set(holders.map((pair) => pair.id)).size;
      return [term, Math.log(1 + (total + 1) / (df + 1))];
    }),
  );
  const sum = terms.reduce((s, term) => s + weight.get(term)!, 0);
  const scored = sets
    .map((pair) => {
      let held = 0;
      let said = 0;
      for (const term of terms) {
        if (has(pair.question, term)) {
          held += weight.get(term)!;
          said += 1;
        } else if (has(pair.answer, term)) held += ANSWER_WEIGHT * weight.get(term)!;
      }
      const coverage = held / sum;
      const questionShare = pair.question.size === 0 ? 0 : said / pair.question.size;
      return {
        id: pair.id,
        wording: pair.wording,
        coverage,
        score: coverage * (0.75 + 0.25 * questionShare),
      };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id || a.wording - b.wording);
  const best = scored[0]!;
  const second = scored.find((pair) => pair.id !== best.id);
  if (best.coverage < bars.minCoverage) return null;
  if (second && second.score > bars.clearMargin * best.score) return null;
  return { qnaId: best.id, wording: best.wording, coverage: Math.round(best.coverage * 1000) / 1000 };
}

/**
 * A bot's trained Q&A pairs as PostgreSQL stems them, held in memory so the direct-answer match
 * needs no per-query `to_tsvector` of every pair.
 */
export class QnaQuestions {
  readonly bytes: number;

  constructor(
    readonly version: number,
    /** One entry per wording of each pair. */
    private readonly pairs: PairTerms[],
    private readonly pairsOf: Map<string, number[]>,
    postings: number,
  ) {
    this.bytes = pairs.length * PAIR_BYTES + postings * POSTING_BYTES;
    this.pairCount = new Set(pairs.map((pair) => pair.id)).size;
  }

  private readonly pairCount: number;

  /** The pair the query clearly means (see bestPair); null when none does. */
  best(lexemes: string[], alike: Alike = new Map()): PairMatch | null {
    const candidates = new Set<number>();
    for (const lexeme of new Set(lexemes.flatMap((l) => [l, ...(alike.get(l) ?? [])])))
      for (const pair of this.pairsOf.get(lexeme) ?? []) candidates.add(pair);
    return bestPair(
      [...candidates].map((pair) => this.pairs[pair]!),
      this.pairCount,
      lexemes,
      alike,
    );
  }
}

/**
 * Each wording of a pair `q` as a row `w`: `w.text`, and `w.ord` 1 for its question, n + 1 for its
 * n-th other wording (see WORDING).
 */
export const WORDINGS = sql.raw(
  'CROSS JOIN LATERAL unnest(array[q.question] || q.alternate_questions) WITH ORDINALITY AS w(text, ord)',
);
/** Which wording a WORDINGS row is, as PairTerms counts them. */
export const WORDING = sql.raw('(w.ord - 1)::int');
/**
 * A pair `q`'s language as `pl.language` (a regconfig): its document's, which training told from
 * its question and answer; English for a pair not trained yet.
 */
export const PAIR_LANGUAGE = sql.raw(
  `CROSS JOIN LATERAL (SELECT coalesce((SELECT d.language FROM documents d
     WHERE d.tenant_id = q.tenant_id AND d.source_type = 'qna' AND d.source_id = q.id), 'english')::regconfig AS language) pl`,
);

/**
 * The stems of every wording of the bot's pairs (trained ones only, or all), each with its pair's
 * first question (`own`) and answer. Each answer is stemmed once, not once per wording (a lateral
 * subquery would be inlined and run per wording: 330 against 115 ms for 1,000 pairs of three
 * wordings on PostgreSQL).
 */
export function pairWordings(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  { trainedOnly }: { trainedOnly: boolean },
): Promise<Array<PairTerms & { own: string }>> {
  return queryRows(
    db,
    sql`WITH q AS MATERIALIZED (
        SELECT q.id, q.question, q.alternate_questions, pl.language,
          tsvector_to_array(to_tsvector(pl.language, q.answer)) AS answer
        FROM qna q ${PAIR_LANGUAGE} WHERE q.tenant_id = ${tenantId} AND q.bot_id = ${botId}${trainedOnly ? sql` AND q.trained` : sql``})
      SELECT q.id, q.question AS own, ${WORDING} AS wording,
        tsvector_to_array(to_tsvector(q.language, w.text)) AS question, q.answer
      FROM q ${WORDINGS} ORDER BY q.id, w.ord`,
  );
}

/** Reads the bot's trained pairs' stems (each wording of the question, and the answer) and indexes them by stem. */
export async function loadQuestions(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  version: number,
): Promise<QnaQuestions> {
  const pairs = await pairWordings(db, tenantId, botId, { trainedOnly: true });
  const pairsOf = new Map<string, number[]>();
  let postings = 0;
  pairs.forEach((pair, index) => {
    for (const lexeme of new Set([...pair.question, ...pair.answer])) {
      const list = pairsOf.get(lexeme);
      if (list) list.push(index);
      else pairsOf.set(lexeme, [index]);
      postings += 1;
    }
  });
  return new QnaQuestions(version, pairs, pairsOf, postings);
}
