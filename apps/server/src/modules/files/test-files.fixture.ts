import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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

export const DOCX_TEXT = ['Quarterly onboarding handbook', 'New hires receive a brass compass on day one.'];

export async function makeDocx(paragraphs: string[] = DOCX_TEXT): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

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
