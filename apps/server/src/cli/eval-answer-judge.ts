import type { Site, SiteQuestion } from './eval-answer-sites.js';
import type { EvalApi } from './eval-api.js';

/**
 * Asks a site's questions as a visitor would and judges the answers (eval/answers/README.md):
 * right, wrong, or an abstention; whether an abstention offers a person; whether a Q&A pair's
 * question leaks into the text; whether a right answer cites where the fact is.
 */

/** A cited source as the chat returns it. */
export type CitedSource = { source_type: string; page_url: string | null; page_title: string | null };

/** What the visitor was told. */
export type Reply = {
  text: string;
  /** answer_mode: qna, llm, extractive, not_found...; null when no bot message came back. */
  mode: string | null;
  sources: CitedSource[];
  /** The types of the buttons under the message: human, lead_form, booking. */
  actions: string[];
};

type ActionRef = { type: string };
/**
 * The bot's message in `POST /chat/chats`: `answer_mode` and `actions` are top-level fields of a chat
 * message today; an older or newer server may keep them in `metadata`, which is read as well.
 */
type BotMessage = {
  message: string;
  answer_mode?: string | null;
  sources?: CitedSource[];
  actions?: ActionRef[];
  metadata?: { answer_mode?: string | null; actions?: ActionRef[] } | null;
} | null;

/** Sends a message, in a new conversation or in the one given, and reads the bot's reply. */
export async function send(
  api: EvalApi,
  botId: number,
  message: string,
  conversationId?: number,
): Promise<{ conversationId: number; reply: Reply }> {
  const exchange = await api.call<{ conversation_id: number; bot_message: BotMessage }>(
    'POST',
    '/chat/chats',
    { bot_id: botId, message, ...(conversationId ? { conversation_id: conversationId } : {}) },
  );
  const bot = exchange.bot_message;
  return {
    conversationId: exchange.conversation_id,
    reply: {
      text: bot?.message ?? '',
      mode: bot?.answer_mode ?? bot?.metadata?.answer_mode ?? null,
      sources: bot?.sources ?? [],
      actions: (bot?.actions ?? bot?.metadata?.actions ?? []).map((action) => action.type),
    },
  };
}

/**
 * Asks a question in a new conversation; a follow-up asks its first question there before it.
 * Answers the reply to the question itself, and the reply to the first question of a follow-up.
 */
export async function ask(
  api: EvalApi,
  botId: number,
  question: SiteQuestion,
): Promise<{ reply: Reply; firstReply: Reply | null }> {
  if (question.kind !== 'followup' || !question.first) {
    return { reply: (await send(api, botId, question.q)).reply, firstReply: null };
  }
  const opening = await send(api, botId, question.first);
  const { reply } = await send(api, botId, question.q, opening.conversationId);
  return { reply, firstReply: opening.reply };
}

/**
 * An abstention: the bot says it found nothing (answer_mode not_found) or is not sure of what it quotes
 * (unsure, counted apart too: `AnswerFigures.unsure`), or the opening sentence of its answer says it
 * does not know. Only the opening is read, because an answer that quotes a page may
 * quote "Not sure which class is right for you?" further on.
 */
const ABSTAINS =
  /\b(couldn't|could not|can't|cannot|didn't|did not|was not able to|wasn't able to|unable to) (find|see|locate|answer)\b|\b(don't|do not) (know|have (any |that |enough )?(information|details|an answer))\b|\bnot sure\b|\bno information\b|\bnot (mentioned|covered) in\b/i;

/** An offer of a person or of the lead form, in words. */
const OFFERS_PERSON =
  /\b(talk|speak|chat) (to|with) (a person|a human|someone|our team|a member of)|\bask for a (human|person)\b|\bcontact (the|our) team\b|\bcontact us\b|\bleave your (details|email|contact)|\bour team will get back\b|\ba member of our team\b/i;

export function abstains(reply: Reply): boolean {
  if (reply.mode === 'not_found' || reply.mode === 'unsure') return true;
  const opening = reply.text.split(/(?<=[.!?])\s/)[0]!.slice(0, 300);
  return ABSTAINS.test(opening);
}

/** A person (or the lead form) is offered: a 'human' or 'lead_form' button, or the text says so. */
export function offersPerson(reply: Reply): boolean {
  return (
    reply.actions.includes('human') || reply.actions.includes('lead_form') || OFFERS_PERSON.test(reply.text)
  );
}

export type Outcome =
  /** answerable, qna and followup questions */
  | 'correct'
  | 'false abstain'
  | 'wrong'
  /** unanswerable questions */
  | 'handled'
  | 'abstained, no offer'
  | 'answered';

export type Judged = {
  outcome: Outcome;
  /** The Q&A pair question found verbatim in the answer, or null. */
  leaked: string | null;
  /** The cited sources as the questions name them: a page's file name, or "qna". */
  cited: string[];
  /** A right answer cites one of the question's sources; null when the answer is not right. */
  citesExpected: boolean | null;
};

export function judge(site: Site, question: SiteQuestion, reply: Reply): Judged {
  const cited = reply.sources.map(sourceName);
  const outcome = outcomeOf(question, reply);
  return {
    outcome,
    leaked: leakedPair(site, reply.text),
    cited,
    citesExpected: outcome === 'correct' ? cited.some((name) => question.sources.includes(name)) : null,
  };
}

function outcomeOf(question: SiteQuestion, reply: Reply): Outcome {
  const abstained = abstains(reply);
  if (question.expect === null) {
    if (!abstained) return 'answered';
    return offersPerson(reply) ? 'handled' : 'abstained, no offer';
  }
  if (new RegExp(question.expect, 'i').test(reply.text)) return 'correct';
  return abstained ? 'false abstain' : 'wrong';
}

/** "qna" for a pair, else the file name the page's URL ends with ("/" is index.html). */
export function sourceName(source: CitedSource): string {
  if (source.source_type === 'qna') return 'qna';
  if (!source.page_url) return source.page_title ?? '?';
  try {
    return new URL(source.page_url).pathname.split('/').pop() || 'index.html';
  } catch {
    return source.page_url;
  }
}

/** The first of the site's pair questions (trimmed of "?") the text holds, case aside. */
function leakedPair(site: Site, text: string): string | null {
  const lower = text.toLowerCase();
  for (const pair of site.qna) {
    const question = pair.question.trim().replace(/\?+$/, '').trim();
    if (question && lower.includes(question.toLowerCase())) return question;
  }
  return null;
}

/** One question asked and judged. */
export type AnswerResult = {
  site: string;
  question: SiteQuestion;
  reply: Reply;
  firstReply: Reply | null;
  judged: Judged;
  /** Why a failed dev question went as it did: the bot's decision on the question alone (its search). */
  why?: string;
};

/** Counts of a set's results, and the shares the README defines. */
export type AnswerFigures = {
  questions: number;
  /** Questions with an answer to find: answerable, qna and followup. */
  answerable: number;
  correct: number;
  falseAbstain: number;
  /** Wrong answers to answerable kinds plus answers to unanswerable questions. */
  wrong: number;
  unanswerable: number;
  handled: number;
  leaks: number;
  /** Right answers citing one of the question's sources. */
  citedRight: number;
  /** Answers the bot said it was not sure of (answer_mode unsure), and those of them that are right. */
  unsure: { all: number; right: number };
  /** Right answers over questions of each answerable kind. */
  byKind: Record<'answerable' | 'qna' | 'followup', { correct: number; of: number }>;
};

export function summarise(results: AnswerResult[]): AnswerFigures {
  const count = (test: (r: AnswerResult) => boolean) => results.filter(test).length;
  const outcome = (o: Outcome) => count((r) => r.judged.outcome === o);
  const kind = (k: 'answerable' | 'qna' | 'followup') => ({
    correct: count((r) => r.question.kind === k && r.judged.outcome === 'correct'),
    of: count((r) => r.question.kind === k),
  });
  return {
    questions: results.length,
    answerable: count((r) => r.question.expect !== null),
    correct: outcome('correct'),
    falseAbstain: outcome('false abstain'),
    wrong: outcome('wrong') + outcome('answered'),
    unanswerable: count((r) => r.question.expect === null),
    handled: outcome('handled'),
    leaks: count((r) => r.judged.leaked !== null),
    citedRight: count((r) => r.judged.citesExpected === true),
    unsure: {
      all: count((r) => r.reply.mode === 'unsure'),
      right: count((r) => r.reply.mode === 'unsure' && r.judged.outcome === 'correct'),
    },
    byKind: { answerable: kind('answerable'), qna: kind('qna'), followup: kind('followup') },
  };
}
