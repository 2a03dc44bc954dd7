const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * How long ago `iso` was, in the largest whole unit ("3 hours ago"; "1 day ago", not "yesterday",
 * which 30 hours ago need not be); under a minute "just now". A week or more reads as the date.
 */
export function timeAgo(iso: string, now = Date.now(), locale?: string): string {
  const elapsed = Math.max(0, now - Date.parse(iso));
  if (elapsed >= 7 * 86_400_000) return new Date(iso).toLocaleDateString(locale);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit);
  }
  return 'just now';
}

/** What the bar of `daysAgo` (0: the last 24 hours) covers, as a tooltip and screen reader say it. */
export const dayLabel = (daysAgo: number): string =>
  daysAgo === 0 ? 'Last 24 hours' : daysAgo === 1 ? '1–2 days ago' : `${daysAgo}–${daysAgo + 1} days ago`;
