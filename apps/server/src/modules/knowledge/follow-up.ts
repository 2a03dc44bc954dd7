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
