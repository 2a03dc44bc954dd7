import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';

/** Test documents made on the fly, with known text (used by the extraction and API tests). */

export const PDF_PAGES = [
  'Page one explains the aurora borealis over Tromso.',
  'Page two covers the fjord ferry timetable in winter.',
  'Page three lists the reindeer sledding prices.',
];

export async function makePdf(pages: string[] = PDF_PAGES): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([400, 300]);
    page.drawText(text, { x: 20, y: 250, size: 10, font });
  }
  return pdf.save();
}

/** A barber's price list: a header and rows of service, duration and price. */
export const PRICE_ROWS = [
  ['Service', 'Duration', 'Price'],
  ['Classic haircut', '30 min', '$25'],
  ['Beard trim', '15 min', '$12'],
  ['Hot towel shave', '45 min', '$35'],
  ['Kids haircut', '20 min', '$18'],
];

/** A price list as a PDF lays a table out: a title, then each cell drawn at its column's place, row by row. */
export async function makeTablePdf(rows: string[][] = PRICE_ROWS, title = 'Price list'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(title, { x: 50, y: 780, size: 16, font });
  rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      page.drawText(cell, { x: 50 + c * 170, y: 740 - r * 22, size: 11, font });
    });
  });
  page.drawText('Walk-ins welcome every day.', { x: 50, y: 720 - rows.length * 22, size: 11, font });
  return pdf.save();
}

/**
 * The PDF with an encryption dictionary whose user password is not empty: what a reader meets in a
 * password-protected PDF (the content itself is left as it is, which a reader never reaches).
 */
export async function lockPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes);
  const { context } = pdf;
  const hex = (byte: string) => PDFHexString.of(byte.repeat(32));
  context.trailerInfo.Encrypt = context.register(
    context.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, P: -44, O: hex('00'), U: hex('11') }),
  );
  context.trailerInfo.ID = context.obj([hex('ab'), hex('ab')]);
  return pdf.save({ useObjectStreams: false });
}

/**
 * The start of an OLE compound file, as Office saves a password-protected DOCX (its directory naming
 * the EncryptedPackage stream) or, without it, an old .doc.
 */
export function encryptedOffice(encrypted = true): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  if (encrypted) bytes.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
  return bytes;
}

export const DOCX_TEXT = ['Quarterly onboarding handbook', 'New hires receive a brass compass on day one.'];

/** A DOCX body part: a paragraph, a heading (Word's Heading n style), or a table of rows. */
export type DocxPart = string | { heading: number; text: string } | { table: string[][] };

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const docxPart = (part: DocxPart) => {
  if (typeof part === 'string') return `<w:p>${run(part)}</w:p>`;
  if ('heading' in part)
    return `<w:p><w:pPr><w:pStyle w:val="Heading${part.heading}"/></w:pPr>${run(part.text)}</w:p>`;
  const rows = part.table.map(
    (cells) => `<w:tr>${cells.map((c) => `<w:tc><w:p>${run(c)}</w:p></w:tc>`).join('')}</w:tr>`,
  );
  return `<w:tbl>${rows.join('')}</w:tbl>`;
};

/** Word's heading styles, so readers (mammoth) know the Heading n paragraphs for what they are. */
const STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  [1, 2, 3]
    .map(
      (n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`,
    )
    .join('') +
  '</w:styles>';

export async function makeDocx(parts: DocxPart[] = DOCX_TEXT): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '</Relationships>',
  );
  zip.file('word/styles.xml', STYLES);
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body>${parts.map(docxPart).join('')}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

/** A handbook whose sections a question can target: headings, a table, paragraphs. */
export const DOCX_HANDBOOK: DocxPart[] = [
  { heading: 1, text: 'Staff handbook' },
  'Welcome to the team.',
  { heading: 2, text: 'Holidays' },
  'Everyone gets twenty-five days of paid leave.',
  {
    table: [
      ['Region', 'Public holidays'],
      ['North', '9'],
      ['South', '11'],
    ],
  },
  { heading: 2, text: 'Expenses' },
  'Claim travel within thirty days.',
];

export const CSV_TEXT = 'product,price,colour\nLantern,19.50,amber\n"Tent, two person",240,green\n';

export const HTML_TEXT = `<!doctype html><html><head><title>Harbour guide</title></head><body>
<nav><a href="/">Home</a> <a href="/menu">Navigation menu link</a></nav>
<header><p>Site banner slogan</p></header>
<main><article><h1>Harbour guide</h1>
<p>The lighthouse keeper opens the tower to visitors every Saturday at nine in the morning, weather permitting.</p>
<p>Boats leave the east pier on the hour and the crossing to the island takes about forty minutes in calm seas.</p>
</article></main>
<footer><p>Copyright footer text 2026</p></footer>
<script>var trackingSecret = 1;</script>
</body></html>`;

/** A page of sections whose headings carry ids (but one), with a table under the first. */
export const HTML_SECTIONS = `<!doctype html><html><head><title>Opening times</title></head><body>
<h1>Opening times</h1><p>The museum opens every day but one.</p>
<h2 id="summer">Summer</h2><p>Open from eight.</p>
<table><tr><th>Day</th><th>Hours</th></tr><tr><td>Saturday</td><td>8-20</td></tr></table>
<h3>Bank holidays</h3><p>Open from ten.</p>
<h2 id="winter">Winter</h2><p>Closed on Mondays.</p>
</body></html>`;

export const enc = (text: string) => new TextEncoder().encode(text);

export async function makeXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Prices').addRows([
    ['item', 'price'],
    ['Kayak', 55],
  ]);
  workbook.addWorksheet('Staff').addRows([['Guide', 'Ingrid']]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Lines of a menu, as a photo or a scan would show them. */
export const MENU_LINES = ['Braised lamb shank with mash 18 pounds', 'Wild mushroom risotto 15 pounds'];
/** A Spanish bakery's price list: its accents are what the English model misreads ("Envio", "sébados"). */
export const CARTA_LINES = [
  'Envío a domicilio: 3 € por pedido.',
  'Los sábados abrimos de 8:00 a 14:00.',
  'Pan de masa madre y bollería del día.',
];

/**
 * A picture of text: the lines drawn in a PDF with a standard font, rendered as OCR renders a
 * scanned page, so no system font is needed. PNG, or JPEG or WebP re-encoded from it.
 */
export async function textImage(lines: string[] = MENU_LINES, format: 'png' | 'jpeg' | 'webp' = 'png') {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([400, 40 + lines.length * 30]);
  lines.forEach((line, i) => {
    page.drawText(line, { x: 20, y: page.getHeight() - 40 - i * 30, size: 14, font });
  });
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { renderPage } = await import('./ocr.js');
  const document = await getDocument({ data: await pdf.save(), verbosity: 0 }).promise;
  const png = await renderPage(document, 1);
  await document.destroy();
  if (format === 'png') return png;
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return format === 'jpeg' ? canvas.encode('jpeg', 90) : canvas.encode('webp', 90);
}

/** A scanned document: each page holds only a picture (no text layer); a string page is real text. */
export async function makeScannedPdf(pages: (Uint8Array | string)[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    const page = pdf.addPage([400, 300]);
    if (typeof content === 'string') {
      page.drawText(content, { x: 20, y: 250, size: 10, font });
      continue;
    }
    const image = await pdf.embedPng(content);
    const { width, height } = image.scale(0.5);
    page.drawImage(image, { x: 0, y: 300 - height, width, height });
  }
  return pdf.save();
}
