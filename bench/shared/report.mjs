// Shared by the benchmarks: percentiles and the markdown tables they print.

/** The q-quantile of an ascending list (nearest rank); NaN when empty. */
export const quantile = (sorted, q) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** Count, p50, p95, p99 and max of a list of measurements. */
export function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const fmt = (n) => Math.round(n).toLocaleString('en-US');
/** Milliseconds with the precision that matters at their size. */
export const ms = (n) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : fmt(n));
export const trio = (s) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}`;

/** A markdown table: the first `leftColumns` columns left-aligned, the rest right-aligned. */
export function printTable(header, lines, leftColumns = 2) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) =>
    `| ${cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(
    `|${widths.map((w, i) => (i < leftColumns ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const line of lines) console.log(format(line));
}
