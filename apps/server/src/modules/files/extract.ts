import { createRequire } from 'node:module';
import path, { extname } from 'node:path';
import type { FileKind } from '@parley/contracts';
import { parse as parseCsv } from 'csv-parse/sync';
import { fileTypeFromBuffer } from 'file-type';
import { decodeHtml, decodeText, hasByteOrderMark } from '../../core/text-encoding.js';
import type { Section } from '../knowledge/chunker.js';
import { markdownSections } from '../knowledge/markdown.js';
import { ExtractionError } from './extraction-error.js';
import { leadersAsCells, pageLines } from './pdf-lines.js';
import { tableSections } from './tables.js';
import { assertZipWithinLimits, type ZipLimits } from './zip-guard.js';

export { ExtractionError };

// The parsers are imported when a file of their kind arrives: every extraction process would
// otherwise load all of them (jsdom, ExcelJS, mammoth: tens of megabytes of heap and a second of
// start-up), within its heap limit, to read a .txt.

const MIME: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
};

const TEXT_EXTENSIONS: Record<string, FileKind> = {
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.csv': 'csv',
  '.html': 'html',
  '.htm': 'html',
};

export const KIND_MIME: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain',
  markdown: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * What a file really is, from its bytes: binary formats by their signature (file-type), whatever the
 * name says; text formats by extension, only when the bytes read as text (UTF-8, UTF-16 with its
 * mark, or windows-1252: decodeText). So a `.pdf` that holds plain text is refused, and a PDF named
 * `.txt` is read as a PDF. Null: refused.
 */
export async function detectKind(filename: string, content: Uint8Array): Promise<FileKind | null> {
  const byName = TEXT_EXTENSIONS[extname(filename).toLowerCase()];
  // file-type takes UTF-16's mark (FF FE) for an MPEG audio frame: marked text that reads as text is text.
  if (byName && hasByteOrderMark(content) && decodeText(content) !== null) return byName;
  const detected = await fileTypeFromBuffer(content);
  if (detected) return MIME[detected.mime] ?? null;
  if (!byName || decodeText(content) === null) return null;
  return byName;
}

/** An OLE compound file: a password-protected DOCX or XLSX, or an old .doc, .xls or .ppt. */
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream Office keeps an encrypted document in, as its directory names it (UTF-16LE). */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');
const OLD_OFFICE: Record<string, string> = { '.doc': '.docx', '.xls': '.xlsx', '.ppt': '.pdf' };

/**
 * Why a file detectKind refused is refused, when the owner can do something about it: an Office
 * file with a password, or in the format before 2007. Null: a type not supported.
 */
export function refusalReason(filename: string, content: Uint8Array): string | null {
  if (!COMPOUND_FILE.every((byte, i) => content[i] === byte)) return null;
  if (Buffer.from(content.buffer, content.byteOffset, content.byteLength).includes(ENCRYPTED_PACKAGE)) {
    return `${filename} is password-protected: save a copy without the password and upload that`;
  }
  const newer = OLD_OFFICE[extname(filename).toLowerCase()];
  return newer ? `${filename} is in an old Office format: save it as ${newer} and upload that` : null;
}

/** Time a file's scanned pages may spend in OCR, unless the pool says (half its time limit). */
export const DEFAULT_OCR_BUDGET_MS = 30_000;

/** Archives small enough for any test or ordinary document; the server passes its configured limits. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxUnpackedBytes: 50 * 1024 * 1024, maxEntries: 10_000 };

/**
 * The text of a file as sections (PDF: one per page with its number; XLSX: one per sheet). Runs in the
 * extraction pool's worker processes (extract-pool.ts), never on the event loop that answers HTTP.
 */
export async function extractSections(
  kind: FileKind,
  content: Uint8Array,
  zipLimits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ocrBudgetMs = DEFAULT_OCR_BUDGET_MS,
): Promise<Section[]> {
  if (kind === 'docx' || kind === 'xlsx') await assertZipWithinLimits(content, zipLimits, kind.toUpperCase());
  const sections = await extractByKind(kind, content, ocrBudgetMs);
  const kept = sections
    .map((s) => ({
      ...s,
      text: s.text
        .replace(/\r\n?/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    }))
    .filter((s) => s.text.length > 0);
  if (kept.length === 0)
    throw new ExtractionError(kind === 'pdf' ? PDF_NO_TEXT : 'No text could be extracted from this file');
  return kept;
}

function extractByKind(
  kind: FileKind,
  content: Uint8Array,
  ocrBudgetMs: number,
): Promise<Section[]> | Section[] {
  switch (kind) {
    case 'pdf':
      return extractPdf(content, ocrBudgetMs);
    case 'docx':
      return extractDocx(content);
    case 'xlsx':
      return extractXlsx(content);
    case 'csv':
      return extractCsv(decode(content));
    case 'html':
      return extractHtml(decodeHtml(content));
    case 'markdown':
      return markdownSections(decode(content));
    case 'txt':
      return [{ text: decode(content) }];
    case 'png':
    case 'jpeg':
    case 'webp':
      return extractImage(content);
  }
}

/** A photo or scan of text (a menu, a price list), read by OCR. */
async function extractImage(content: Uint8Array): Promise<Section[]> {
  const { withImageReader } = await import('./ocr.js');
  const text = await withImageReader((read) => read(content));
  if (!text) throw new ExtractionError('No text could be read from this image');
  return [{ text }];
}

/** detectKind has let only text through. */
const decode = (content: Uint8Array) => decodeText(content) ?? '';

type PdfDocument = Awaited<
  ReturnType<typeof import('pdfjs-dist/legacy/build/pdf.mjs')['getDocument']>['promise']
>;

/** A PDF of blank pages, or of pictures OCR could not read: the owner is told, not left with nothing trained. */
export const PDF_NO_TEXT =
  'No text could be read from this PDF: its pages are blank, or pictures of text too unclear to read';

export const PDF_LOCKED = 'This PDF is password-protected: save a copy without the password and upload that';

const STANDARD_FONTS = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/** Page by page, each section keeping its page number; scanned pages read by OCR within `ocrBudgetMs`. */
export async function extractPdf(
  content: Uint8Array,
  ocrBudgetMs = DEFAULT_OCR_BUDGET_MS,
): Promise<Section[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let document: PdfDocument;
  try {
    document = await getDocument({
      data: new Uint8Array(content),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      // A scanned page is rendered to be read by OCR: the 14 standard fonts come with pdfjs.
      standardFontDataUrl: STANDARD_FONTS,
      verbosity: 0,
    }).promise;
  } catch (error) {
    // The owner can fix this one: say so, rather than that the file is broken.
    if ((error as { name?: string }).name === 'PasswordException') throw new ExtractionError(PDF_LOCKED);
    throw new ExtractionError('The PDF could not be read: the file may be damaged');
  }
  try {
    const sections: Section[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const text = await page.getTextContent();
      page.cleanup();
      sections.push({ text: pageLines(text.items), pageNumber: n });
    }
    await readScannedPages(document, sections, ocrBudgetMs);
    return sections;
  } finally {
    await document.destroy();
  }
}

/** A page with less text than this is a scan (a picture of its text), or has none. */
const SCANNED_PAGE_CHARS = 20;
/** Scanned pages read by OCR at most per file. */
export const OCR_MAX_PAGES = 30;

/**
 * The text of the PDF's scanned pages, by OCR, in place of their (next to) empty text layer, page
 * after page until `budgetMs` is spent: a dense page takes about 4 s here, and a file that overruns
 * the extraction's time limit would lose its text layer's pages too.
 */
async function readScannedPages(document: PdfDocument, sections: Section[], budgetMs: number): Promise<void> {
  const scanned = sections
    .filter((section) => section.text.replace(/\s/g, '').length < SCANNED_PAGE_CHARS)
    .slice(0, OCR_MAX_PAGES);
  if (scanned.length === 0) return;
  const deadline = performance.now() + budgetMs;
  const { renderPage, withImageReader } = await import('./ocr.js');
  await withImageReader(async (read) => {
    for (const section of scanned) {
      if (performance.now() > deadline) return;
      const text = await read(await renderPage(document, section.pageNumber!));
      if (text) section.text = leadersAsCells(text);
    }
  });
}

/**
 * Above this much HTML, a DOCX is read as plain text: a DOM of it would not fit the extraction
 * process's heap (a 20 MB document's HTML DOM takes gigabytes), and its headings are lost.
 */
const DOCX_HTML_MAX_CHARS = 3_000_000;

/** Section by section under its headings (Word's heading styles), tables as rows; see htmlSections. */
async function extractDocx(content: Uint8Array): Promise<Section[]> {
  let html: string;
  const { default: mammoth } = await import('mammoth');
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(content) })).value;
  } catch {
    throw new ExtractionError('The DOCX file could not be read');
  }
  if (html.length <= DOCX_HTML_MAX_CHARS) return htmlSections(`<body>${html}</body>`);
  html = ''; // let the HTML go before the second pass
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(content) });
  return [{ text: value }];
}

/** One section per sheet (heading: the sheet's name), its rows as a table (tableSections). */
async function extractXlsx(content: Uint8Array): Promise<Section[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(content) as unknown as ArrayBuffer);
  } catch {
    throw new ExtractionError('The XLSX file could not be read');
  }
  const sections: Section[] = [];
  workbook.eachSheet((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      // Empty cells keep their place, so a value stays under its column's header.
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cell.text;
      });
      rows.push(Array.from(cells, (cell) => cell ?? ''));
    });
    sections.push(...tableSections(rows, sheet.name));
  });
  return sections;
}

/** A CSV's rows as a table, the first its header (tableSections). */
export function extractCsv(text: string): Section[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, bom: true, trim: true });
  } catch {
    throw new ExtractionError('The CSV file could not be read');
  }
  return tableSections(rows);
}

/** An HTML file as the crawler reads a page: its main content, furniture removed. */
export function extractHtml(html: string): Promise<Section[]> {
  return htmlSections(html);
}

/**
 * HTML as sections (knowledge/html-sections.ts, as the crawler reads pages): every section of the
 * main content under its heading path (the title first), tables as readable rows, code kept,
 * navigation, banners and scripts dropped, block elements never glued together. Each section keeps
 * the id of its heading as `anchor`, as a crawled page's do; an upload has no address of its own, so
 * it only becomes part of a link (ingest.ts `sectionUrl`) if the document is given one.
 */
async function htmlSections(html: string): Promise<Section[]> {
  const { readBlocks, readHtml, sectionsOf } = await import('../knowledge/html-sections.js');
  return readHtml(html, undefined, (document) =>
    sectionsOf(readBlocks(document), document.title.replace(/\s+/g, ' ').trim()),
  );
}
