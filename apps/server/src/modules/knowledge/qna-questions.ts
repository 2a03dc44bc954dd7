import { type DbOrTx, queryRows, sql } from '../../core/db/database.js';

/** Rough bytes per pair and per (lexeme, pair) entry, for the memory cap. */
const PAIR_BYTES = 16;
const POSTING_BYTES = 40;

export type QuestionMatch = { qnaId: number; matched: number; questionTerms: number };

/**
 * A bot's trained Q&A questions as PostgreSQL stems them (`to_tsvector('english', question)`),
 * so the direct-answer match needs no per-query `to_tsvector` of every pair.
 */
export class QnaQuestions {
  readonly bytes: number;

  constructor(
    readonly version: number,
    private readonly ids: Int32Array,
    private readonly termCounts: Uint16Array,
    private readonly pairsOf: Map<string, number[]>,
    postings: number,
  ) {
    this.bytes = ids.length * PAIR_BYTES + postings * POSTING_BYTES;
  }

  /**
   * The pair whose question shares the most lexemes with the query (the lower id on ties), as the
   * SQL match orders them; null when none shares any.
   */
  best(lexemes: string[]): QuestionMatch | null {
    const matched = new Uint16Array(this.ids.length);
    let best = -1;
    for (const lexeme of new Set(lexemes)) {
      for (const pair of this.pairsOf.get(lexeme) ?? []) {
        matched[pair]! += 1;
        if (
          best === -1 ||
          matched[pair]! > matched[best]! ||
          (matched[pair] === matched[best] && pair < best)
        )
          best = pair;
      }
    }
    if (best === -1) return null;
    return { qnaId: this.ids[best]!, matched: matched[best]!, questionTerms: this.termCounts[best]! };
  }
}

/** Reads the bot's trained questions' lexemes (pairs in id order, so position order is id order). */
export async function loadQuestions(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  version: number,
): Promise<QnaQuestions> {
  const rows = await queryRows<{ id: number; lexemes: string[] }>(
    db,
    sql`SELECT id, tsvector_to_array(to_tsvector('english', question)) AS lexemes
      FROM qna WHERE tenant_id = ${tenantId} AND bot_id = ${botId} AND trained ORDER BY id`,
  );
  const pairsOf = new Map<string, number[]>();
  let postings = 0;
  rows.forEach((row, pair) => {
    for (const lexeme of row.lexemes) {
      const pairs = pairsOf.get(lexeme);
      if (pairs) pairs.push(pair);
      else pairsOf.set(lexeme, [pair]);
    }
    postings += row.lexemes.length;
  });
  return new QnaQuestions(
    version,
    Int32Array.from(rows, (r) => r.id),
    Uint16Array.from(rows, (r) => r.lexemes.length),
    pairsOf,
    postings,
  );
}
