import type { Language } from '../languages.js';
import { DANISH } from './danish.js';
import { FINNISH } from './finnish.js';
import { HUNGARIAN } from './hungarian.js';
import { NORWEGIAN } from './norwegian.js';
import { RUSSIAN } from './russian.js';
import { SWEDISH } from './swedish.js';
import { TURKISH } from './turkish.js';

/**
 * What one language gives the evidence (foreign-words.ts gathers them): its chat filler, and the
 * words that ask for and answer each intent. Intent lists are regular-expression fragments matched
 * as whole words, case-insensitively; Finnish, Hungarian, Russian and Turkish words carry endings,
 * so their fragments end in `\p{L}*` or list the forms. An intent's `…Asks` repeat its `…Words`
 * but those that ask nothing alone: Russian "стоит" is "costs" in "сколько стоит", and "is worth"
 * in "стоит ли бронировать заранее?".
 */
export type LanguageWords = {
  /** Greetings, thanks, chat words, question words, asking verbs and hedges: never what is asked. */
  filler: string;
  priceAsks: string[];
  priceWords: string[];
  /** "free", and a price as written with the country's currency. */
  priceAnswers: string[];
  timeAsks: string[];
  timeWords: string[];
  /** A time as written ("kl. 10", "10.00"), and "closed" or "open". */
  timeAnswers: string[];
  durationAsks: string[];
  durationWords: string[];
  /** The units a length of time or a distance is written in after its number. */
  durationUnits: string[];
  placeAsks: string[];
  placeWords: string[];
  /** Street words of an address, before the name (`prefix`), after it (`suffix`, "Storgatan 5"), or both. */
  streetWords: string[];
  streetPosition: 'prefix' | 'suffix' | 'both';
  contactAsks: string[];
  contactWords: string[];
  quantityAsks: string[];
  quantityWords: string[];
  daysAsks: string[];
  daysWords: string[];
  /** "every day", "daily". */
  everyDay: string[];
  dayNames: string[];
  monthNames: string[];
  /** What a follow-up opens with ("and", "what about") and the words that point back ("that"). */
  refersBackOpeners: string[];
  refersBackPronouns: string[];
};

type ListKey = {
  [K in keyof LanguageWords]: LanguageWords[K] extends string[] ? K : never;
}[keyof LanguageWords];

/**
 * The languages whose words are kept one file each. The first six besides English (Spanish,
 * French, German, Italian, Portuguese, Dutch) are still in foreign-words.ts's shared lists.
 */
export const LANGUAGE_WORDS: Partial<Record<Language, LanguageWords>> = {
  danish: DANISH,
  swedish: SWEDISH,
  norwegian: NORWEGIAN,
  finnish: FINNISH,
  russian: RUSSIAN,
  hungarian: HUNGARIAN,
  turkish: TURKISH,
};

/** One list of every such language, for foreign-words.ts's shared patterns. */
export const fromEveryLanguage = (key: ListKey): string[] =>
  Object.values(LANGUAGE_WORDS).flatMap((words) => words[key]);

/** More alternatives for a pattern of `a|b|c`: "|x|y", or nothing when there are none. */
export const orAlso = (alternatives: string[]): string =>
  alternatives.length > 0 ? `|${alternatives.join('|')}` : '';

/** Street words written at a side of the name: prefix ("ulitsa X"), or suffix ("Storgatan 5"). */
export const streetWords = (side: 'prefix' | 'suffix'): string[] =>
  Object.values(LANGUAGE_WORDS).flatMap((words) =>
    words.streetPosition === side || words.streetPosition === 'both' ? words.streetWords : [],
  );
