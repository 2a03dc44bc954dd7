/**
 * The figures a language model's answer states, checked against what the model was given. A price,
 * an opening time, a percentage, a count, a phone number, an e-mail address or a link is what a
 * visitor acts on and what a model most readily makes up or mixes up; each must appear, in any of
 * its usual spellings, in the sources, the business's instructions or the conversation, and be said
 * of something the words around it there speak of (a rye loaf's $9 is no delivery fee). Words are
 * not otherwise checked: saying the sources in other words is the model's job.
 */

import { isIntentWord, subjectWords, type WordsRead, withSynonyms } from '../knowledge/evidence.js';
import { ENGLISH, type Lexicon } from '../knowledge/languages.js';
import { dayMentions, NAMES_A_DAY, SAYS_CLOSED, SAYS_NOT, SAYS_OPEN } from './weekdays.js';

/** A figure as the answer writes it, and the spellings-free keys any one of which supports it. */
export type Figure = {
  text: string;
  keys: string[];
  /** The keys it supports when it is given, where they differ from `keys` (a phone number's). */
  gives?: string[];
  /** A run of digits read as one phone number that may also be several figures, each supported. */
  parts?: Figure[];
  /** Said in passing and easily written out in words ("7 days a week"): not worth checking. */
  minor?: boolean;
  /** A phone number or an e-mail address: the business's own, never general knowledge. */
  contact?: boolean;
  /** An amount of money or a percentage. */
  amount?: boolean;
  /** A percentage. */
  percent?: boolean;
  /** A link: what it is said of is in its own words. */
  link?: boolean;
  /** A day of the week (weekdays.ts). */
  day?: boolean;
  /** Where it stands in the text read (`figuresIn`). */
  at?: number;
  end?: number;
};

/** A citation marker ("[1]"): no figure. */
const CITATION_MARKER = /\[\d{1,2}\]/g;

const CURRENCY = /[$€£¥₹₺₽₩₴]/u;
const CURRENCY_AFTER =
  /^\s?(€|£|\$|kr|kn|zł|ft|lei|lev|tl|₺|₽|руб|usd|eur|gbp|sek|nok|dkk|chf|aud|cad|nzd|dollars?|euros?|pounds?|kronor|kroner)(?![\p{L}])/iu;

const PATTERN = new RegExp(
  [
    // An e-mail address.
    String.raw`(?<email>[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)`,
    // A link, with its scheme or "www.".
    String.raw`(?<url>(?:https?:\/\/|www\.)[^\s<>()\[\]"']+)`,
    // A date written with numbers: each part is a number.
    String.raw`(?<date>(?<![\p{L}\d.])\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?!\d|\.\d))`,
    // A time of day: "9am", "9.30 pm", "17:00", "17h30", "17 h".
    String.raw`(?<time>(?<![\p{L}\d.,:])(?:(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s?[ap]\.?\s?m\.?(?![\p{L}])|(?:[01]?\d|2[0-3]):[0-5]\d(?!\d|:\d)|(?:[01]?\d|2[0-3])\s?h(?:\s?[0-5]\d)?(?![\p{L}\d])))`,
    // A phone number: eight or more digits in one run, maybe grouped.
    String.raw`(?<phone>(?<![\p{L}\d.,])(?:\+|\(\d)?\d[\d\s().\u2011-]{6,}\d(?![\d]))`,
    // A number: grouped thousands, a decimal part, an ordinal's ending or a percent sign; not one
    // inside a code of letters and digits ("4b7765d2", "A12B"), though a unit may follow ("45kr").
    String.raw`(?<number>(?<![\p{L}\d.,])\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+(?:[.,]\d+)?(?!\d|\p{L}+\d)|(?<![\p{L}\d.,])\d+(?:[.,]\d+)?(?!\d|\p{L}+\d))(?<suffix>\s?%|st|nd|rd|th)?`,
  ].join('|'),
  'giu',
);

/** The figures a text states, in order, and the text they were read in (its citation markers blanked). */
function figuresIn(text: string, given = false): { plain: string; figures: Figure[] } {
  const figures: Figure[] = [];
  const plain = text
    .replace(CITATION_MARKER, (marker) => ' '.repeat(marker.length))
    .replace(
      /^(\s*)(\d{1,2}[.)])(?=\s)/gm,
      (_m, space: string, number: string) => space + ' '.repeat(number.length),
    );
  const found = (figure: Figure, at: number, length: number) =>
    figures.push({ ...figure, at, end: at + length });
  for (const match of plain.matchAll(PATTERN)) {
    const groups = match.groups!;
    const at = match.index!;
    const length = match[0].length;
    if (groups.email)
      found({ text: groups.email, keys: [`e:${groups.email.toLowerCase()}`], contact: true }, at, length);
    else if (groups.url) {
      const url = groups.url.replace(/[.,;:!?]+$/, '');
      found({ text: url, keys: [`u:${linkKey(url)}`], link: true }, at, length);
    } else if (groups.date) for (const n of groups.date.split(/[./-]/)) found(numberFigure(n, n), at, length);
    else if (groups.time)
      found({ text: groups.time.replace(/^([^.]*m)\.$/i, '$1'), keys: timeKeys(groups.time) }, at, length);
    else if (groups.phone) found(phoneFigure(groups.phone), at, length);
    else if (groups.number) {
      const before = plain.slice(Math.max(0, at - 2), at);
      const after = plain.slice(at + length);
      const money = CURRENCY.test(before) || CURRENCY_AFTER.test(after);
      const sign = CURRENCY.exec(before.at(-1) ?? '')?.[0] ?? '';
      const percent = Boolean(groups.suffix?.includes('%'));
      const figure = { ...numberFigure(sign + match[0], groups.number, money || percent), percent };
      found(figure, at - sign.length, length + sign.length);
    }
  }
  for (const mention of dayMentions(plain, { given }))
    for (const day of mention.days)
      found({ text: mention.text, keys: [`d:${day}`], day: true }, mention.at, mention.end - mention.at);
  figures.sort((a, b) => a.at! - b.at!);
  return { plain, figures };
}

/** The figures a text states, in order (the eval's rewrites read them). */
export const figuresOf = (text: string, given = false): Figure[] => figuresIn(text, given).figures;

/** A number's keys: every value its separators allow ("1.250" is 1250 or 1.25; "9.30" may be a time). */
function numberFigure(text: string, digits: string, unit = false): Figure {
  const values = valuesOf(digits);
  const keys = values.map((v) => `n:${v}`);
  const clock = /^(\d{1,2})[.,]([0-5]\d)$/.exec(digits);
  if (clock) keys.push(...clockKeys(Number(clock[1]), Number(clock[2]), null));
  // A count under ten is as often written out in words ("seven days a week") as in digits.
  const minor = !unit && values.every((v) => Number.isInteger(v) && v < 10);
  return { text, keys, minor, amount: unit };
}

function valuesOf(digits: string): number[] {
  const compact = digits.replace(/[ \u00a0\u202f]/g, '');
  const separators = compact.match(/[.,]/g) ?? [];
  if (separators.length === 0) return [Number(compact)];
  const last = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  const whole = compact.slice(0, last).replace(/[.,]/g, '');
  const tail = compact.slice(last + 1);
  const decimal = Number(`${whole}.${tail}`);
  const grouped = Number(whole + tail);
  // "1,250" and "1.250" group thousands in one language and mark decimals in another.
  if (tail.length === 3 && new Set(separators).size === 1) return [grouped, decimal];
  if (tail.length === 3) return [grouped];
  return [decimal];
}

/** "9am", "9:30 pm", "17:00", "17h30": minutes past midnight, both halves of the day when it does not say. */
function timeKeys(text: string): string[] {
  const [, hours, minutes, half] =
    /^(\d{1,2})(?:\s?(?:[:.]|h)\s?(\d{2}))?\s?(?:([ap])\.?\s?m\.?|h)?$/i.exec(text.trim()) ?? [];
  if (hours === undefined) return [];
  return clockKeys(Number(hours), Number(minutes ?? 0), half?.toLowerCase() ?? null);
}

function clockKeys(hours: number, minutes: number, half: string | null): string[] {
  if (half) return [`t:${((hours % 12) + (half === 'p' ? 12 : 0)) * 60 + minutes}`];
  const keys = [`t:${hours * 60 + minutes}`];
  if (hours < 12) keys.push(`t:${(hours + 12) * 60 + minutes}`);
  return keys;
}

const GROUPED = /^\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+$/;

/**
 * A phone number is its digits, however grouped, and stands when a number given ends with them
 * ("555-0163" for "(718) 555-0163": a given number gives its every ending, `p:`) or they end with
 * one (a country code put before it: it is supported by every ending of its own, `P:`, and a given
 * number gives itself as one); failing that, the figures it may be.
 */
function phoneFigure(text: string): Figure {
  const digits = text.replace(/\D/g, '');
  const parts = [...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => numberFigure(m[0], m[0]));
  // "1 250 000" is a number grouped in thousands, as much as a phone number.
  const grouped = GROUPED.test(text.trim()) ? valuesOf(text.trim()).map((v) => `n:${v}`) : [];
  if (digits.length < 8) return { text, keys: grouped, parts };
  const endings = phoneSuffixes(digits);
  return {
    text: text.trim(),
    keys: [`p:${digits}`, ...endings.map((ending) => `P:${ending}`), ...grouped],
    gives: [...endings.map((ending) => `p:${ending}`), `P:${digits}`, ...grouped],
    parts,
    contact: true,
  };
}

/** A phone number's endings of seven digits or more, itself first. */
const phoneSuffixes = (digits: string) =>
  Array.from({ length: Math.max(digits.length - 6, 0) }, (_, start) => digits.slice(start));

const linkKey = (url: string) =>
  url
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/#?]+$/, '');

/** A text the model was given: a passage (with its page's title), the instructions or an earlier reply. */
export type GivenText = { text: string; title?: string };

/** What the model was given, read for figures (`readGiven`). */
export type Given = {
  /** Every key the texts support. */
  keys: Set<string>;
  /** Each key's surroundings where a text gives it: the stems of the words near it and of its page's title, one set per place. */
  near: Map<string, Array<Set<string>>>;
  /** The keys the visitor gave, which may be repeated of anything ("a table for 12"). */
  free: Set<string>;
  /** The stems of every word the texts hold. */
  words: Set<string>;
  lexicon: Lexicon;
};

/** A heading, a table's caption or a list's title: one short line that ends no sentence. */
const isHeading = (block: string) => /^[^\n]{1,80}$/.test(block) && !/[.!?…:;,。！？]$/u.test(block);
const SENTENCE_ENDS = /[.!?…。！？](?=\s)/gu;
const BLOCK_BREAK = /\n[ \t]*\n/g;

/** A stretch of a text, from its first character to just past its last. */
type Span = [number, number];

/** A block of a text (a paragraph, a list, a table: blank lines part them) and the heading above it. */
type Block = { span: Span; heading: Span | null };

/** A text's blocks, in order. */
function blocksOf(plain: string): Block[] {
  const blocks: Block[] = [];
  let heading: Span | null = null;
  let start = 0;
  const add = (span: Span) => {
    blocks.push({ span, heading });
    if (isHeading(plain.slice(...span).trim())) heading = span;
  };
  for (const gap of plain.matchAll(BLOCK_BREAK)) {
    add([start, gap.index]);
    start = gap.index + gap[0].length;
  }
  add([start, plain.length]);
  return blocks;
}

/**
 * What a figure is said of, in the text that gives it: its sentence and the one before, the first
 * line of its block (a table's header, a list's title) and the heading above the block. A price
 * list's "Up to 5 miles | $14" is said of "Delivery fees" two lines up.
 */
function surroundings(plain: string, blocks: Block[], [at, end]: Span): Span[] {
  const lineStart = plain.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = plain.indexOf('\n', end);
  const line = plain.slice(lineStart, lineEnd < 0 ? plain.length : lineEnd);
  const endsBefore = [...line.slice(0, at - lineStart).matchAll(SENTENCE_ENDS)].map((m) => m.index + 1);
  const endAfter = [...line.slice(end - lineStart).matchAll(SENTENCE_ENDS)][0]?.index;
  const said: Span = [
    lineStart + (endsBefore.at(-2) ?? 0),
    endAfter === undefined ? lineStart + line.length : end + endAfter + 1,
  ];
  const { span, heading } = blocks.findLast(({ span: [start] }) => start <= at)!;
  const blockStart = span[0];
  // The block's first line, when the figure's is a later one and it is a title ("Delivery fees",
  // "Distance | Fee", "Prices:"), not an item of its own ("Monday: closed").
  const firstEnd = plain.indexOf('\n', blockStart);
  const titled = lineStart > blockStart && !/:\s*\S/.test(plain.slice(blockStart, firstEnd));
  const header: Span = [blockStart, titled ? firstEnd : blockStart];
  return [said, header, ...(heading ? [heading] : [])];
}

/** The stems of the words (in order of where they begin) within a span of their text. */
function stemsWithin(words: Array<{ at: number; stems: string[] }>, [start, stop]: Span): string[] {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (words[middle]!.at < start) low = middle + 1;
    else high = middle;
  }
  const stems: string[] = [];
  for (let i = low; i < words.length && words[i]!.at < stop; i++) stems.push(...words[i]!.stems);
  return stems;
}

/**
 * Every key the given texts support, and the words around each. A number alone supports the times
 * it may be ("open 9 till 5"), a link also its host, and a phone number's every part as a number.
 *
 * `visitor`: the visitor's own words, which support the counts, dates, phone numbers, e-mail
 * addresses and links they state ("for 12 people", "call me on …"), but no price, time or day: "is
 * delivery $2?" must not let the model answer "Yes, $2".
 */
export function readGiven(
  { sources, visitor = [] }: { sources: GivenText[]; visitor?: string[] },
  lexicon: Lexicon = ENGLISH,
): Given {
  const given: Given = { keys: new Set(), near: new Map(), free: new Set(), words: new Set(), lexicon };
  const read: WordsRead = new Map();
  const stemsOf = (text: string) => subjectWords(text, lexicon, read).flatMap((word) => word.stems);
  const titles = sources.map(({ title }) => new Set(stemsOf(title ?? '')));
  // The words of half the titles or more (the business's name, its town) say nothing of one figure.
  const titled = titles.filter((title) => title.size > 0).length;
  const inTitles = new Map<string, number>();
  for (const title of titles) for (const stem of title) inTitles.set(stem, (inTitles.get(stem) ?? 0) + 1);
  const common = (stem: string) => titled >= 3 && inTitles.get(stem)! >= titled / 2;
  sources.forEach(({ text }, index) => {
    const { plain, figures } = figuresIn(text, true);
    const words = subjectWords(plain, lexicon, read);
    const blocks = blocksOf(plain);
    const title = [...titles[index]!].filter((stem) => !common(stem));
    for (const stem of [...words.flatMap((word) => word.stems), ...titles[index]!]) given.words.add(stem);
    // The days it names are words of it too: "Sat 8 am – 4 pm" is said of Saturday.
    const days = figures
      .filter((figure) => figure.day)
      .map((figure) => ({ at: figure.at!, stems: figure.keys }));
    for (const { stems } of days) for (const stem of stems) given.words.add(stem);
    const named = [...words, ...days].sort((a, b) => a.at - b.at);
    for (const figure of figures) {
      // "Monday: closed" names Monday, but as no day it is open.
      if (figure.day && saysClosed(dayClauseOf(plain, figure))) continue;
      const spans = surroundings(plain, blocks, [figure.at!, figure.end!]);
      const around = new Set([...spans.flatMap((span) => stemsWithin(named, span)), ...title]);
      for (const key of keysGiven(figure, false)) {
        given.keys.add(key);
        // An amount is said of what the amounts near it are: "$14" is no "14 Holly Street".
        for (const near of figure.amount ? [key, `$${key}`] : [key]) {
          const places = given.near.get(near);
          if (places) places.push(around);
          else given.near.set(near, [around]);
        }
      }
    }
  });
  for (const text of visitor)
    for (const figure of figuresIn(text).figures)
      for (const key of keysGiven(figure, true)) {
        given.keys.add(key);
        given.free.add(key);
      }
  return given;
}

/** The keys a figure supports when it is given (a number also the hours it may be, a link its host). */
function keysGiven(figure: Figure, visitor: boolean, derived = true): string[] {
  if (visitor && figure.amount) return [];
  // The visitor's words give no time and no day: "can I come at 10pm on Monday?" is no opening hour.
  const keys = (figure.gives ?? figure.keys).filter((key) => !(visitor && /^[td]:/.test(key)));
  for (const key of derived ? figure.keys : []) {
    const hour = /^n:(\d{1,2})$/.exec(key);
    if (hour && Number(hour[1]) <= 24 && !visitor) keys.push(...clockKeys(Number(hour[1]), 0, null));
    if (key.startsWith('u:')) keys.push(`u:${key.slice(2).split('/')[0]}`);
  }
  return [...keys, ...(figure.parts ?? []).flatMap((part) => keysGiven(part, visitor, false))];
}

/**
 * The figures of `text` that nothing given supports, as the text writes them. A figure is supported
 * when it is given (in any spelling) of what the text says it of: some word of the text's, or of
 * `about` (the visitor's question, which a short answer leaves unsaid: "It's $14."), is near it where
 * it is given. A rye loaf's $9 is no delivery fee. When none of those words is in what was given
 * (the model put it in its own words, or in another language), where it belongs cannot be told, and
 * its value is enough. With `contactsOnly`, only phone numbers and e-mail addresses are checked.
 */
export function unsupportedFigures(
  text: string,
  given: Given,
  { contactsOnly = false, about = '' }: { contactsOnly?: boolean; about?: string } = {},
): string[] {
  const supported = (figure: Figure): boolean =>
    figure.keys.some((key) => given.keys.has(key)) ||
    figure.parts?.every((part) => part.minor || supported(part)) === true;
  const { plain, figures } = figuresIn(text);
  const placed = (figure: Figure): boolean => {
    const keys = figure.keys.filter((key) => given.keys.has(key));
    if (figure.contact || figure.link || keys.length === 0 || keys.some((key) => given.free.has(key)))
      return true;
    const anchors = claimOf(plain, figure, about, given);
    const near = (key: string) => (figure.amount && given.near.get(`$${key}`)) || given.near.get(key);
    return (
      anchors.length === 0 ||
      keys.some((key) => near(key)?.some((place) => anchors.some((stem) => place.has(stem))))
    );
  };
  // The figures a total may be worked out from: those that stand by value, and small counts.
  const workable = figures.filter((other) => other.minor || supported(other));
  const stands = (figure: Figure) =>
    figure.minor ||
    // "We are closed on Mondays", "we don't deliver on Sundays": often said of what the sources leave out.
    (figure.day && saysNotOpen(dayClauseOf(plain, figure))) ||
    (supported(figure) && (contactsOnly || placed(figure))) ||
    (!contactsOnly && workedOut(figure, workable, given));
  return figures
    .filter((figure) => !(contactsOnly && !figure.contact) && !stands(figure))
    .map((figure) => figure.text.trim());
}

/** Rounding a worked-out amount may leave ("$10.83" for a third of $32.50). */
const CENTS = 0.011;

/**
 * An amount or a count the answer works out, in view of the visitor, from figures it states beside
 * it and the visitor's counts: "2 nights at $120 is $240", "$45 a head, so $135 for 3 of you" (the
 * visitor said 3), "the $78 cake and $14 delivery come to $92", "10% off $50 is $45". The amounts
 * it is worked out from must stand themselves; a count it multiplies by is a whole number from 2 to
 * 100, the answer's own ("2 nights") or the visitor's.
 */
function workedOut(figure: Figure, beside: Figure[], given: Given): boolean {
  if (!figure.amount && !figure.keys.some((key) => key.startsWith('n:'))) return false;
  const others = beside.filter((other) => other !== figure);
  const amounts = others.filter((other) => other.amount && !other.percent).flatMap(valuesIn);
  const percents = others.filter((other) => other.percent).flatMap(valuesIn);
  const visitorCounts = [...given.free].flatMap((key) =>
    key.startsWith('n:') ? [Number(key.slice(2))] : [],
  );
  const counts = [...others.filter((other) => !other.amount).flatMap(valuesIn), ...visitorCounts].filter(
    (n) => Number.isInteger(n) && n >= 2 && n <= 100,
  );
  const results = [
    ...amounts.flatMap((a) => counts.map((n) => a * n)),
    ...amounts.flatMap((a, i) => amounts.slice(i + 1).map((b) => a + b)),
    ...amounts.flatMap((a) => percents.flatMap((p) => [(a * p) / 100, a - (a * p) / 100])),
  ];
  return valuesIn(figure).some((value) => results.some((result) => Math.abs(result - value) < CENTS));
}

const valuesIn = (figure: Figure) =>
  figure.keys.flatMap((key) => (key.startsWith('n:') ? [Number(key.slice(2))] : []));

/** Where one clause ends and the next begins (a sentence's end too). */
const CLAUSE_BREAK = /[,;:()–—]|[.!?…。！？](?=\s)|\s-\s|\n/gu;

/**
 * What a text says of a day it names: its clause, with what a colon gives it ("Sunday: closed"),
 * apart from the other clauses of its sentence ("open Tuesday to Saturday, closed Mondays").
 */
const DAY_CLAUSE_BREAK = /[,;()]|[.!?…。！？](?=\s)|\n/gu;

/** The clause a figure stands in (parted by `breaks`), with as many clauses before it as asked. */
function clauseOf(plain: string, figure: Figure, { before = 0, breaks = CLAUSE_BREAK } = {}): string {
  const at = [0, ...[...plain.matchAll(breaks)].map((m) => m.index), plain.length];
  const start = at.findLastIndex((position) => position <= figure.at!);
  const end = at.find((position) => position >= figure.end!) ?? plain.length;
  return plain.slice(at[Math.max(start - before, 0)]!, end);
}
const dayClauseOf = (plain: string, figure: Figure) => clauseOf(plain, figure, { breaks: DAY_CLAUSE_BREAK });

/** A clause that says closed and gives no opening time. */
const saysClosed = (clause: string) => SAYS_CLOSED.test(clause) && !SAYS_OPEN.test(clause);
/** A clause that says closed, or not. */
const saysNotOpen = (clause: string) => SAYS_CLOSED.test(clause) || SAYS_NOT.test(clause);

/**
 * What a figure of a text is said of, as far as the given texts hold those words: the words of its
 * clause ("the 8-inch cake is $78" of "Delivery is $14, and the 8-inch cake is $78"); failing any,
 * those of the clause before too ("Saturday: 9am–1pm", "the hybrid check ($30)"); failing any,
 * those of the visitor's question, which a short answer leaves unsaid ("It's $14."). The answer's
 * own words come first: "Delivery is $9" says $9 of delivery, whatever else the visitor asked
 * about. None when neither says it in words the given texts hold.
 */
function claimOf(plain: string, figure: Figure, about: string, given: Given): string[] {
  const clause = clauseOf(plain, figure);
  const withBefore = clauseOf(plain, figure, { before: 1 });
  for (const said of [clause, withBefore, about]) {
    const anchors = [
      ...subjectWords(said, given.lexicon)
        // "cost", "open", "phone" say what kind of figure it is, not what of: they find every price list.
        .filter(({ word }) => !isIntentWord(word))
        .flatMap(({ stems }) => stems.flatMap((stem) => withSynonyms(stem, given.lexicon))),
      // The days it names, other than the figure itself ("On Saturdays we open at 8 am").
      ...dayMentions(said).flatMap((mention) => mention.days.map((day) => `d:${day}`)),
    ].filter((stem) => given.words.has(stem) && !figure.keys.includes(stem));
    if (anchors.length > 0) return anchors;
  }
  return [];
}

/** Where a figure may begin: a digit, a currency sign, an e-mail's "@", a link or a day's name. */
const FIGURE_START = new RegExp(`[\\d$€£¥₹₺₽₩₴@]|:\\/\\/|\\bwww\\.|${NAMES_A_DAY.source}`, 'iu');
const SENTENCE_END = /[.!?…。！？](?=\s)|\n/u;

/** Whether a text may state a figure at all (most sentences do not, and need no checking). */
export const mayStateFigure = (text: string) => FIGURE_START.test(text);

/**
 * The model's text as it streams: words show as they come, and the rest of a sentence from its
 * first figure on is held until the sentence ends and `check` finds nothing unsupported in it. The
 * visitor never sees a made-up price; the first sentence that fails stops the stream, and `end`
 * tells what failed. A sentence is checked whole, so a figure that began in words already shown
 * ("hello" then "@example.com", "ww" then "w.example.com") is read whole too.
 */
export function figureGate(emit: (text: string) => void, check: (sentence: string) => string[]) {
  let shown = '';
  let held = '';
  const failed: string[] = [];
  const pass = (sentence: string, show: string) => {
    failed.push(...check(sentence));
    if (failed.length === 0 && show) emit(show);
    return failed.length === 0;
  };
  return {
    push(delta: string) {
      if (failed.length > 0) return;
      held += delta;
      for (let end = held.search(SENTENCE_END); end >= 0; end = held.search(SENTENCE_END)) {
        const rest = held.slice(0, end + 1);
        held = held.slice(end + 1);
        if (!pass(shown + rest, rest)) return;
        shown = '';
      }
      // A citation marker ("[1]") is no figure: the words after it still show as they come.
      const figure = held
        .replace(CITATION_MARKER, (marker) => ' '.repeat(marker.length))
        .search(FIGURE_START);
      const safe = figure < 0 ? held.length : wordStart(held, figure);
      if (safe > 0) {
        emit(held.slice(0, safe));
        shown += held.slice(0, safe);
        held = held.slice(safe);
      }
    },
    /** Checks what is left; the figures no source holds, empty when the whole text stood. */
    end(): string[] {
      if (failed.length === 0 && (shown + held).trim()) pass(shown + held, held);
      shown = '';
      held = '';
      return [...new Set(failed)];
    },
  };
}

const wordStart = (text: string, index: number) => text.slice(0, index).search(/\S*$/);
