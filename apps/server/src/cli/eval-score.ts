import type { EvalApi } from './eval-api.js';
import type { PageRef, Question, Trained } from './eval-corpora.js';

/**
 * Scores a trained bot on its questions, through the API as a customer sees it:
 * - retrieval: the rank of the first passage from an acceptable page in `POST /knowledge/search`
 *   (hit@1, hit@3, MRR over the first SEARCH_LIMIT passages);
 * - answers: what a visitor is told (`POST /chat/chats`; with no model, the extractive answer):
 *   whether the cited sources are distinct pages, and which cite a page the bot was never given.
 */
const SEARCH_LIMIT = 10;

export type QuestionResult = Question & {
  /** 1-based rank of the first passage from an acceptable page; null beyond SEARCH_LIMIT. */
  rank: number | null;
  /** The page of the first passage. */
  first: string | null;
  /** The pages the answer cites, in order (null: a source that names no page). */
  cited: Array<string | null>;
};

export type Figures = {
  hit1: number;
  hit3: number;
  mrr: number;
  /** Share of answers whose cited sources are all different pages. */
  distinct: number;
  /** Cited sources that are no page of the bot's knowledge, over all answers. */
  invented: number;
  /** Share of answers citing at least one source, and citing an acceptable page. */
  answered: number;
  citesExpected: number;
  /** 'full-text' or 'hybrid', as the search reported it. */
  mode: string;
  results: QuestionResult[];
};

export async function score(
  api: EvalApi,
  bot: Trained,
  questions: Question[],
  options: { answers: boolean },
): Promise<Figures> {
  const results: QuestionResult[] = [];
  let mode = '';
  for (const question of questions) {
    const found = await search(api, bot, question.q);
    mode = found.mode;
    const index = found.pages.findIndex((page) => page !== null && question.pages.includes(page));
    const cited = options.answers ? await citations(api, bot, question.q) : [];
    results.push({
      ...question,
      rank: index === -1 ? null : index + 1,
      first: found.pages[0] ?? null,
      cited,
    });
  }
  return { ...summarise(results, bot.known), mode, results };
}

async function search(api: EvalApi, bot: Trained, query: string) {
  const reply = await api.call<{ hits: PageRef[]; mode: string }>('POST', `/knowledge/search/${bot.botId}`, {
    query,
    limit: SEARCH_LIMIT,
  });
  return { pages: reply.hits.map((hit) => bot.pageOf(hit)), mode: reply.mode };
}

/** The pages cited by the answer to the question, asked in a new conversation. */
async function citations(api: EvalApi, bot: Trained, message: string) {
  const reply = await api.call<{ bot_message: { sources: PageRef[] } | null }>('POST', '/chat/chats', {
    bot_id: bot.botId,
    message,
  });
  return (reply.bot_message?.sources ?? []).map((source) => bot.pageOf(source));
}

/** hit@1, hit@3 and MRR of questions' ranks. */
export function summariseRanks(results: Array<{ rank: number | null }>) {
  const hitAt = (k: number) => results.filter((r) => r.rank !== null && r.rank <= k).length / results.length;
  const mrr = results.reduce((sum, r) => sum + (r.rank === null ? 0 : 1 / r.rank), 0) / results.length;
  return { hit1: hitAt(1), hit3: hitAt(3), mrr };
}

function summarise(results: QuestionResult[], known: Set<string>) {
  const share = (test: (r: QuestionResult) => boolean) => results.filter(test).length / results.length;
  return {
    ...summariseRanks(results),
    distinct: share((r) => new Set(r.cited).size === r.cited.length),
    invented: results.reduce(
      (n, r) => n + r.cited.filter((page) => page === null || !known.has(page)).length,
      0,
    ),
    answered: share((r) => r.cited.length > 0),
    citesExpected: share((r) => r.cited.some((page) => page !== null && r.pages.includes(page))),
  };
}
