import type { SearchHit } from '@parley/contracts';
import { stemmer } from 'stemmer';
import { FOREIGN_INTENTS } from './foreign-words.js';
import { ENGLISH, type Language, type Lexicon, lexiconOf, lowerCase, withoutAccents } from './languages.js';
import { CODE_FENCE } from './markdown.js';

/**
 * Whether a bot's sources answer a question, judged on what the passages show rather than on a
 * score (issue 30 item 2): a six-page site's BM25 scores are not on a 500-page manual's scale, so
 * a fixed score threshold both refuses good answers and accepts bad ones.
 *
 * The question becomes terms, each weighted by how rare it is in this bot's corpus (a word every
 * page holds tells nothing; a word no page holds, such as "pizza" on a bakery's site, weighs most).
 * The passages become units a visitor could be given: sentences, list items, table rows, each
 * under its heading. A unit's coverage is the weighted share of the terms it holds itself or
 * under its heading; the best unit decides, and the extractive answer quotes the best units.
 */

/**
 * Passages an answer is chosen from, by the evidence's reading of their sentences, rows and pairs
 * (the model then gets the best eight of them, passagesForModel). Sixteen rather than ten: a
 * passage full text ranks past tenth is still read ("how much is a check up on the nhs" reaches a
 * fees table that says "examination"; the rental page's helmet line); eval/answers/README.md has
 * the figures, and a search costs about 0.4 ms more.
 */
export const ANSWER_PASSAGES = 16;
/** A vector neighbour this far or nearer counts as relevant on its own (cosine distance). */
const RELEVANT_DISTANCE = 0.45;
/**
 * The share of the question's weight the best unit must hold for an answer to be given as sure
 * (eval/answers, no model: answers that cover less were right 37 times in 57 on the dev sites and 7
 * in 16 on the held-out ones; those that cover more 97 in 110 and 32 in 44).
 */
const SURE_COVERAGE = 0.5;

/** Full-text hits matched words of the question; vector hits count only when near enough. */
export const relevantHits = (hits: SearchHit[]) =>
  hits.filter(
    (hit) =>
      hit.text_rank !== null || (hit.vector_distance !== null && hit.vector_distance <= RELEVANT_DISTANCE),
  );

/** A question word's document frequency in the bot's corpus (by PostgreSQL's English stems). */
export type TermStat = { word: string; df: number };
/** The corpus figures a verdict needs: how many chunks the bot's scope holds, and each word's df. */
export type CorpusStats = {
  chunks: number;
  terms: TermStat[];
  /** Stems of the corpus a word it does not hold was likely a typo of ("pasport": "passport"), searched too. */
  corrections?: string[];
  /** The languages the bot's sources are written in (languages.ts); English when not given. */
  languages?: Language[];
};

/** How the words of a bot's question and sources are read: in its sources' languages. */
export const lexiconFor = (stats: CorpusStats): Lexicon => lexiconOf(stats.languages);

/** What a question asks for beyond its words: a price, a time, a duration, a place, a way to reach someone. */
type Intent = 'price' | 'time' | 'duration' | 'place' | 'contact' | 'quantity' | 'days';

export type QuestionTerm = {
  /** The word as the visitor wrote it (or the intent's name), shown to the owner. */
  label: string;
  /** Stems that count as this term in a unit (the word's, and its everyday synonyms'). */
  keys: string[];
  /** Stems of the word joined to a neighbour ("heldag" for "hel" in "hel dag"), found whole, not as a prefix. */
  compounds?: string[];
  /** The raw word, for typo-tolerant matching of words the corpus never holds. */
  word: string | null;
  intent: Intent | null;
  weight: number;
  /** No chunk of the bot holds it. */
  unknown: boolean;
  /** It comes from the previous turn of a follow-up, not the question itself. */
  context: boolean;
  /** What the question asks about ("a massage" in "can I book a massage during my stay"): see subjectsOf. */
  subject?: boolean;
};

export type Unit = {
  text: string;
  /** The passage (search hit) it came from, by rank. */
  hit: number;
  document: number;
  position: number;
  kind: 'sentence' | 'item' | 'row';
  /** The heading it stands under (chunk heading path, a Markdown heading in the chunk, a pair's question). */
  heading: string;
  /** Could be quoted as it is: a whole sentence, or a short line of data (a list item, a table row). */
  quotable: boolean;
  /** Same-list siblings share a group: "Saturday: 8–4" and "Sunday: closed" under "Opening hours". */
  group: string;
  /** The question a page's FAQ entry answers here ("Do you allow dogs?" over "Yes, for €10 a night."). */
  asks?: string;
};

export type ScoredUnit = Unit & {
  /** Weighted share of the question's own terms (not a follow-up's previous turn) it holds itself, not by its heading. */
  fresh: number;
  /** The share of its own words that are the question's: a line that says only the answer beats a sentence about more. */
  density: number;
  /** In the list or paragraph the previous answer quoted: "and on Sunday?" after Saturday's line. */
  continues: boolean;
  /**
   * The previous answer quoted this very unit, and a unit beside it (same list or paragraph) holds
   * more of the follow-up by its own words: the follow-up asks on from it, not for it again.
   */
  passed: boolean;
  /**
   * It holds something a follow-up newly asks, by its own words or its headings, but not by the
   * site's name that every page's title holds: the Albufera menu's line on a page titled "… ·
   * Ruzafa, València" does not hold "and the Ruzafa?".
   */
  anew: boolean;
  /** The question's word pairs it says as they are ("check in", not "check out"): a tie-breaker. */
  phrases: number;
  /** Weighted share of the question's terms held by the unit or its heading. */
  coverage: number;
  /** Weighted share held by the unit's own text. */
  own: number;
  /** Weighted share its own heading also holds: "We don't serve dinner" under "Dinner" is on the subject. */
  topical: number;
  covered: QuestionTerm[];
};

export type Verdict = {
  answers: boolean;
  /**
   * It answers and its best unit holds at least SURE_COVERAGE of the question. An answer that is not
   * sure says so and offers a person.
   */
  sure: boolean;
  /** The best unit's coverage, 0 to 1. */
  coverage: number;
  best: ScoredUnit | null;
  /** Quotable units that hold some of the question, best first. */
  units: ScoredUnit[];
  covered: string[];
  missing: string[];
  summary: string;
};

/**
 * Words that carry no subject: function words, question words, what people type around a question
 * in a chat ("hi", "please", "guys"), and the verbs that wrap what is asked about. The intent
 * words are read before these are removed.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but of to in on at for with by from into onto as if than then so too very ' +
    'is am are was were be been being do does did doing done can could will would shall should may might must ' +
    // the rest of PostgreSQL's (Snowball's) English stop words: a pair's question is read with them gone, as a visitor's is
    'myself ourselves yourself yourselves himself hers herself itself themselves because until while against ' +
    'between through during before after above below up down out off over under again further once both few ' +
    'other such only own same now ' +
    'i me my mine you your yours u ur we us our ours they them their theirs he him his she her it its this that these those ' +
    'there here what which who whom whose why how when where whats hows wheres ' +
    'have has had having get gets got getting any some all each every no not nor yes ok okay ' +
    'hi hello hey dear thanks thank pls please plz guys folks just also still really actually ever ' +
    'wondering wonder question know tell like want wanted need looking let s t d ll m re ve about ' +
    'much many more most one thing things anything something someone anyone somewhere anywhere ' +
    // hedges and fillers of a chat message ("kinda out of shape", "any chance", "a few months ago")
    'kinda sorta honestly literally basically chance yet til till ago maybe perhaps bit lot lots thinking allowed ' +
    // the verbs of "do you sell/make/offer/take X": X is what the visitor asks about
    'make made sell sold offer offered provide provided buy bring give take use find see come go serve accept allow ' +
    // words of any question about anything ("how does the warranty work?")
    'work works working happen happens mean means way ways info information detail details stuff kind sort ' +
    // contractions, typed with or without the apostrophe ("I'm in Harrogate", "im coeliac")
    "i'm im i've ive i'd i'll we're we've we'd we'll you're you've you'd you'll they're they've it's " +
    "that's there's what's here's let's don't dont doesn't doesnt didn't didnt can't cant won't wont " +
    "isn't isnt aren't arent wasn't weren't wouldn't couldn't shouldn't haven't hasn't"
  ).split(' '),
);

/** Everyday synonyms in customer questions, as stem groups: a term is held when any member is. */
export const SYNONYM_WORDS: string[][] = [
  ['deliver', 'delivery', 'ship', 'shipping', 'postage', 'dispatch', 'courier'],
  ['return', 'refund', 'exchange'],
  ['book', 'booking', 'reserve', 'reservation', 'appointment'],
  ['cancel', 'cancellation', 'cancelling'],
  ['rent', 'rental', 'renting'],
  ['pay', 'payment', 'paying'],
  ['child', 'children', 'kid', 'kids', 'son', 'daughter', 'toddler'],
  ['people', 'person', 'persons', 'guest', 'guests', 'pax'],
  // A pet is a dog or a cat, but a dog is no cat: "and for a cat?" must not read the dog's price.
  ['pet', 'pets', 'dog', 'dogs', 'puppy', 'puppies', 'pup'],
  ['pet', 'pets', 'cat', 'cats', 'kitten', 'kittens'],
  ['wifi', 'internet'],
  ['park', 'parking', 'car park'],
  ['vegan', 'plant-based'],
  ['discount', 'offer', 'deal', 'promotion', 'coupon'],
  ['cost', 'price', 'fee', 'charge', 'rate', 'tariff'],
  ['open', 'opening', 'hour', 'hours', 'close', 'closing'],
  // British and American words for one thing, and what people call it in a chat.
  ['lift', 'elevator'],
  ['luggage', 'baggage', 'bag', 'bags', 'suitcase'],
  ['takeaway', 'takeout', 'carryout'],
  ['clean', 'tidy'],
  ['toilet', 'restroom', 'washroom', 'loo'],
  ['gluten-free', 'gf', 'coeliac', 'celiac'],
  ['vegetarian', 'veggie'],
  ['wheelchair', 'accessible', 'accessibility', 'step-free'],
  ['pram', 'pushchair', 'stroller', 'buggy'],
  ['holiday', 'vacation'],
  ['cot', 'crib'],
  ['rubbish', 'trash', 'garbage'],
  ['tap', 'faucet'],
  ['mobile', 'cellphone'],
  ['invoice', 'receipt', 'bill'],
  // Irregular plurals, which no stemmer joins.
  ['tooth', 'teeth'],
  ['foot', 'feet'],
  ['man', 'men'],
  ['woman', 'women'],
];
const SYNONYMS = SYNONYM_WORDS.map((group) => group.map(keyOf));
/** Words that stand for several others, one way: "weekend" is held by "Saturday", not the reverse. */
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const COVERS: Record<string, string[]> = {
  weekend: ['saturday', 'sunday'],
  weekends: ['saturday', 'sunday'],
  weekday: WEEKDAYS,
  weekdays: WEEKDAYS,
};
// A word in several groups ("pet") has the mates of all of them.
const synonymsOf = new Map<string, string[]>();
for (const group of SYNONYMS)
  for (const key of group) synonymsOf.set(key, [...new Set([...(synonymsOf.get(key) ?? []), ...group])]);
for (const [word, words] of Object.entries(COVERS))
  synonymsOf.set(keyOf(word), [keyOf(word), ...words.map(keyOf)]);

/** A stem and its everyday synonyms' (SYNONYM_WORDS, COVERS), for a text in English. */
export const withSynonyms = (stem: string, lexicon: Lexicon = ENGLISH): string[] =>
  (lexicon.english && synonymsOf.get(stem)) || [stem];

/** An amount a duration or distance is told in: a figure, or a number's word ("five", "a couple of"). */
const AMOUNT =
  '\\d+|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|sixty|ninety|a few|a couple of|several';

/**
 * Intents: the words that ask for one (removed as terms: "cost" is answered by "$6" as well as by
 * "costs"), and what in a unit answers it.
 */
const INTENTS: Array<{ intent: Intent; asks: RegExp; words: RegExp; answers: RegExp }> = [
  {
    intent: 'price',
    // "Do I have to pay for X-rays?" asks whether something costs; "can I pay by card" does not.
    asks: /\b(how much|costs?|prices?|priced|pricing|fees?|charges?|rates?|tariffs?|expensive|cheap(er|est)?)\b|\b(have to|need to|must i|do i|do we) pay\b|\bpay (extra|more)\b/i,
    words:
      /^(how much|costs?|prices?|priced|pricing|fees?|charges?|rates?|tariffs?|expensive|cheap(er|est)?)$/i,
    answers:
      /([$£€¥₹]\s?\d)|(\d\s?(€|eur|usd|gbp|dollars?|euros?|pounds?)\b)|(?<![\w-])free\b|\b(costs?|prices?|fees?|charges?|rates?)\b/i,
  },
  {
    intent: 'time',
    // "When" asks when it opens a question or clause ("when do you open", "and when is checkout");
    // inside one it is a conjunction ("can I pay when I order").
    asks: /\b(what time|opening|open|opens|close|closes|closing|hours?)\b|(^|[,.;!?]\s*|\band\s+)when\b/i,
    words: /^(time|times|opening|open|opens|close|closes|closing|hours?)$/i,
    answers:
      /\b\d{1,2}([:.]\d{2})?\s?(am|pm|a\.m\.|p\.m\.|h)\b|\b\d{1,2}[:.]\d{2}\b|\b(closed|noon|midnight|open|opens|opening|hours)\b|\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)\.?\s+\d{1,2}\b|\b\d{1,2}(st|nd|rd|th)?\s+(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i,
  },
  {
    intent: 'duration',
    // "How far are you from the airport?": "20 minutes' drive" or "25 km" answers.
    asks: /\bhow (long|far)\b/i,
    words: /^how long$/i,
    // In figures or words: "2-3 days", "five to seven working days", "an hour".
    answers: new RegExp(
      `\\b(${AMOUNT})(\\s?(-|–|to|or)\\s?(${AMOUNT}))?\\s?((working|business|calendar|school)\\s)?(min(ute)?s?|hours?|hrs?|days?|nights?|weeks?|months?|years?|km|kilomet(er|re)s?|miles?)\\b`,
      'i',
    ),
  },
  {
    intent: 'place',
    asks: /\b(where|address|located|location|directions|find you|near|nearby)\b/i,
    words: /^(address|located|location|directions|near|nearby)$/i,
    answers:
      /\b\d+\s+[\p{L}' ]+\s(street|st|road|rd|avenue|ave|lane|ln|way|square|sq|place|pl|drive|dr|boulevard|blvd|strasse|straße)\b|\b(address|located|find us|walk|opposite|next to|around the corner|nearby)\b/iu,
  },
  {
    intent: 'contact',
    asks: /\b(phone|telephone|call|ring|email|e-mail|contact|reach)\b/i,
    words: /^(phone|telephone|call|ring|email|e-mail|contact|reach)$/i,
    answers: /(\+?\d[\d ()-]{7,}\d)|([\w.+-]+@[\w-]+\.[\w.]+)|\b(phone|call|email|contact)\b/i,
  },
  {
    // "How many people fit in the private room?": a number answers ("up to 24 guests").
    intent: 'quantity',
    asks: /\bhow many\b/i,
    words: /^how many$/i,
    answers: /\b\d+\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred)\b/i,
  },
  {
    // "Which days do you serve it?": the days' names answer, not "catch of the day".
    intent: 'days',
    asks: /\b(which|what) days?\b/i,
    words: /^days?$/i,
    answers: /\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(weekdays?|weekends?|daily|every day)\b/i,
  },
];

type IntentTest = { intent: Intent; asks: Tester; words: Tester; answers: Tester };
type Tester = Pick<RegExp, 'test'>;
const either = (a: RegExp, b: RegExp): Tester => ({ test: (text) => a.test(text) || b.test(text) });
/** English's intents with the other languages' words beside them (foreign-words.ts). */
const ANY_LANGUAGE_INTENTS: IntentTest[] = INTENTS.map(({ intent, asks, words, answers }) => {
  const foreign = FOREIGN_INTENTS[intent];
  return {
    intent,
    asks: either(asks, foreign.asks),
    words: either(words, foreign.words),
    answers: either(answers, foreign.answers),
  };
});
/**
 * The intents as the bot's languages ask and answer them. English alone keeps English's patterns
 * alone: another language's words ("via" before a street in Italian) would read English wrongly.
 */
const intentsIn = (lexicon: Lexicon): IntentTest[] =>
  lexicon.english && lexicon.languages.length === 1 ? INTENTS : ANY_LANGUAGE_INTENTS;

/** Adverbs by their usual endings ("separately", "quickly", "usually"); not "family", "supply", "early". */
const ADVERB = /^[a-z]{2,}(ately|ently|antly|ously|ively|fully|ally|ably|ibly|ckly|ssly|tely|sely)$/;

/** The people a visitor asks on behalf of; a child's words are not here (they hold "children", SYNONYM_WORDS). */
const RELATIONS = new Set(
  (
    'mum mom mother dad father parent parents husband husbands wife partner boyfriend girlfriend fiance fiancee ' +
    'sister brother sibling nan nana gran granny grandma grandmother grandad grandpa grandfather aunt uncle cousin ' +
    'niece nephew friend friends mate mates colleague colleagues coworker coworkers boss'
  ).split(' '),
);
/** A number or an ordinal ("12", "5th"). */
const NUMBER = /^\d+(st|nd|rd|th)?$/;
/** What a number no chunk holds weighs, against the rarest word the corpus holds. */
const NUMBER_SHARE = 0.5;

/** A word no chunk holds weighs this much more than the rarest word the corpus does hold. */
const UNKNOWN_BOOST = 1.5;
/** And this much more again when it is what the question asks for (subjectsOf): "a massage". */
const SUBJECT_BOOST = 1.5;

/** The stem a word is compared by (Porter): "deliveries" and "delivery" meet, so do "opening" and "opens". */
export function keyOf(word: string): string {
  return stemmer(lowerCase(word));
}

/**
 * Two stems mean the same word: equal, or one a longer form of the other by a suffix the stemmer
 * left ("deliv", "deliveri"; "regist", "registr"). Not two words that only begin alike ("receiv",
 * "receipt"; "parti", "particular").
 */
const sameKey = (a: string, b: string) => {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const suffix = long.slice(short.length);
  // "checkout" is not "check": a particle makes another word of it.
  return short.length >= 5 && suffix.length <= MAX_SUFFIX && long.startsWith(short) && !PARTICLES.has(suffix);
};
const MAX_SUFFIX = 3;
/** Particles that make a noun of a verb, hyphenated or not: "check-in", "pick-up", "checkout". */
const PARTICLES = new Set(['in', 'out', 'up', 'off', 'on', 'over', 'back', 'down']);

/** A word: letters and digits, with its apostrophes and hyphens ("don't", "check-in"). */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

const wordsIn = (text: string) => lowerCase(text).replace(/’/g, "'").match(WORD) ?? [];

/** The content words of a question: what the corpus statistics are asked for. */
export function contentWords(question: string, lexicon: Lexicon = ENGLISH): string[] {
  const asking = askingWords(question, lexicon);
  return [...new Set(wordsIn(question).filter((w) => w.length > 1 && !isStopWord(w, lexicon) && !asking(w)))];
}

/**
 * The words of a text that name a subject (letters only: no number, no stop word), each with where
 * it begins and its stems in the lexicon's languages: what a figure in the text is said of.
 */
export function subjectWords(
  text: string,
  lexicon: Lexicon = ENGLISH,
  read: WordsRead = new Map(),
): Array<{ word: string; at: number; stems: string[] }> {
  const words = [];
  for (const match of lowerCase(text).matchAll(WORD)) {
    let known = read.get(match[0]);
    if (known === undefined) {
      known = subjectWord(match[0].replace(/’/g, "'"), lexicon);
      read.set(match[0], known);
    }
    if (known) words.push({ word: known.word, at: match.index, stems: known.stems });
  }
  return words;
}

/** Each word read: its stems, or null when it names nothing (shared by the texts read in one lexicon). */
export type WordsRead = Map<string, { word: string; stems: string[] } | null>;

function subjectWord(word: string, lexicon: Lexicon): { word: string; stems: string[] } | null {
  if (word.length < 2 || !LETTERS_ONLY.test(word) || isStopWord(word, lexicon)) return null;
  // "check-in" is also said "check in": each of its parts is a word of it.
  const parts = word.includes('-')
    ? word.split('-').filter((part) => part.length > 1 && !isStopWord(part, lexicon))
    : [];
  return { word, stems: [...new Set([word, ...parts].flatMap((w) => lexicon.stems(w)))] };
}
const LETTERS_ONLY = /^\p{L}+(?:['-]\p{L}+)*$/u;

/**
 * A word that carries no subject in the bot's languages: English's list (STOP_WORDS) where English
 * is one of them, and each other language's stop words and chat words.
 */
const isStopWord = (word: string, lexicon: Lexicon) =>
  (lexicon.english && STOP_WORDS.has(word)) || lexicon.isFiller(word);

/**
 * The stems a term of the question is held by: the word's stem in each of the bot's languages and,
 * in English, its everyday synonyms' (SYNONYM_WORDS).
 */
const termKeys = (word: string, lexicon: Lexicon): string[] => [
  ...new Set(lexicon.stems(word).flatMap((stem) => withSynonyms(stem, lexicon))),
];

/**
 * The compounds a visitor wrote apart, for each content word: its neighbours joined to it ("hel dag"
 * is "heldag", "wheel chair" "wheelchair"). Germanic languages write as one word what people type
 * as two, so a line that holds the compound holds both words.
 */
function compoundsOf(text: string, content: string[]): Map<string, string[]> {
  const words = wordsIn(text);
  const isContent = new Set(content);
  const compounds = new Map<string, string[]>();
  const join = (a: string, b: string) => {
    for (const word of [a, b]) compounds.set(word, [...(compounds.get(word) ?? []), a + b]);
  };
  for (let i = 1; i < words.length; i++)
    if (isContent.has(words[i - 1]!) && isContent.has(words[i]!)) join(words[i - 1]!, words[i]!);
  return compounds;
}

/** Whether a word of this text is one that asks for an intent the text asks ("cost" in "how much does it cost"). */
const askingWords = (text: string, lexicon: Lexicon) => {
  const asked = intentsIn(lexicon).filter(({ asks }) => asks.test(text));
  return (word: string) => asked.some(({ words }) => words.test(word));
};

/** Whether a word asks for a kind of answer (a price, a time: "cost", "hours") rather than naming a subject. */
export const isIntentWord = (word: string) => INTENTS.some(({ words }) => words.test(word));

/**
 * The question's terms, weighted by rarity in the corpus (BM25's idf). `context` is the previous
 * visitor turn of a follow-up ("and on Sundays?" after "When do you open on Saturday?"): its terms
 * count half, so the new question's own words decide.
 */
export function questionTerms(question: string, stats: CorpusStats, context = ''): QuestionTerm[] {
  const lexicon = lexiconFor(stats);
  const { asking, aside } = splitAside(question, lexicon);
  const n = Math.max(stats.chunks, 1);
  const dfOf = new Map(stats.terms.map((t) => [t.word, t.df]));
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const rarest = idf(1);
  const terms: QuestionTerm[] = [];
  const seen = new Set<string>();
  // An unknown word weighs most where the visitor asks for it; in what they tell around it, no more than the rarest word.
  const add = (text: string, share: number, context = false, boost = UNKNOWN_BOOST) => {
    const words = contentWords(text, lexicon);
    const compounds = compoundsOf(text, words);
    for (const word of words) {
      const own = termKeys(word, lexicon);
      const key = own.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const joined = (compounds.get(word) ?? []).flatMap((compound) => lexicon.stems(compound));
      const df = dfOf.get(word) ?? 0;
      // PostgreSQL's stop words ("under", "over") are in no chunk's index: they carry nothing.
      if (df < 0) continue;
      // An adverb no chunk holds ("separately", "quickly") says how, not what is asked: left out.
      if (df === 0 && ADVERB.test(word)) continue;
      // Who the visitor is asking for ("my husband's birthday", "my nan's teeth"), when no page names them.
      if (df === 0 && RELATIONS.has(word.replace(/'s$/, ''))) continue;
      const unknown = df === 0;
      terms.push({
        label: word,
        keys: own,
        ...(joined.length > 0 ? { compounds: joined } : {}),
        word,
        intent: null,
        unknown,
        // A number no page holds ("my son is 12", "10 weeks") is a detail of the visitor's, not a subject.
        weight: share * (unknown ? rarest * (NUMBER.test(word) ? NUMBER_SHARE : boost) : idf(df)),
        context,
      });
    }
  };
  add(asking, 1);
  const subjects = subjectsOf(asking);
  for (const term of terms)
    if (term.word && subjects.has(term.word)) {
      term.subject = true;
      if (term.unknown) term.weight *= SUBJECT_BOOST;
    }
  const intents = intentsOf(question, context, lexicon);
  // An intent weighs as a typical word the corpus holds; beside only words it never holds ("is
  // there a happy hour?"), as half the rarest, so the unknown word still decides.
  const known = terms.filter((t) => !t.unknown).map((t) => t.weight);
  const typical = known.length > 0 ? median(known) : rarest / 2;
  // An intent only the previous turn asked counts half, as its words do.
  const ownIntents = intentsIn(lexicon).some(({ asks }) => asks.test(question));
  for (const intent of intents)
    terms.push({
      label: intent,
      keys: [],
      word: null,
      intent,
      unknown: false,
      weight: ownIntents ? typical : typical / 2,
      context: !ownIntents,
    });
  // The words that asked ("cost", "open") still count, lightly: "Opening hours" over a line of
  // times beats a delivery window's times for "When do you open on Saturday?".
  // "time" itself says nothing the intent does not ("any time" answers no "what time").
  const addAsking = (text: string, share: number, context: boolean) => {
    const asking = askingWords(text, lexicon);
    for (const word of wordsIn(text).filter((w) => asking(w) && !/^times?$/.test(w))) {
      const keys = termKeys(word, lexicon);
      const key = keys.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push({
        label: word,
        keys,
        word,
        intent: null,
        unknown: false,
        weight: (share * typical) / 2,
        context,
      });
    }
  };
  addAsking(question, 1, false);
  if (aside) add(aside, ASIDE_SHARE, true, 1);
  if (context) {
    add(context, 0.5, true);
    // "and sunday?" after "What are your opening hours on Saturday?" still asks for opening hours.
    addAsking(context, 0.5, true);
  }
  return terms;
}

/**
 * What the visitor tells around the question counts this much of what they ask ("im at uni, are
 * classes any cheaper for students?"), and a word of it no chunk holds weighs as the rarest word.
 */
const ASIDE_SHARE = 0.75;
/** Words that open a question: a sentence or clause starting so asks, with or without its "?". */
const QUESTION_OPENER =
  /^(is|are|am|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has|what|what's|whats|when|where|which|who|whose|why|how|any|anything|anyone)\b/i;

/**
 * A message's question and what the visitor says around it: "I run a small coffee shop across
 * town, what's the minimum order for wholesale?" asks for a minimum order; the coffee shop is
 * context. Sentences, and clauses after a comma that open with a question word, are read apart;
 * those that end in "?" or open with a question word ask, the rest are asides. A message with no
 * such part, or whose asking part holds no word of its own, is all question.
 */
export function splitAside(question: string, lexicon: Lexicon = ENGLISH): { asking: string; aside: string } {
  const parts = question
    .split(
      /(?<=[.!?;])\s+|,\s*(?=(?:is|are|am|do|does|did|can|could|will|would|should|what|what's|whats|when|where|which|who|why|how|any)\b)/i,
    )
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < 2) return { asking: question, aside: '' };
  const asks = (part: string) => part.endsWith('?') || QUESTION_OPENER.test(part);
  const asking = parts.filter(asks);
  if (
    asking.length === 0 ||
    asking.length === parts.length ||
    contentWords(asking.join(' '), lexicon).length === 0
  )
    return { asking: question, aside: '' };
  return { asking: asking.join(' '), aside: parts.filter((part) => !asks(part)).join(' ') };
}

/** Words after which a noun is what is asked for: "do you sell pizza", "is there a gym", "book a massage". */
const ASKS_FOR = new Set(
  'a an the any some your my our sell sells have has offer offers do does book get buy order rent hire provide serve make accept need want there'.split(
    ' ',
  ),
);
/** Words that open a phrase about something else: "a packed lunch for a hike", "a cot for our baby". */
const PREPOSITIONS = new Set(
  'for with in on at during from to of after before about by near into without per until over under around since while'.split(
    ' ',
  ),
);

/**
 * The words of what the first sentence asks for: the noun phrase right after "do you sell", "is
 * there a", "can I book a", until a phrase about something else begins. "Massage" in "can I book
 * a massage during my stay"; neither "hike" in "a packed lunch for a hike" nor "stay". A page that
 * says nothing of it does not answer, however well it covers the rest ("book", "stay").
 */
export function subjectsOf(question: string): Set<string> {
  const first = question.split(/[?.!]/)[0] ?? '';
  const subjects = new Set<string>();
  let aside = false;
  let inPhrase = false;
  for (const word of wordsIn(first)) {
    if (PREPOSITIONS.has(word)) aside = true;
    const content = !STOP_WORDS.has(word) && !isIntentWord(word);
    // "swimming" and "packed" describe the noun after them; they are not what is asked for.
    if (content && !/(ed|ing|ly)$/.test(word) && !aside && inPhrase) subjects.add(word);
    inPhrase = ASKS_FOR.has(word) || (inPhrase && content);
  }
  return subjects;
}

/** Whether a question asks for a price, a time, a duration, a place or a contact. */
export const asksIntent = (question: string, lexicon: Lexicon = ENGLISH) =>
  intentsIn(lexicon).some(({ asks }) => asks.test(question));

/** The intents a question asks; a follow-up with none of its own keeps its context's ("and on Sundays?"). */
function intentsOf(question: string, context: string, lexicon: Lexicon): Intent[] {
  const intents = intentsIn(lexicon);
  const asked = intents.filter(({ asks }) => asks.test(question)).map(({ intent }) => intent);
  if (asked.length > 0 || !context) return asked;
  return intents.filter(({ asks }) => asks.test(context)).map(({ intent }) => intent);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Does this text hold the term (its stem or a synonym; a word unknown to the corpus also as a likely typo of one)? */
function holds(term: QuestionTerm, text: TextTerms): boolean {
  if (term.intent)
    return intentsIn(text.lexicon)
      .find((i) => i.intent === term.intent)!
      .answers.test(text.raw);
  for (const key of term.keys) for (const k of text.keys) if (sameKey(key, k)) return true;
  for (const compound of term.compounds ?? [])
    for (const k of text.keys)
      if (k.startsWith(compound) && k.length - compound.length <= MAX_SUFFIX) return true;
  // Four letters are too few to tell a typo from another word ("visa", "Viva").
  if (term.unknown && term.word && term.word.length >= 5)
    for (const word of text.words) if (typoOf(term.word, word)) return true;
  return false;
}

type TextTerms = { raw: string; words: string[]; keys: Set<string>; lexicon: Lexicon };
const textTerms = (raw: string, lexicon: Lexicon): TextTerms => {
  const words = wordsIn(raw);
  return { raw, words, keys: new Set(words.flatMap((word) => keysOf(word, lexicon))), lexicon };
};

/**
 * A word's stems as a text holds it. A hyphenated word is also its joined form ("wi-fi" holds
 * "wifi", "check-out" "checkout"), and a verb made a noun with a particle holds its verb
 * ("check-out" holds "check"), as a visitor writes "check out" or "checkout" for it.
 */
function keysOf(word: string, lexicon: Lexicon): readonly string[] {
  const parts = word.split(/['-]/);
  if (parts.length !== 2 || !word.includes('-')) return lexicon.stems(word);
  const [verb, particle] = parts as [string, string];
  const particleVerb = lexicon.english && PARTICLES.has(particle);
  return [
    ...lexicon.stems(word),
    ...lexicon.stems(verb + particle),
    ...(particleVerb ? lexicon.stems(verb) : []),
  ];
}

/**
 * One or two edits apart (two for long words), first letter kept: "delivry" is "delivery". Accents
 * count for nothing: "cocuk" is "çocuk", "envio" "envío".
 */
export function typoOf(typed: string, word: string): boolean {
  const [a, b] = [withoutAccents(typed), withoutAccents(word)];
  if (a[0] !== b[0] || Math.abs(a.length - b.length) > 2 || b.length < 4) return false;
  const allowed = a.length >= 8 ? 2 : 1;
  return editDistance(a, b, allowed) <= allowed;
}

/** Damerau–Levenshtein distance (adjacent swaps count one), stopping early past `max`. */
function editDistance(a: string, b: string, max: number): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows[i] = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]![j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (i > 0 && best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/**
 * Scores every unit of the passages against the question and decides. `threshold` is the bot's
 * "offer a person below this confidence": the share of the question the best unit must cover.
 */
export function judge(
  terms: QuestionTerm[],
  hits: SearchHit[],
  threshold: number,
  phrases: string[] = [],
  previous = '',
  lexicon: Lexicon = ENGLISH,
  followUp = false,
): Verdict {
  const total = weightOf(terms);
  const ownTotal = weightOf(terms.filter((t) => !t.context));
  const scored: ScoredUnit[] = [];
  const units = hits.flatMap(unitsOf);
  // A follow-up goes on where the last answer was: the list or paragraph it quoted.
  const quoted = new Set(previous ? units.filter((u) => previous.includes(u.text)).map((u) => u.group) : []);
  const branded = brandTerms(terms, units, lexicon);
  // The first unit under each heading of each passage.
  const leads = new Map<string, Unit>();
  for (const unit of units)
    if (!leads.has(`${unit.hit}|${unit.heading}`)) leads.set(`${unit.hit}|${unit.heading}`, unit);
  for (const unit of units) {
    const own = textTerms(unit.text, lexicon);
    const under = textTerms(unit.heading, lexicon);
    // The terms it holds by its heading too, and those it holds by its own words.
    const covered: QuestionTerm[] = [];
    const held: QuestionTerm[] = [];
    const asked = unit.asks ? textTerms(unit.asks, lexicon) : null;
    const section = textTerms(unit.heading.split(' > ').at(-1) ?? '', lexicon);
    // A line of a list says what its heading says the list is: "Sunday: closed" under "Opening hours".
    const list = unit.kind !== 'sentence';
    for (const term of terms) {
      // An FAQ entry's answer holds what its question asks: "Yes, for €10 a night." answers dogs.
      if (
        holds(term, own) ||
        (asked && !term.intent && holds(term, asked)) ||
        (list && holds(term, section))
      ) {
        covered.push(term);
        held.push(term);
      } else if (!term.intent && holds(term, under)) {
        covered.push(term);
      }
    }
    // A unit must hold something of the question itself: a heading alone quotes any line under it.
    // Only the sentence a heading opens with may answer by its heading, when that heading holds
    // all the question's words ("Winter midweek escape" under "Special offers" for "the winter deal").
    const opening = leads.get(`${unit.hit}|${unit.heading}`) === unit;
    const headed =
      opening &&
      unit.kind === 'sentence' &&
      terms.some((t) => !t.intent && holds(t, section)) &&
      terms.every((t) => t.intent || t.context || covered.includes(t));
    if ((held.length === 0 && !headed) || !unit.quotable) continue;

    const anew = covered.some((t) => !t.context && (held.includes(t) || !branded.has(t)));
    const topical = weightOf(covered.filter((t) => !t.intent && holds(t, section)));
    const lower = ` ${own.words.join(' ').replace(/-/g, ' ')} `;
    const said = phrases.filter((phrase) => lower.includes(` ${phrase} `)).length;
    scored.push({
      ...unit,
      coverage: weightOf(covered) / (total || 1),
      own: weightOf(held) / (total || 1),
      topical: topical / (total || 1),
      covered,
      phrases: Math.min(said, MAX_PHRASES),
      fresh: weightOf(held.filter((t) => !t.context)) / (ownTotal || 1),
      density: covered.length / Math.max(own.keys.size, 1),
      continues: quoted.has(unit.group),
      anew,
      passed: false,
    });
  }
  for (const unit of scored)
    unit.passed =
      previous.includes(unit.text) && scored.some((u) => u.group === unit.group && u.fresh > unit.fresh);
  scored.sort(byStrength);
  // A follow-up is answered by a line that holds something of what it newly asks: "do you have
  // wifi?" after the delivery question is not answered by the delivery line.
  const asksAnew = followUp && ownTotal > 0;
  const best = (asksAnew ? answerAnew(scored) : scored[0]) ?? null;
  const coverage = best?.coverage ?? 0;
  // At 0 the owner asked never to hold back: any passage found answers.
  const answers = threshold <= 0 ? hits.length > 0 : best !== null && total > 0 && coverage >= threshold;
  const covered = best ? terms.filter((t) => best.covered.includes(t)) : [];
  const missing = terms.filter((t) => !covered.includes(t) && t.weight > 0);
  const sure = answers && coverage >= SURE_COVERAGE;
  return {
    answers,
    sure,
    coverage: round(coverage),
    best,
    units: scored,
    covered: covered.map((t) => t.label),
    missing: missing.map((t) => t.label),
    summary: summaryOf(answers, sure, best, hits, covered, missing),
  };
}

/**
 * The question's terms that the title of every page found holds (the site's name and place, "…
 * · Ruzafa, València"): held by a heading, they tell no unit apart.
 */
function brandTerms(terms: QuestionTerm[], units: Unit[], lexicon: Lexicon): Set<QuestionTerm> {
  const titles = new Map(units.map((unit) => [unit.document, unit.heading.split(' > ')[0] ?? '']));
  if (titles.size < 2) return new Set();
  const read = [...titles.values()].map((title) => textTerms(title, lexicon));
  return new Set(terms.filter((term) => read.every((title) => holds(term, title))));
}

/**
 * The strongest unit that holds something the follow-up newly asks (ScoredUnit.anew), else the
 * strongest that holds it by the site's name: "Menú Ruzafa: 38 €" for "and the Ruzafa?", not the
 * Albufera menu's line on a page titled "… · Ruzafa, València".
 */
const answerAnew = (scored: ScoredUnit[]) =>
  scored.find((unit) => unit.anew) ?? scored.find((unit) => unit.covered.some((t) => !t.context));

const weightOf = (terms: QuestionTerm[]) => terms.reduce((sum, term) => sum + term.weight, 0);

/** Stronger first: coverage, the unit's own share, its heading's, its density, the passage's rank, reading order. */
export const byStrength = (a: ScoredUnit, b: ScoredUnit) =>
  strength(b) - strength(a) ||
  b.own - a.own ||
  b.topical - a.topical ||
  b.density - a.density ||
  a.hit - b.hit ||
  a.position - b.position;

/** Coverage first; the question's own word pairs said as they are tip units of like coverage. */
const strength = (unit: ScoredUnit) =>
  unit.coverage +
  PHRASE_BONUS * unit.phrases +
  FRESH_BONUS * unit.fresh +
  (unit.continues ? CONTINUES_BONUS : 0) -
  (unit.passed ? PASSED_PENALTY : 0);
/**
 * "and just my brows tinted?" after the lash lift's line: that line, quoted already, holds the
 * follow-up's words only through the page's title and the turn before; the brow tint's line beside
 * it holds them itself.
 */
const PASSED_PENALTY = 0.2;
/** A follow-up's answer in the place of the previous answer beats one of like coverage elsewhere. */
const CONTINUES_BONUS = 0.1;
/** A follow-up's own words tip units of like coverage: "and on Sunday?" wants Sunday's line. */
const FRESH_BONUS = 0.1;
const PHRASE_BONUS = 0.05;
const MAX_PHRASES = 3;

const DETERMINERS = new Set(
  'a an the my your our their his her its this that these those some any'.split(' '),
);

/** The question's adjacent word pairs that hold a content word ("check in", "family suite"). */
export function phrasesOf(question: string, lexicon: Lexicon = ENGLISH): string[] {
  const words = wordsIn(question);
  const pairs: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1]!, words[i]!];
    // "the hotel" says no more than "hotel": a pair with an article or a possessive is no phrase.
    if (DETERMINERS.has(a) || DETERMINERS.has(b)) continue;
    if (!isStopWord(a, lexicon) || !isStopWord(b, lexicon)) pairs.push(`${a} ${b}`);
  }
  return pairs;
}

/** How a decision not to answer opens, and how it opens when the bot's model judges instead. */
const NOT_ANSWERING = 'Would not answer: ';
const MODEL_JUDGES = 'The words fall short: ';

function summaryOf(
  answers: boolean,
  sure: boolean,
  best: ScoredUnit | null,
  hits: SearchHit[],
  covered: QuestionTerm[],
  missing: QuestionTerm[],
): string {
  const list = (terms: QuestionTerm[]) => terms.map((t) => t.label).join(', ');
  if (!best) {
    return missing.length > 0
      ? `${NOT_ANSWERING}nothing covers ${list(missing.filter((t) => !t.intent)) || list(missing)}`
      : `${NOT_ANSWERING}the question has no words to look for`;
  }
  const from = titleOf(hits[best.hit]!);
  if (answers && sure) return `Would answer from ${from}: covers ${list(covered)}`;
  if (answers) {
    const short = missing.length > 0 ? `, not ${list(missing)}` : '';
    return `Would answer from ${from}, but say it is not sure and offer a person: covers ${list(covered)}${short}`;
  }
  return `${NOT_ANSWERING}${from} covers ${list(covered)} but nothing covers ${list(missing)}`;
}

export const titleOf = (hit: SearchHit) => hit.page_title ?? hit.page_url ?? 'Untitled';
const round = (n: number) => Math.round(n * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Units: what of a passage could be quoted.

/** A line that starts a block of its own even without a blank line before it: a list item, a quote, a heading. */
const BLOCK_START = /^\s*([-*+>#]|\d+[.)])\s/;
const HEADING_LINE = /^\s*#{1,6}\s+(.*)$/;
const TABLE_ROW = / \| /;

/**
 * A passage's units in reading order. Code is not prose; a paragraph's wrapped lines are one text;
 * a list item or table row is a unit of its own, quotable as data; a prose fragment without a
 * sentence end, or of fewer than four words, is navigation or a label. A Q&A pair's question is its
 * heading, never a unit: the visitor is given its answer, not the owner's question back.
 */
export function unitsOf(hit: SearchHit, index: number): Unit[] {
  let content = hit.content;
  let heading = hit.heading_path ?? hit.page_title ?? '';
  if (hit.source_type === 'qna') {
    const question = hit.page_title ?? '';
    if (question && content.startsWith(question)) content = content.slice(question.length);
    // The owner wrote the answer to be read whole: one unit, never a sentence cut out of it.
    const text = content.replace(/\s+/g, ' ').trim();
    if (text)
      return [
        {
          hit: index,
          document: hit.document_id,
          heading: question,
          group: `${index}:0`,
          text,
          kind: 'sentence',
          position: 0,
          quotable: true,
        },
      ];
    return [];
  }
  const units: Unit[] = [];
  let position = 0;
  // A run of lines of data (a list, a table, one line a paragraph or not) shares a group, which a
  // heading or a sentence ends.
  let run = 0;
  // An FAQ entry's question ("Can I bring my dog?"), a paragraph of questions alone: never quoted,
  // it heads the paragraph after it, its answer.
  let asks: string | undefined;
  for (const paragraph of withoutCode(content).split(/\n\s*\n/)) {
    const question = questionOnly(paragraph);
    if (question) {
      asks = question;
      continue;
    }
    const answering = asks;
    asks = undefined;
    let header: string[] | null = null;
    // A line right before a table's first row is its caption ("Rates per room per night"): it
    // heads the rows, whose cells alone do not say what their figures are.
    let caption: string | null = null;
    let previous: string | null = null;
    for (const block of unwrap(paragraph)) {
      const before = previous;
      previous = TABLE_ROW.test(block.text) ? null : block.text;
      const titled = HEADING_LINE.exec(block.line);
      if (titled) {
        heading = `${hit.heading_path ?? hit.page_title ?? ''} > ${titled[1]!.trim()}`;
        run += 1;
        continue;
      }
      const base = {
        hit: index,
        document: hit.document_id,
        heading: answering ? `${heading} > ${answering}` : heading,
        group: `${index}:${run}`,
        ...(answering ? { asks: answering } : {}),
      };
      if (TABLE_ROW.test(block.text)) {
        const cells = block.text.split(' | ').map((c) => c.trim());
        if (before !== null) caption = before;
        // A first row whose cells are no figures names the columns: "Wine | Glass | Bottle", or
        // "Bike | Per hour (2-hour minimum) | Full day", whose figure is inside a label.
        if (!header && !cells.some((cell) => FIGURE_CELL.test(cell))) {
          header = cells;
          continue;
        }
        const text = rowText(cells, header);
        const titles = [heading, caption, header?.join(' ')].filter(Boolean);
        units.push({
          ...base,
          heading: titles.join(' > '),
          text,
          kind: 'row',
          position: position++,
          quotable: isData(text),
        });
        continue;
      }
      header = null;
      caption = null;
      if (block.item || !/[.!?…]$/.test(block.text)) {
        // A line of its own: a list item, or a short line such as "Saturday: 8 am – 4 pm".
        const text = block.text;
        const quotable = isData(text) && !QUOTED.test(text);
        units.push({ ...base, text, kind: 'item', position: position++, quotable });
        continue;
      }
      run += 1;
      const testimonial = QUOTED.test(block.text);
      for (const sentence of segment(block.text)) {
        units.push({
          ...base,
          text: sentence,
          kind: 'sentence',
          position: position++,
          // Four words at least, or fewer with a figure ("Check-out: By 11:00."): a fragment is a label.
          quotable:
            !testimonial &&
            /[.!?…)]$/.test(sentence) &&
            sentence.split(' ').length >= (/\d/.test(sentence) ? 2 : 4) &&
            linkShare(sentence) < 0.5,
        });
      }
    }
  }
  return units;
}

/** A paragraph in quotation marks: a customer's words (a review, a testimonial), not the business's. */
const QUOTED = /^\s*["“«„]/;

/** A paragraph that is one line of questions only, as an FAQ's question is; null otherwise. */
function questionOnly(paragraph: string): string | null {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (
    !text.endsWith('?') ||
    paragraph.trim().includes('\n') ||
    BLOCK_START.test(text) ||
    TABLE_ROW.test(text)
  )
    return null;
  return segment(text).every((sentence) => sentence.endsWith('?')) ? text : null;
}

/** A cell that is a figure (a price, an amount, a time), not a label: "$12", "45", "9:00 – 17:00". */
const FIGURE_CELL = /^\p{Sc}?\s?\d/u;

/** A table row read as a line: "Vinho Verde: Glass $10, Bottle $38" with its header, else its cells. */
function rowText(cells: string[], header: string[] | null): string {
  const [first, ...rest] = cells;
  // One value beside its label reads as the label's ("Sunday: Closed"); of several, each says its column's name.
  const named = rest.length > 1;
  // A header one cell short of its rows left out an empty corner (a timetable's, above its times):
  // it names the columns after the first.
  const from = header && header.length === cells.length - 1 ? 0 : 1;
  const values = rest
    .map((cell, i) => (cell && named && header?.[i + from] ? `${header[i + from]} ${cell}` : cell))
    .filter(Boolean);
  return values.length > 0 ? `${first}: ${values.join(', ')}` : (first ?? '');
}

/** A line of data worth quoting: a few words at least, not a bare link or a menu entry. */
const isData = (text: string) =>
  text.split(/\s+/).length >= 2 && text.length <= 300 && linkShare(text) < 0.5 && /[\p{L}\p{N}]/u.test(text);

/** The text with its fenced code blocks blanked; a chunk may begin inside a block the chunker cut. */
export function withoutCode(content: string): string {
  const lines = content.split('\n');
  const fences = lines.filter((line) => CODE_FENCE.test(line));
  let inCode = fences.length % 2 === 1 && /^\s*(```|~~~)\s*$/.test(fences[0]!);
  return lines
    .map((line) => {
      if (CODE_FENCE.test(line)) {
        inCode = !inCode;
        return '';
      }
      return inCode ? '' : line;
    })
    .join('\n');
}

type Block = { text: string; line: string; item: boolean };

/** A short line of a label and its figure: "Croissant: 2.80", "Sunday: 9 am – 1 pm", "Deposit: €600". */
const LABEL_VALUE = /^\s*[^:\n]{1,60}:\s*\p{Sc}?\s?\d[^\n]{0,60}$/u;

/** A paragraph's blocks: its lines joined, except where a line ends a sentence or the next starts a block. */
function unwrap(paragraph: string): Block[] {
  const blocks: Block[] = [];
  for (const line of paragraph.split('\n')) {
    if (!line.trim()) continue;
    const previous = blocks.at(-1);
    const starts = BLOCK_START.test(line) || TABLE_ROW.test(line);
    // "Croissant: 2.80" over "Bagel: 3.10": a list of labels and values, one line each, not wrapped prose.
    const pairs = previous !== undefined && LABEL_VALUE.test(previous.line) && LABEL_VALUE.test(line);
    if (
      previous &&
      !pairs &&
      !previous.item &&
      !TABLE_ROW.test(previous.text) &&
      !/[.!?:;]\s*$/.test(previous.text) &&
      !starts
    )
      previous.text = `${previous.text} ${line.trim()}`;
    else
      blocks.push({
        text: line.replace(BLOCK_START, '').trim(),
        line,
        item: /^\s*([-*+]|\d+[.)])\s/.test(line),
      });
  }
  return blocks;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/**
 * Abbreviations the segmenter takes for a sentence's end, which end none: "e.g. Use a string",
 * "z.B. die", "t.ex. en", a time ("kl. 14.00", "klo 9.00"), a street before its name ("ул. Кутуя").
 */
const ABBREVIATION_END =
  /(?<![\p{L}\p{N}])(?:e\.g|i\.e|cf|vs|etc|approx|z\.b|d\.h|bzw|t\.ex|bl\.a|inkl|exkl|kl|klo|ул|просп|пер|наб|cad|sok|mah)\.$/iu;
/** Abbreviations that end no sentence when a number follows: "ca. 20 km", "nr. 5", "д. 110", "Tel. 070". */
const BEFORE_NUMBER = /(?<![\p{L}\p{N}])(?:ca|cca|nr|no|tel|д|тел|u|str)\.$/iu;
/** A Markdown link's target, which may hold dots the segmenter would split at. */
const LINK_TARGET = /\]\(([^)\s]+)\)/g;

/** A block's sentences, whitespace collapsed, with link targets and abbreviations kept inside them. */
export function segment(block: string): string[] {
  const targets: string[] = [];
  const masked = block.replace(
    LINK_TARGET,
    (_, target: string) => `](\uE000${targets.push(target) - 1}\uE001)`,
  );
  const sentences: string[] = [];
  let pending = '';
  const pieces = [...segmenter.segment(masked)].map((s) => s.segment);
  pieces.forEach((piece, i) => {
    pending += piece;
    const end = pending.trim();
    const abbreviated =
      ABBREVIATION_END.test(end) || (BEFORE_NUMBER.test(end) && /^\d/.test(pieces[i + 1] ?? ''));
    if (!abbreviated) {
      sentences.push(pending);
      pending = '';
    }
  });
  if (pending) sentences.push(pending);
  return sentences
    .map((sentence) =>
      sentence
        .replace(/\uE000(\d+)\uE001/g, (_, i: string) => targets[Number(i)]!)
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

const linkShare = (text: string) =>
  [...text.matchAll(/\[[^\]]*\]\([^)]*\)/g)].reduce((n, m) => n + m[0].length, 0) / text.length;

/** Stems of a text, for telling near-duplicate units apart. */
export const stemsOf = (text: string) =>
  new Set(
    wordsIn(text)
      .filter((w) => !STOP_WORDS.has(w))
      .map(keyOf),
  );

// ---------------------------------------------------------------------------------------------
// The decision: a Q&A pair that means the question, else the passages' evidence.

export type QnaPair = { qna_id: number; question: string; answer: string; overlap: number };

/** What the search found, as decide() reads it. */
export type Found = { qna_match: QnaPair | null; hits: SearchHit[]; stats: CorpusStats };

export type Decision = {
  answers: boolean;
  sure: boolean;
  summary: string;
  source: string | null;
  coverage: number;
  covered: string[];
  missing: string[];
};

/** The decision as the owner reads it when the bot's model judges passages whose words fall short of a sure answer. */
export function judgedByModel(
  decision: Decision,
  modelJudges: boolean,
): Decision & { model_judges: boolean } {
  if (!modelJudges) return { ...decision, model_judges: false };
  const { summary, source, covered, missing } = decision;
  // Not sure: the model, not the quote, answers (or declines), so the summary says what the words hold.
  const judged = summary.startsWith(NOT_ANSWERING)
    ? MODEL_JUDGES + summary.slice(NOT_ANSWERING.length)
    : `${MODEL_JUDGES}${source} covers ${covered.join(', ')} but nothing covers ${missing.join(', ')}`;
  return { ...decision, summary: judged, model_judges: true };
}

/** Share of the visitor's question a pair's question (its answer counting half) must hold. */
const PAIR_VISITOR_SHARE = 0.6;
/** Share of the pair's own question the visitor must have said. */
const PAIR_OWN_SHARE = 0.5;

/**
 * How the bot answers a question, the same everywhere it is asked (issue 30 items 2, 3 and 8): with
 * the Q&A pair retrieval matched only when the pair's question means the visitor's (each says most
 * of what the other asks), else from the passages when their evidence is enough, else not at all.
 */
export function decide(
  found: Found,
  question: string,
  threshold: number,
  context = '',
  previousAnswer = '',
): { pair: QnaPair | null; verdict: Verdict; decision: Decision } {
  const lexicon = lexiconFor(found.stats);
  const terms = questionTerms(question, found.stats, context);
  const phrases = phrasesOf(question, lexicon);
  const verdict = judge(terms, found.hits, threshold, phrases, previousAnswer, lexicon, context !== '');
  const pair = found.qna_match && pairMeans(terms, found.qna_match, found.stats) ? found.qna_match : null;
  if (pair)
    return {
      pair,
      verdict,
      decision: {
        answers: true,
        sure: true,
        summary: `Would answer with the Q&A pair “${pair.question}”`,
        source: pair.question,
        coverage: 1,
        covered: terms.map((t) => t.label),
        missing: [],
      },
    };
  const best = verdict.best;
  return {
    pair: null,
    verdict,
    decision: {
      answers: verdict.answers,
      sure: verdict.sure,
      summary: verdict.summary,
      source: best ? titleOf(found.hits[best.hit]!) : null,
      coverage: verdict.coverage,
      covered: verdict.covered,
      missing: verdict.missing,
    },
  };
}

/**
 * A pair means the visitor's question when its question holds most of what the visitor asks (its
 * answer counting half: "Can I return an item?" and "What is your return policy?" whose answer
 * says "any unworn item"), and the visitor said most of what its question asks: "Do you sell
 * pizza?" shares "sell" with "Do you sell birthday cakes?" and means something else.
 */
function pairMeans(terms: QuestionTerm[], pair: QnaPair, stats: CorpusStats): boolean {
  const lexicon = lexiconFor(stats);
  const question = textTerms(pair.question, lexicon);
  const answer = textTerms(pair.answer, lexicon);
  let held = 0;
  let total = 0;
  for (const term of terms) {
    total += term.weight;
    if (holds(term, question)) held += term.weight;
    else if (holds(term, answer)) held += 0.5 * term.weight;
  }
  if (total === 0 || held / total < PAIR_VISITOR_SHARE) return false;
  const asked = questionTerms(pair.question, { chunks: 1, terms: [], languages: stats.languages });
  const said = asked.filter((own) =>
    own.intent
      ? terms.some((t) => t.intent === own.intent)
      : terms.some((t) => !t.intent && t.keys.some((k) => own.keys.some((o) => sameKey(k, o)))),
  );
  return asked.length === 0 || said.length / asked.length >= PAIR_OWN_SHARE;
}
