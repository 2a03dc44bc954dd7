import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { franc } from 'franc';
import { stemmer as porter } from 'stemmer';
import { FILLER_WORDS } from './foreign-words.js';
import { SNOWBALL_STOP_WORDS } from './stop-words.js';

/**
 * The languages a bot's sources are read in: PostgreSQL's text search configurations that have a
 * Snowball stemmer and stop words. A page is indexed with its own language's configuration, so a
 * Spanish page's "envíos" and a visitor's "envío" meet as they do in English ("deliveries",
 * "delivery"); English stemming left them apart and kept "de", "la" and "que" as words.
 */
export const LANGUAGES = [
  'english',
  'danish',
  'dutch',
  'finnish',
  'french',
  'german',
  'hungarian',
  'italian',
  'norwegian',
  'portuguese',
  'russian',
  'spanish',
  'swedish',
  'turkish',
] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** franc's ISO 639-3 codes of the languages above. */
const FRANC_CODES: Record<string, Language> = {
  eng: 'english',
  dan: 'danish',
  nld: 'dutch',
  fin: 'finnish',
  fra: 'french',
  deu: 'german',
  hun: 'hungarian',
  ita: 'italian',
  nob: 'norwegian',
  por: 'portuguese',
  rus: 'russian',
  spa: 'spanish',
  swe: 'swedish',
  tur: 'turkish',
};
const ONLY = Object.keys(FRANC_CODES);

/** Porter for English, as the evidence always stemmed it; Snowball (Orama's port) for the others. */
const STEMMERS: Record<Language, (word: string) => string> = {
  english: porter,
  danish,
  dutch,
  finnish,
  french,
  german,
  hungarian,
  italian,
  norwegian,
  portuguese,
  russian,
  spanish,
  swedish,
  turkish,
};

/** How much of a long text detection reads. */
const SAMPLE_CHARS = 4000;

/**
 * The language a text is written in, of those above; English when it cannot tell. Its function
 * words tell first: they are most of any text's words and differ between languages, where letter
 * trigrams (franc) misread a few English sentences as French. Trigrams decide only when the
 * function words do not clearly point to one language (Spanish, Portuguese and Italian share many).
 */
export function detectLanguage(text: string): Language {
  const sample = text.slice(0, SAMPLE_CHARS);
  const byWords = detectLanguageByWords(sample);
  if (byWords) return byWords;
  return sample.replace(/[^\p{L}]/gu, '').length >= 10 ? byTrigrams(sample) : 'english';
}

const byTrigrams = (text: string): Language =>
  FRANC_CODES[franc(text, { only: ONLY, minLength: 10 })] ?? 'english';

const STOP_SETS = new Map<Language, Set<string>>(
  Object.entries(SNOWBALL_STOP_WORDS).map(([language, words]) => [
    language as Language,
    new Set(words.split(' ')),
  ]),
);

/**
 * The language whose stop words the text holds most of, when it clearly leads: two or more of them,
 * and half as many again as the next language's (a shared "de" or "que" counts for both).
 */
export function detectLanguageByWords(text: string): Language | null {
  return leadingLanguage(wordsOf(text), STOP_SETS);
}

/**
 * The language a visitor's message is written in, when its words clearly tell it: as
 * detectLanguageByWords, with each language's chat and question words counted beside its stop
 * words, since a question is short ("¿Hacéis envíos a Francia?" has one Spanish stop word, and
 * "hacéis" besides). Null when they do not tell: the bot's own language is then the better guess.
 */
export function questionLanguage(text: string): Language | null {
  return leadingLanguage(wordsOf(text), QUESTION_SETS);
}

function leadingLanguage(words: string[], sets: ReadonlyMap<Language, ReadonlySet<string>>): Language | null {
  const counts = [...sets].map(
    ([language, set]) => [language, words.filter((w) => set.has(w)).length] as const,
  );
  counts.sort((a, b) => b[1] - a[1]);
  const [first, second] = counts;
  return first && first[1] >= 2 && first[1] >= 1.5 * (second?.[1] ?? 0) ? first[0] : null;
}

/** Words typed alike in many languages' chats, which tell none of them. */
const SHARED_CHAT_WORDS = new Set(['ok', 'okay', 'oké', 'hi', 'hey', 'info', 'infos']);
/** English's chat and question words that PostgreSQL's English stop words leave out. */
const ENGLISH_CHAT_WORDS = 'hello thanks please much many can could would need want know tell'.split(' ');

const QUESTION_SETS = new Map<Language, Set<string>>(
  [...STOP_SETS].map(([language, stop]) => {
    const chat = language === 'english' ? ENGLISH_CHAT_WORDS : (FILLER_WORDS[language]?.split(' ') ?? []);
    return [language, new Set([...stop, ...chat].filter((word) => !SHARED_CHAT_WORDS.has(word)))];
  }),
);

const wordsOf = (text: string) => lowerCase(text).match(/[\p{L}]+(?:['’-][\p{L}]+)*/gu) ?? [];

/**
 * Lower case, as a visitor types it: a Turkish capital İ lowers to "i" and a combining dot, which
 * would split "İstanbul" in two and never meet the "istanbul" a visitor types; the dot goes.
 */
export const lowerCase = (text: string) => text.toLowerCase().replace(/\u0307/g, '');

/**
 * How the evidence reads words in a bot's languages: a word's stems (one per language, as a bilingual
 * site's pages are indexed in each) and whether it carries nothing (a stop word or chat filler).
 */
export type Lexicon = {
  languages: readonly Language[];
  /** Shared and kept: never changed by the caller. */
  stems(word: string): readonly string[];
  /** A stop word or chat word of one of the languages (English's own list is evidence.ts's STOP_WORDS). */
  isFiller(word: string): boolean;
  english: boolean;
};

const lexicons = new Map<string, Lexicon>();
/** Words whose stems a lexicon keeps (about 2 MB): emptied when full, so memory stays bounded. */
const STEM_MEMO = 20_000;

/** The lexicon of a set of languages (English when none), built once per set. */
export function lexiconOf(languages: readonly Language[] = []): Lexicon {
  const chosen = languages.length > 0 ? [...new Set(languages)].sort() : (['english'] as Language[]);
  const name = chosen.join(',');
  let lexicon = lexicons.get(name);
  if (!lexicon) {
    const filler = new Set(
      chosen.flatMap((l) => [...(STOP_SETS.get(l) ?? []), ...(FILLER_WORDS[l]?.split(' ') ?? [])]),
    );
    const stemmers = chosen.map((l) => STEMMERS[l]);
    // A word with accents also stems as typed without them: "cocuklar" meets "çocuklar".
    const stem = (word: string) => {
      const plain = withoutAccents(word);
      const stems = stemmers.map((s) => s(word));
      if (plain !== word) stems.push(...stemmers.map((s) => s(plain)));
      return stems.length === 1 ? stems : [...new Set(stems)];
    };
    // Every answer reads its passages' words again, and words repeat (a few thousand make most of
    // any text): a word's stems are kept, up to STEM_MEMO words per set of languages.
    const memo = new Map<string, readonly string[]>();
    lexicon = {
      languages: chosen,
      english: chosen.includes('english'),
      stems: (word) => {
        let stems = memo.get(word);
        if (!stems) {
          if (memo.size >= STEM_MEMO) memo.clear();
          stems = stem(word);
          memo.set(word, stems);
        }
        return stems;
      },
      isFiller: (word) => filler.has(word),
    };
    lexicons.set(name, lexicon);
  }
  return lexicon;
}

export const ENGLISH: Lexicon = lexiconOf(['english']);

const NOT_ASCII = /[^ -~]/;
/** Letters without a decomposable accent, as people type them on a keyboard without the letter. */
const PLAIN_LETTERS: Record<string, string> = { ı: 'i', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd' };

/**
 * A word as typed without its accents ("cuanto", "maste", "cocuklar", "sporgsmal"): visitors leave
 * them out in every language. ASCII words come back as they are, at no cost.
 */
export function withoutAccents(word: string): string {
  if (!NOT_ASCII.test(word)) return word;
  return word
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ıøæœßłđ]/g, (letter) => PLAIN_LETTERS[letter]!);
}
