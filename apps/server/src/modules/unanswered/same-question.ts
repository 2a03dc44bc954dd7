/** Two wordings ask the same thing when their stemmed words overlap this much (Dice coefficient). */
export const SAME_QUESTION = 0.6;

/** The shorter stem a longer one may extend ("deliv", "deliveri"), and by how many letters at most. */
const PREFIX_MIN = 4;
const PREFIX_EXTRA = 3;
/** Words this long may differ by one typo ("canda", "canada"; "recieve", "receive"). */
const TYPO_MIN = 5;

/**
 * Whether two stemmed words are one word as visitors type it: the same stem, a stem and its longer
 * form (the stemmer leaves "delivery" as "deliveri" and "deliver" as "deliv"), or one typo apart
 * ("delivr", "canda"). Short words must match exactly: "pay" is no "paypal", "card" no "cardigan".
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= PREFIX_MIN && long.length - short.length <= PREFIX_EXTRA && long.startsWith(short))
    return true;
  return short.length >= TYPO_MIN && oneEditApart(short, long);
}

/** One letter added, dropped, changed, or two neighbours swapped (`short` no longer than `long`). */
function oneEditApart(short: string, long: string): boolean {
  if (long.length - short.length > 1) return false;
  let start = 0;
  while (start < short.length && short[start] === long[start]) start += 1;
  if (short.length === long.length) {
    const swapped =
      short[start] === long[start + 1] &&
      short[start + 1] === long[start] &&
      short.slice(start + 2) === long.slice(start + 2);
    return swapped || short.slice(start + 1) === long.slice(start + 1);
  }
  return short.slice(start) === long.slice(start + 1);
}

/**
 * Dice coefficient of two sets of stemmed words, a word counting as shared when the other set holds
 * it as visitors type it (`sameWord`): 1 for the same words, 0 for none shared.
 */
export function overlap(a: readonly string[], b: readonly string[]): number {
  const left = [...new Set(a)];
  const right = [...new Set(b)];
  if (left.length === 0 || right.length === 0) return 0;
  const held = (words: string[], other: string[]) =>
    words.filter((word) => other.some((candidate) => sameWord(word, candidate))).length;
  return (held(left, right) + held(right, left)) / (left.length + right.length);
}

/** Whether two wordings, as stemmed words, ask the same thing. */
export const sameQuestion = (a: readonly string[], b: readonly string[]) => overlap(a, b) >= SAME_QUESTION;
