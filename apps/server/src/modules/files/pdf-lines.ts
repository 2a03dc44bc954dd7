/** What pdfjs's getTextContent gives for a run of text (a marked-content item has no `str`). */
export type PdfTextItem = { str: string; transform: number[]; width: number; hasEOL: boolean };

/**
 * A gap between two runs on one line wider than this many times the font size is a column's: a
 * word space is a quarter of it, a justified line's widest about one.
 */
const COLUMN_GAP_EM = 1.5;
/** A leader of dots between a menu item and its price ("Beard trim ........ $12"). */
const DOT_LEADER = /(\S)[ \t]*(?:\.[ \t]?){4,}[ \t]*(?=\S)/g;

/**
 * A page's text runs as lines, in the order the PDF draws them. Runs of one line that a column's
 * gap separates (a price list's table, laid out cell by cell) are written as a table row,
 * `cell | cell`, as the DOCX and HTML readers write tables, so a row's item and its price stay
 * one line the answer can quote ("Beard trim: $12") rather than words of a page-long sentence.
 */
export function pageLines(items: ReadonlyArray<PdfTextItem | object>): string {
  let out = '';
  let last: { y: number; end: number } | null = null;
  for (const item of items) {
    if (!('str' in item)) continue;
    const run = item as PdfTextItem;
    if (run.str.trim()) {
      const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = run.transform;
      const size = Math.hypot(c, d) || Math.hypot(a, b);
      // Horizontal text only: a rotated or vertical run's coordinates say nothing of columns.
      const sameLine = last && b === 0 && c === 0 && !out.endsWith('\n') && Math.abs(y - last.y) < size / 2;
      if (sameLine && x - last!.end >= COLUMN_GAP_EM * size) out = `${out.trimEnd()} | `;
      last = { y, end: x + run.width };
    }
    out += run.str;
    if (run.hasEOL) out += '\n';
    else if (run.str && !out.endsWith(' ')) out += ' ';
  }
  return leadersAsCells(out.replace(/[ \t]+\n/g, '\n'));
}

/** A menu's dotted leaders, in a text layer or read by OCR, as the gap between two cells of a row. */
export const leadersAsCells = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(DOT_LEADER, '$1 | '))
    .join('\n');
