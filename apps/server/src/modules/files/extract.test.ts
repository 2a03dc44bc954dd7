import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { CHUNK_TOKENS } from '../knowledge/chunker.js';
import {
  DEFAULT_ZIP_LIMITS,
  detectKind,
  ExtractionError,
  extractSections,
  PDF_LOCKED,
  PDF_NO_TEXT,
  refusalReason,
} from './extract.js';
import {
  CARTA_LINES,
  CSV_TEXT,
  DOCX_HANDBOOK,
  DOCX_TEXT,
  enc,
  encryptedOffice,
  HTML_SECTIONS,
  HTML_TEXT,
  lockPdf,
  MENU_LINES,
  makeDocx,
  makePdf,
  makeScannedPdf,
  makeTablePdf,
  makeXlsx,
  PDF_PAGES,
  PRICE_ROWS,
  textImage,
} from './test-files.fixture.js';

describe('detectKind', () => {
  it('judges binary formats by content, whatever the name', async () => {
    const pdf = await makePdf();
    expect(await detectKind('report.pdf', pdf)).toBe('pdf');
    expect(await detectKind('report.txt', pdf)).toBe('pdf');
    expect(await detectKind('handbook.docx', await makeDocx())).toBe('docx');
  });

  it('accepts text formats by extension only when the bytes are UTF-8 text', async () => {
    expect(await detectKind('notes.md', enc('# Title\nbody'))).toBe('markdown');
    expect(await detectKind('data.csv', enc(CSV_TEXT))).toBe('csv');
    expect(await detectKind('page.html', enc(HTML_TEXT))).toBe('html');
    expect(await detectKind('fake.pdf', enc('just some text'))).toBeNull();
    expect(await detectKind('binary.txt', new Uint8Array([0x66, 0x00, 0xff, 0xfe]))).toBeNull();
    expect(await detectKind('image.png', enc('text'))).toBeNull();
  });

  it('takes PNG, JPEG and WebP pictures by their bytes', async () => {
    expect(await detectKind('menu.png', await textImage())).toBe('png');
    expect(await detectKind('menu photo', await textImage(MENU_LINES, 'jpeg'))).toBe('jpeg');
    expect(await detectKind('menu.webp', await textImage(MENU_LINES, 'webp'))).toBe('webp');
  });
});

// OCR loads Tesseract's WebAssembly build and its English model: a few seconds on a busy machine.
describe('text from pictures (OCR)', { timeout: 60_000 }, () => {
  it('reads the text of a photo or scan, as PNG, JPEG or WebP', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const sections = await extractSections(format, await textImage(MENU_LINES, format));
      expect(sections, format).toEqual([{ text: MENU_LINES.join('\n') }]);
    }
  });

  it('reads the scanned pages of a PDF by OCR and keeps the text layer of the others, page numbers kept', async () => {
    const scan = await makeScannedPdf(['Opening hours are nine to five.', await textImage()]);
    const sections = await extractSections('pdf', scan);
    expect(sections).toEqual([
      { text: 'Opening hours are nine to five.', pageNumber: 1 },
      { text: MENU_LINES.join('\n'), pageNumber: 2 },
    ]);
  });

  it('reads scanned pages only while its time budget lasts, keeping the text layer', async () => {
    const scan = await makeScannedPdf(['Opening hours are nine to five.', await textImage()]);
    expect(await extractSections('pdf', scan, DEFAULT_ZIP_LIMITS, 0)).toEqual([
      { text: 'Opening hours are nine to five.', pageNumber: 1 },
    ]);
  });

  it("reads a scan in another language with that language's model, accents and all", async () => {
    const sections = await extractSections('png', await textImage(CARTA_LINES));
    expect(sections).toEqual([{ text: CARTA_LINES.join('\n') }]);
    // Read in English first, Swedish garbles past telling by its words ("6ppen" for "öppen"): its letters tell it.
    const swedish = [
      'Kanotuthyrning på sjön: 425 kr för en hel dag.',
      'Receptionen är öppen från kl. 9 till 18 varje dag.',
      'Vi har också stugor och tältplatser för familjer.',
    ];
    const [read] = await extractSections('png', await textImage(swedish));
    expect(read!.text).toMatch(/på sjön: 425 kr för en hel dag/);
    expect(read!.text).toMatch(/öppen från kl\. 9 till 18/);
  });

  it('refuses a picture with no text in it', async () => {
    const blank = await textImage([]);
    await expect(extractSections('png', blank)).rejects.toThrow(
      new ExtractionError('No text could be read from this image'),
    );
  });
});

// The first PDF loads pdf.js (seconds on a busy 2-CPU machine beside the other test files).
describe('extractSections', { timeout: 30_000 }, () => {
  it('reads a PDF page by page, keeping page numbers', async () => {
    const sections = await extractSections('pdf', await makePdf());
    expect(sections.map((s) => s.pageNumber)).toEqual([1, 2, 3]);
    expect(sections.map((s) => s.text)).toEqual(PDF_PAGES);
  });

  it("reads a price list's table row by row, cells apart, and a menu's dotted leaders", async () => {
    const [page] = await extractSections('pdf', await makeTablePdf(PRICE_ROWS, 'Fade Street Barbers'));
    expect(page!.text.split('\n')).toEqual([
      'Fade Street Barbers',
      ...PRICE_ROWS.map((row) => row.join(' | ')),
      'Walk-ins welcome every day.',
    ]);
    const [menu] = await extractSections('pdf', await makePdf(['Steak and ale pie ............ 13.00']));
    expect(menu!.text).toBe('Steak and ale pie | 13.00');
  });

  it('says a PDF is password-protected, or damaged, rather than that it has no text', async () => {
    await expect(extractSections('pdf', await lockPdf(await makePdf()))).rejects.toThrow(PDF_LOCKED);
    await expect(extractSections('pdf', enc('%PDF-1.4 broken'))).rejects.toThrow(/damaged/);
    await expect(extractSections('pdf', await makePdf(['', ' ']))).rejects.toThrow(PDF_NO_TEXT);
  });

  it('explains a refused Office file the owner can fix: a password, an old format', () => {
    expect(refusalReason('prices.docx', encryptedOffice())).toBe(
      'prices.docx is password-protected: save a copy without the password and upload that',
    );
    expect(refusalReason('menu.doc', encryptedOffice(false))).toBe(
      'menu.doc is in an old Office format: save it as .docx and upload that',
    );
    expect(refusalReason('notes.bin', enc('hello'))).toBeNull();
  });

  it('reads a DOCX', async () => {
    const [section] = await extractSections('docx', await makeDocx());
    for (const p of DOCX_TEXT) expect(section!.text).toContain(p);
  });

  it('reads a DOCX section by section under its headings, tables as rows, no words glued', async () => {
    const sections = await extractSections('docx', await makeDocx(DOCX_HANDBOOK));
    expect(sections.map((s) => s.headingPath)).toEqual([
      'Staff handbook',
      'Staff handbook > Holidays',
      'Staff handbook > Expenses',
    ]);
    const holidays = sections[1]!.text;
    expect(holidays).toContain('Everyone gets twenty-five days of paid leave.');
    expect(holidays).toContain('Region | Public holidays\nNorth | 9\nSouth | 11');
    expect(holidays).not.toMatch(/leave\.Region|RegionPublic/);
    expect(sections[2]!.text).toBe('Claim travel within thirty days.');
  });

  it('reads an XLSX sheet by sheet', async () => {
    const xlsx = await makeXlsx();
    expect(await detectKind('book.xlsx', xlsx)).toBe('xlsx');
    const sections = await extractSections('xlsx', xlsx);
    expect(sections).toEqual([
      { text: 'item | price\nKayak | 55', headingPath: 'Prices' },
      { text: 'Guide | Ingrid', headingPath: 'Staff' },
    ]);
  });

  it('writes CSV rows as table rows under their header', async () => {
    const [section] = await extractSections('csv', enc(CSV_TEXT));
    expect(section!.text.split('\n')).toEqual([
      'product | price | colour',
      'Lantern | 19.50 | amber',
      'Tent, two person | 240 | green',
    ]);
  });

  it("reads a spreadsheet's title, grouped rows and empty cells in their columns", async () => {
    const csv = 'Price list 2026,,\n,,\nService,Length,Price\nCut,Short,£35\n,Long,£45\nFringe | trim,,£8\n';
    await expect(extractSections('csv', enc(csv))).resolves.toEqual([
      {
        text: [
          'Price list 2026',
          'Service | Length | Price',
          'Cut | Short | £35',
          // A row without its first cell belongs to the group above it.
          'Cut | Long | £45',
          'Fringe / trim |  | £8',
        ].join('\n'),
      },
    ]);
  });

  it('cuts a long price list into sections that each open with its header', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `Item number ${i},Blue,£${i}.99`);
    const sections = await extractSections('csv', enc(`Product,Colour,Price\n${rows.join('\n')}`));
    expect(sections.length).toBeGreaterThan(3);
    for (const section of sections) {
      expect(section.text.startsWith('Product | Colour | Price\n')).toBe(true);
      expect(countTokens(section.text)).toBeLessThan(CHUNK_TOKENS);
    }
    const body = sections.flatMap((s) => s.text.split('\n').slice(1));
    expect(body).toEqual(rows.map((row) => row.replaceAll(',', ' | ')));
  });

  it('reads a CSV of questions and answers as an FAQ, one entry per section', async () => {
    const faq =
      'Question,Answer\nAre dogs allowed?,Dogs are welcome on the terrace.\nDo you take cards?,All cards.\n';
    expect(await extractSections('csv', enc(faq))).toEqual([
      { text: 'Are dogs allowed?\n\nDogs are welcome on the terrace.' },
      { text: 'Do you take cards?\n\nAll cards.' },
    ]);
  });

  it('writes rows too long to quote whole as paragraphs of header and value', async () => {
    const long = 'A hand-thrown stoneware mug. '.repeat(12).trim();
    const [section] = await extractSections(
      'csv',
      enc(`name,description,price\nMug,${long},£18\nBowl,Small,£9\n`),
    );
    expect(section!.text).toBe(
      `name: Mug; description: ${long}; price: £18\n\nname: Bowl; description: Small; price: £9`,
    );
  });

  it('keeps the main content of HTML, dropping navigation, footer and scripts', async () => {
    const [section] = await extractSections('html', enc(HTML_TEXT));
    expect(section!.headingPath).toBe('Harbour guide');
    expect(section!.text).toContain('lighthouse keeper opens the tower');
    expect(section!.text).toContain('east pier');
    for (const dropped of ['Navigation menu link', 'Copyright footer', 'trackingSecret']) {
      expect(section!.text).not.toContain(dropped);
    }
  });

  it('reads HTML section by section, each anchored at its heading id', async () => {
    const sections = await extractSections('html', enc(HTML_SECTIONS));
    expect(sections.map((s) => [s.headingPath, s.anchor])).toEqual([
      ['Opening times', undefined],
      ['Opening times > Summer', 'summer'],
      // A heading without an id is reached through the nearest one above it that has an id.
      ['Opening times > Summer > Bank holidays', 'summer'],
      ['Opening times > Winter', 'winter'],
    ]);
    expect(sections[1]!.text).toBe('Open from eight.\n\nDay | Hours\nSaturday | 8-20');
    expect(sections[3]!.text).toBe('Closed on Mondays.');
  });

  it('splits Markdown at headings with their path', async () => {
    const sections = await extractSections(
      'markdown',
      enc('# Guide\nintro\n## Install\nrun it\n```\n# not a heading\n```\n'),
    );
    expect(sections.map((s) => s.headingPath)).toEqual(['Guide', 'Guide > Install']);
    expect(sections[1]!.text).toContain('# not a heading');
  });

  it('refuses a file with no text', async () => {
    await expect(extractSections('txt', enc('   \n  '))).rejects.toBeInstanceOf(ExtractionError);
    await expect(extractSections('pdf', enc('%PDF-1.4 broken'))).rejects.toBeInstanceOf(ExtractionError);
  });
});
