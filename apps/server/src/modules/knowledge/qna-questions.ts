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

/** A trained pair's stems (`to_tsvector('english', …)` of its question and of its answer). */
export type PairTerms = { id: number; question: string[]; answer: string[] };
export type PairMatch = { qnaId: number; coverage: number };
/** A stem's everyday synonyms' stems ("tidy": "clean"): a pair holding one holds the stem. */
export type Alike = ReadonlyMap<string, readonly string[]>;

/**
 * The pair a visitor's question means, when one clearly does. Each of the visitor's stems weighs by
 * how rare it is among the bot's pairs (a word every pair shares tells none apart, a word no pair
 * holds counts fully against a match); a pair scores the weighted share of them it holds, its
 * question counting twice its answer, so "Can I return an item?" finds the pair "What is your
 * return policy?" whose answer says "any unworn item". Among pairs with equal coverage, the one whose own
 * question the visitor said more fully ranks first. `candidates` must hold every pair sharing a
 * stem with the query (the others score 0 and change no weight); `total` counts all the bot's pairs.
 */
export function bestPair(
  candidates: PairTerms[],
  total: number,
  query: string[],
  alike: Alike = new Map(),
): PairMatch | null {
  const terms = [...new Set(query)];
  const has = (stems: Set<string>, term: string) =>
    stems.has(term) || (alike.get(term)?.some((other) => stems.has(other)) ?? false);
  if (terms.length === 0 || candidates.length === 0) return null;
  const sets = candidates.map((pair) => ({
    id: pair.id,
    question: new Set(pair.question),
    answer: new Set(pair.answer),
  }));
  const weight = new Map(
    terms.map((term) => {
      const df = sets.filter((pair) => has(pair.question, term) || has(pair.answer, term)).length;
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
      return { id: pair.id, coverage, score: coverage * (0.75 + 0.25 * questionShare) };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id);
  const [best, second] = scored as [(typeof scored)[0], (typeof scored)[0] | undefined];
  if (best.coverage < MIN_COVERAGE) return null;
  if (second && second.score > CLEAR_MARGIN * best.score) return null;
  return { qnaId: best.id, coverage: Math.round(best.coverage * 1000) / 1000 };
}

/**
 * A bot's trained Q&A pairs as PostgreSQL stems them, held in memory so the direct-answer match
 * needs no per-query `to_tsvector` of every pair.
 */
export class QnaQuestions {
  readonly bytes: number;

  constructor(
    readonly version: number,
    private readonly pairs: PairTerms[],
    private readonly pairsOf: Map<string, number[]>,
    postings: number,
  ) {
    this.bytes = pairs.length * PAIR_BYTES + postings * POSTING_BYTES;
  }

  /** The pair the query clearly means (see bestPair); null when none does. */
  best(lexemes: string[], alike: Alike = new Map()): PairMatch | null {
    const candidates = new Set<number>();
    for (const lexeme of new Set(lexemes.flatMap((l) => [l, ...(alike.get(l) ?? [])])))
      for (const pair of this.pairsOf.get(lexeme) ?? []) candidates.add(pair);
    return bestPair(
      [...candidates].map((pair) => this.pairs[pair]!),
      this.pairs.length,
      lexemes,
      alike,
    );
  }
}

/** Reads the bot's trained pairs' stems (question and answer) and indexes them by stem. */
export async function loadQuestions(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  version: number,
): Promise<QnaQuestions> {
  const pairs = await queryRows<PairTerms>(
    db,
    sql`SELECT id, tsvector_to_array(to_tsvector('english', question)) AS question,
               tsvector_to_array(to_tsvector('english', answer)) AS answer
      FROM qna WHERE tenant_id = ${tenantId} AND bot_id = ${botId} AND trained ORDER BY id`,
  );
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
