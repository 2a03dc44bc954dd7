// A multi-page PDF of real prose for bench/ingest: the retrieval evaluation's Markdown corpus
// (eval/retrieval/corpus, Fastify's documentation) laid out as text with pdf-lib, page after page.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const PAGE = { width: 612, height: 792, margin: 60 };
const FONT_SIZE = 10.5;
const LEADING = 14;

/** The corpus pages' text, Markdown markup dropped, characters the standard fonts cannot draw removed. */
export function corpusParagraphs(corpusDir) {
  const files = readdirSync(corpusDir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const paragraphs = [];
  for (const file of files) {
    const text = readFileSync(path.join(corpusDir, file), 'utf8')
      .replace(/\r\n?/g, '\n')
      .replace(/```[a-z]*\n/g, '\n')
      .replace(/```/g, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/^#+\s*/gm, '')
      .replace(/[*`<>|]/g, '')
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/[\u2013\u2014]/g, '-')
      .replace(/[^\x20-\x7e\n]/g, '');
    for (const paragraph of text.split(/\n\s*\n/)) {
      const clean = paragraph.replace(/\s+/g, ' ').trim();
      if (clean.length >= 40) paragraphs.push(clean);
    }
  }
  return paragraphs;
}

/** Lays the paragraphs out on Letter pages (Helvetica 10.5 pt) until minPages are filled. */
export async function makePdf(paragraphs, minPages) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const width = PAGE.width - 2 * PAGE.margin;
  let page = null;
  let y = 0;
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const line = (text) => {
    if (!page || y < PAGE.margin) newPage();
    if (text) page.drawText(text, { x: PAGE.margin, y, size: FONT_SIZE, font });
    y -= LEADING;
  };
  for (let round = 0; pdf.getPageCount() < minPages; round++) {
    for (const paragraph of paragraphs) {
      if (pdf.getPageCount() >= minPages) break;
      let current = '';
      for (const word of paragraph.split(' ')) {
        const candidate = current ? `${current} ${word}` : word;
        if (current && font.widthOfTextAtSize(candidate, FONT_SIZE) > width) {
          line(current);
          current = word;
        } else current = candidate;
      }
      if (current) line(current);
      line('');
    }
    if (round > 10) break;
  }
  return pdf.save();
}
