import { asksIntent, contentWords } from './evidence.js';
import { FOREIGN_REFERS_BACK } from './foreign-words.js';
import { ENGLISH, LANGUAGES, type Lexicon, lexiconOf } from './languages.js';

/** Words that point back at the conversation: "it", "that one", "and on Sundays?". */
const REFERS_BACK =
  /^\s*(and|also|but|or|so|plus|what about|how about)\b|\b(it|its|that|this|those|them|they|there|one|ones)\b/i;

/**
 * A question that leans on the one before: short, and with words that point back, or with at most
 * one word of its own and no ask of its own ("Sunday?"; not "What time do you open on Saturday?").
 * Read in every language Parley knows, since this is decided before the bot's sources are searched.
 */
export function isFollowUp(question: string): boolean {
  const words = question.trim().split(/\s+/).length;
  if (words > 8) return false;
  const short = (lexicon: Lexicon) =>
    contentWords(question, lexicon).length <= 1 && !asksIntent(question, lexicon);
  return (
    REFERS_BACK.test(question) ||
    short(ENGLISH) ||
    FOREIGN_REFERS_BACK.test(question) ||
    short(EVERY_LANGUAGE)
  );
}
const EVERY_LANGUAGE = lexiconOf(LANGUAGES);

/** A question as retrieval and the evidence read it: what is searched, and the turn it follows up on. */
export type Reading = { query: string; question: string; context: string; previousAnswer: string };

/**
 * A question as the bot reads it without a model (issue 30 item 6): alone, or, when it follows up
 * on the visitor's previous question, searched with that question's words, which count half in the
 * evidence, beside the bot's reply to it ("and on Sunday?" goes on from Saturday's line).
 */
export function readWithoutModel(
  question: string,
  previousQuestion?: string | null,
  previousAnswer?: string | null,
): Reading {
  if (!previousQuestion || !isFollowUp(question))
    return { query: question, question, context: '', previousAnswer: '' };
  return {
    query: `${previousQuestion} ${question}`,
    question,
    context: previousQuestion,
    previousAnswer: previousAnswer ?? '',
  };
}
