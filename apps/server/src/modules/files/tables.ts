import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Section } from '../knowledge/chunker.js';

/**
 * A section of table rows stays under this many tokens, below the chunker's 800: each is one chunk,
 * and every chunk starts with the table's title and header, so a row of a long price list found on
 * its own still says what its figures are.
 */
const SECTION_TOKENS = 600;
/** A row longer than this is prose (a description, an answer), not a line of data to quote whole. */
const ROW_MAX_CHARS = 300;
/** A first column named so holds the questions of an FAQ. */
const QUESTION_HEADER = /^(q|questions?|faqs?|frequently asked questions?)$/i;

/**
 * A spreadsheet's rows (CSV, a sheet of XLSX) as sections the answers can quote row by row, the
 * first row its header:
 * - an FAQ (two columns, questions in the first): each entry a section, its question alone on a
 *   line and the answer under it, as an FAQ page reads;
 * - a table of short rows: `cell | cell` lines under the header, as the DOCX and HTML readers
 *   write tables ("How much is a croissant?" quotes "Croissant: Price £2.50");
 * - long rows: each row a paragraph of `header: value` pairs.
 * Lines before the header that hold one cell (a sheet's title) are kept above it.
 */
export function tableSections(raw: string[][], headingPath?: string): Section[] {
  const rows = tidy(raw);
  const start = rows.findIndex((row) => row.length > 1);
  if (start < 0) return rows.length > 0 ? [section(rows.map((r) => r.join('')).join('\n'), headingPath)] : [];
  const title = rows.slice(0, start).map((row) => row.join(''));
  const [header, ...body] = rows.slice(start) as [string[], ...string[][]];
  if (isFaq(header, body)) return faqSections(body, headingPath);
  const lines = filledDown(body).map((row) => row.join(' | '));
  if (lines.some((line) => line.length > ROW_MAX_CHARS)) {
    return [section(body.map((row) => recordText(header, row)).join('\n\n'), headingPath, title)];
  }
  return rowSections([...title, header.join(' | ')], lines, headingPath);
}

/** Cells trimmed, a `|` inside one made `/`, empty rows and columns gone, trailing empty cells cut. */
function tidy(raw: string[][]): string[][] {
  const cells = raw.map((row) => row.map((cell) => cell.replace(/\s+/g, ' ').replaceAll('|', '/').trim()));
  const width = Math.max(0, ...cells.map((row) => row.length));
  const used = Array.from({ length: width }, (_, i) => cells.some((row) => row[i]));
  return cells
    .map((row) => row.filter((_, i) => used[i]))
    .map((row) => row.slice(0, lastFilled(row) + 1))
    .filter((row) => row.length > 0);
}

const lastFilled = (row: string[]) => row.findLastIndex((cell) => cell !== '');

function isFaq(header: string[], body: string[][]): boolean {
  if (header.length !== 2 || body.length === 0) return false;
  const asked = body.filter((row) => row[0]?.endsWith('?')).length;
  return QUESTION_HEADER.test(header[0]!) || asked * 2 >= body.length;
}

function faqSections(body: string[][], headingPath?: string): Section[] {
  return body.filter((row) => row[0] && row[1]).map((row) => section(`${row[0]}\n\n${row[1]}`, headingPath));
}

/**
 * A row with its first cell empty continues the group of the row above ("Haircut | Short | $20",
 * " | Long | $30"): it takes that name. Another empty cell stays empty in its place ("a |  | b"),
 * so the values after it stay under their headers.
 */
function filledDown(body: string[][]): string[][] {
  let group = '-';
  return body.map((row) => {
    group = row[0] || group;
    return [group, ...row.slice(1)];
  });
}

const recordText = (header: string[], row: string[]) =>
  row
    .map((value, i) => (header[i] && value ? `${header[i]}: ${value}` : value))
    .filter(Boolean)
    .join('; ');

/** The rows in sections of at most SECTION_TOKENS, each opening with the table's title and header. */
function rowSections(head: string[], lines: string[], headingPath?: string): Section[] {
  const headTokens = countTokens(head.join('\n'));
  const sections: Section[] = [];
  let current: string[] = [];
  let tokens = headTokens;
  for (const line of lines) {
    const lineTokens = countTokens(line) + 1;
    if (current.length > 0 && tokens + lineTokens > SECTION_TOKENS) {
      sections.push(section(current.join('\n'), headingPath, head));
      current = [];
      tokens = headTokens;
    }
    current.push(line);
    tokens += lineTokens;
  }
  if (current.length > 0 || sections.length === 0)
    sections.push(section(current.join('\n'), headingPath, head));
  return sections;
}

function section(text: string, headingPath?: string, head: string[] = []): Section {
  const full = [...head, text].filter(Boolean).join('\n');
  return headingPath ? { text: full, headingPath } : { text: full };
}
