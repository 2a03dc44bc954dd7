/**
 * The figures a language model's answer states, checked against what the model was given. A price,
 * an opening time, a percentage, a count, a phone number, an e-mail address or a link is what a
 * visitor acts on and what a model most readily makes up; each must appear, in any of its usual
 * spellings, in the sources, the business's instructions or the conversation. Words are not
 * checked: saying the sources in other words is the model's job.
 */

/** A figure as the answer writes it, and the spellings-free keys any one of which supports it. */
type Figure = {
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

/** The figures a text states, in order. Citation markers ("[1]") and a list's numbers ("10. ") are not figures. */
function figuresOf(text: string): Figure[] {
  const figures: Figure[] = [];
  const plain = text.replace(CITATION_MARKER, ' ').replace(/^(\s*)\d{1,2}[.)](?=\s)/gm, '$1');
  for (const match of plain.matchAll(PATTERN)) {
    const groups = match.groups!;
    const at = match.index!;
    if (groups.email)
      figures.push({ text: groups.email, keys: [`e:${groups.email.toLowerCase()}`], contact: true });
    else if (groups.url) {
      const url = groups.url.replace(/[.,;:!?]+$/, '');
      figures.push({ text: url, keys: [`u:${linkKey(url)}`] });
    } else if (groups.date) figures.push(...groups.date.split(/[./-]/).map((n) => numberFigure(n, n)));
    else if (groups.time)
      figures.push({ text: groups.time.replace(/^([^.]*m)\.$/i, '$1'), keys: timeKeys(groups.time) });
    else if (groups.phone) figures.push(phoneFigure(groups.phone));
    else if (groups.number) {
      const before = plain.slice(Math.max(0, at - 2), at);
      const after = plain.slice(at + match[0].length);
      const money = CURRENCY.test(before) || CURRENCY_AFTER.test(after);
      const sign = CURRENCY.exec(before.at(-1) ?? '')?.[0] ?? '';
      const unit = money || Boolean(groups.suffix?.includes('%'));
      figures.push(numberFigure(sign + match[0], groups.number, unit));
    }
  }
  return figures;
}

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

/**
 * Every key the given texts support. A number alone supports the times it may be ("open 9 till 5"),
 * a link also its host, and a phone number's every part as a number.
 *
 * `visitor`: the texts are the visitor's own words, which support the counts, dates, phone numbers,
 * e-mail addresses and links they state ("for 12 people", "call me on …"), but no price or time:
 * "is delivery $2?" must not let the model answer "Yes, $2".
 */
export function givenKeys(texts: string[], visitor = false): Set<string> {
  const keys = new Set<string>();
  const add = (figure: Figure) => {
    if (visitor && figure.amount) return;
    for (const key of figure.gives ?? figure.keys) if (!(visitor && key.startsWith('t:'))) keys.add(key);
    for (const part of figure.parts ?? []) add(part);
  };
  for (const text of texts)
    for (const figure of figuresOf(text)) {
      add(figure);
      for (const key of figure.keys) {
        const hour = /^n:(\d{1,2})$/.exec(key);
        if (hour && Number(hour[1]) <= 24 && !visitor)
          for (const t of clockKeys(Number(hour[1]), 0, null)) keys.add(t);
        if (key.startsWith('u:')) keys.add(`u:${key.slice(2).split('/')[0]}`);
      }
    }
  return keys;
}

/**
 * The figures of `text` that no key of `given` supports, as the text writes them; with
 * `contactsOnly`, only its phone numbers and e-mail addresses.
 */
export function unsupportedFigures(
  text: string,
  given: Set<string>,
  { contactsOnly = false }: { contactsOnly?: boolean } = {},
): string[] {
  const supported = (figure: Figure): boolean =>
    figure.keys.some((key) => given.has(key)) ||
    figure.parts?.every((part) => part.minor || supported(part)) === true;
  return figuresOf(text)
    .filter((figure) => !contactsOnly || figure.contact)
    .filter((figure) => !figure.minor && !supported(figure))
    .map((figure) => figure.text.trim());
}

/** Where a figure may begin: a digit, a currency sign, an e-mail's "@" or a link. */
const FIGURE_START = /[\d$€£¥₹₺₽₩₴@]|:\/\/|\bwww\./u;
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
