import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Figure,
  figuresOf,
  type Given,
  type GivenText,
  readGiven,
  unsupportedFigures,
} from '../modules/chat/grounding.js';
import { extractPage } from '../modules/crawler/crawl.js';
import { chunkSections } from '../modules/knowledge/chunker.js';
import { sectionsOf } from '../modules/knowledge/html-sections.js';
import { detectLanguage, type Lexicon, lexiconOf } from '../modules/knowledge/languages.js';
import { markdownSections } from '../modules/knowledge/markdown.js';
import { loadSets, SETS, type Site } from './eval-answer-sites.js';
import { REPO } from './eval-release.js';

/**
 * How well the figure check of a model's answers (modules/chat/grounding.ts) tells a figure its
 * sources give from one they do not, on the small business sites of eval/answers (written before
 * the check, in 14 languages), read as the model is given them: passages chunked as training chunks
 * them, titled with their page's title and heading path. Every sentence of every passage and Q&A
 * answer that states a figure is rewritten, as a model might:
 *
 * - **re-spelled**: each figure in another usual spelling (a decimal comma for a point, "$45.00" for
 *   "$45", "17:00" as "5 pm", "9 am" as "09:00", a phone number grouped otherwise, a link without
 *   its scheme). Checked against its own passage, it must stand: a held-back answer here is a false alarm.
 * - **altered**: one figure changed (a number plus one, a time an hour later, a phone number's last
 *   digit, an address's name). Checked against its passage, it must be caught, unless the new figure
 *   is in the passage anyway, which the check cannot tell from the right one (counted apart).
 * - **moved**: one price, time or count replaced by one of the same kind from another page of the
 *   site (a rye loaf's price given as the delivery fee). Checked against the whole site, it should
 *   be caught; some cannot be, when the other page says it of the same words.
 *
 * And every visitor's question whose right answer states a figure is answered the shortest way a
 * model may ("It's $14."), with only the question saying what of:
 * - **short answer**: with the right figure, against the whole site, it must stand;
 * - **short answer, moved**: with a figure of the same kind from a page that does not answer it, it
 *   should be caught.
 *
 *   npm run eval:grounding
 */
type Tally = {
  sentences: number;
  respelledKept: number;
  altered: number;
  caught: number;
  onPage: number;
  moved: number;
  movedCaught: number;
  asked: number;
  askedKept: number;
  askedMoved: number;
  askedMovedCaught: number;
  daySentences: number;
  dayKept: number;
  dayChanged: number;
  dayCaught: number;
};

const SENTENCE = /[^.!?\n]+(?:[.!?]+(?=\s|$)|$)/gu;
const HAS_FIGURE = /\d|@|https?:\/\//u;

/** A page or Q&A answer of a site, as the model is given it. */
type SiteText = GivenText & { page: string };
/** A figure a site states, and where. */
type Stated = { page: string; figure: Figure; kind: Kind };
type Kind = 'amount' | 'time' | 'count';

/** What failed, the first few of each, to print under the figures. */
type Failures = {
  misses: string[];
  missed: string[];
  wronglyKept: string[];
  shortAlarms: string[];
  dayAlarms: string[];
  dayMissed: string[];
};
const SHOWN = 12;
const note = (list: string[], line: string, most = SHOWN) => {
  if (list.length < most) list.push(line);
};

const emptyTally = (): Tally => ({
  sentences: 0,
  respelledKept: 0,
  altered: 0,
  caught: 0,
  onPage: 0,
  moved: 0,
  movedCaught: 0,
  asked: 0,
  askedKept: 0,
  askedMoved: 0,
  askedMovedCaught: 0,
  daySentences: 0,
  dayKept: 0,
  dayChanged: 0,
  dayCaught: 0,
});

async function main() {
  const rows: string[] = [];
  const failures: Failures = {
    misses: [],
    missed: [],
    wronglyKept: [],
    shortAlarms: [],
    dayAlarms: [],
    dayMissed: [],
  };
  const share = (a: number, b: number) => (b === 0 ? '–' : `${(a / b).toFixed(3)} (${a}/${b})`);
  const row = (name: string, size: number, t: Tally) =>
    `| ${name} | ${size} | ${t.sentences} | ${share(t.respelledKept, t.sentences)} | ${share(t.caught, t.altered)} | ${t.onPage} | ${share(t.movedCaught, t.moved)} | ${share(t.askedKept, t.asked)} | ${share(t.askedMovedCaught, t.askedMoved)} | ${share(t.dayKept, t.daySentences)} | ${share(t.dayCaught, t.dayChanged)} |`;
  for (const set of loadSets(SETS)) {
    const tally = emptyTally();
    for (const site of set.sites) {
      const texts = await siteTexts(site);
      const corpus = checkSentences(site.name, texts, tally, failures);
      checkShortAnswers(site, texts, corpus, tally, failures);
    }
    rows.push(row(set.name, set.sites.length, tally));
  }
  // A second corpus no rule was written against: Fastify's documentation (eval/retrieval/corpus).
  const docs = emptyTally();
  const docsPassages = docsTexts();
  checkSentences('fastify-docs', docsPassages, docs, failures);
  rows.push(row('fastify docs (pages)', new Set(docsPassages.map((t) => t.page)).size, docs));
  const list = (items: string[], title: string, none: string) =>
    items.length > 0 ? [title, ...items.map((item) => `- ${item}`), ''] : [none, ''];
  process.stdout.write(
    [
      '## The figure check on the sites of eval/answers',
      '',
      '| set | sites | sentences with figures | re-spelled, kept | altered, caught | altered to a figure in the passage | moved from another page, caught | short answers, kept | short answers moved, caught | naming a day, kept | a day changed, caught |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      ...list(failures.misses, 'False alarms (the first 12):', 'No false alarms.'),
      ...list(failures.shortAlarms, 'Short answers held back (the first 12):', 'No short answer held back.'),
      ...list(failures.missed, 'Altered and not caught (the first 12):', 'Every altered figure caught.'),
      ...list(
        failures.wronglyKept,
        'Moved and not caught (the first 12 of each):',
        'Every moved figure caught.',
      ),
      ...list(
        failures.dayAlarms,
        'Days held back as written (the first 12):',
        'No day held back as written.',
      ),
      ...list(failures.dayMissed, 'Days changed and not caught (the first 12):', 'Every changed day caught.'),
    ].join('\n'),
  );
}

/** What a corpus states, read once for all its checks. */
type Corpus = { given: Given; stated: Stated[]; lexicon: Lexicon };

/**
 * Every sentence with a figure of a corpus's texts, re-spelled and altered against its own passage,
 * and with a figure moved in from another page against the whole corpus.
 */
function checkSentences(name: string, texts: SiteText[], tally: Tally, failures: Failures): Corpus {
  const lexicon = lexiconOf([detectLanguage(texts.map((t) => t.text).join('\n'))]);
  const given = readGiven({ sources: texts }, lexicon);
  const stated = texts.flatMap(({ page, text }) =>
    figuresOf(text).flatMap((figure) => (kindOf(figure) ? [{ page, figure, kind: kindOf(figure)! }] : [])),
  );
  // The days the corpus names in full, in its own language, to change a sentence's day to.
  const days = texts.flatMap(({ text }) => figuresOf(text).filter((figure) => figure.day));
  for (const text of texts) {
    const own = readGiven({ sources: [text] }, lexicon);
    for (const sentence of (text.text.match(SENTENCE) ?? []).map((s) => s.trim())) {
      checkDays(name, sentence, own, days, tally, failures);
      if (!HAS_FIGURE.test(sentence) || unsupportedFigures(sentence, own).length > 0) continue;
      tally.sentences += 1;
      const respelled = respell(sentence);
      const alarms = unsupportedFigures(respelled, own);
      if (alarms.length === 0) tally.respelledKept += 1;
      else note(failures.misses, `${name}: "${respelled}" → ${alarms.join(', ')}`);
      const moved = move(sentence, stated, (page) => page !== text.page);
      if (moved) {
        tally.moved += 1;
        if (unsupportedFigures(moved, given).length > 0) tally.movedCaught += 1;
        else note(failures.wronglyKept, `${name}/${text.page}: "${moved}"`);
      }
      const changed = alter(sentence);
      if (!changed) continue;
      if (unsupportedFigures(changed.figure, own).length === 0) {
        tally.onPage += 1;
        continue;
      }
      tally.altered += 1;
      if (unsupportedFigures(changed.sentence, own).length > 0) tally.caught += 1;
      else note(failures.missed, `${name}: "${changed.sentence}" (${changed.figure})`);
    }
  }
  return { given, stated, lexicon };
}

/**
 * A sentence naming a day, as written, against its own passage: it must stand. And with its first
 * day changed to another the corpus names but the passage does not give as a day it is open: it
 * should be caught, unless the sentence says it is closed or not so, which is not checked.
 */
function checkDays(
  name: string,
  sentence: string,
  own: Given,
  days: Figure[],
  tally: Tally,
  failures: Failures,
) {
  const named = figuresOf(sentence).find((figure) => figure.day);
  if (!named) return;
  tally.daySentences += 1;
  const alarms = unsupportedFigures(sentence, own);
  if (alarms.length === 0) tally.dayKept += 1;
  else note(failures.dayAlarms, `${name}: "${sentence}" → ${alarms.join(', ')}`);
  const others = days.filter((day) => !day.keys.some((key) => own.keys.has(key)));
  if (others.length === 0 || alarms.length > 0) return;
  const other = others[hashOf(sentence) % others.length]!;
  tally.dayChanged += 1;
  const changed = sentence.replace(named.text, other.text);
  if (unsupportedFigures(changed, own).length > 0) tally.dayCaught += 1;
  else note(failures.dayMissed, `${name}: "${changed}"`);
}

/** A site's visitors' questions answered the shortest way, with the right figure and a moved one. */
function checkShortAnswers(site: Site, texts: SiteText[], corpus: Corpus, tally: Tally, failures: Failures) {
  for (const question of site.questions) {
    const right = rightFigure(question.expect, question.sources, texts);
    if (!right) continue;
    const about = { about: [question.first, question.q].filter(Boolean).join('\n') };
    tally.asked += 1;
    if (unsupportedFigures(`It's ${right}.`, corpus.given, about).length === 0) tally.askedKept += 1;
    else note(failures.shortAlarms, `${site.name}: "${question.q}" → "It's ${right}."`);
    const moved = move(`It's ${right}.`, corpus.stated, (page) => !question.sources.includes(page));
    if (!moved) continue;
    tally.askedMoved += 1;
    if (unsupportedFigures(moved, corpus.given, about).length > 0) tally.askedMovedCaught += 1;
    else note(failures.wronglyKept, `${site.name}: "${question.q}" → "${moved}"`, SHOWN * 2);
  }
}

const DOCS_DIR = path.join(REPO, 'eval/retrieval/corpus');

/** Fastify's documentation as a bot is given it: each Markdown page chunked under its headings. */
function docsTexts(): SiteText[] {
  const files = readdirSync(DOCS_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return files.flatMap((file) => {
    const markdown = readFileSync(path.join(DOCS_DIR, file), 'utf8');
    const title = path.basename(file, '.md').replaceAll('-', ' ');
    return chunkSections(markdownSections(markdown)).map((chunk) => ({
      page: file,
      text: chunk.content,
      title: [title, chunk.headingPath].filter(Boolean).join('\n'),
    }));
  });
}

/**
 * A site's pages as a model is given them: the passages the crawler's text is chunked into, each
 * titled with its page's title and heading path; and its Q&A answers, titled with their questions.
 */
async function siteTexts(site: Site): Promise<SiteText[]> {
  const pages = await Promise.all(
    site.pages.map(async (page) => {
      const html = readFileSync(path.join(site.pagesDir, page), 'utf8');
      const { blocks, title } = await extractPage(html, `https://example.test/${page}`);
      return chunkSections(sectionsOf(blocks, title)).map((chunk) => ({
        page,
        text: chunk.content,
        title: [title, chunk.headingPath].filter(Boolean).join('\n'),
      }));
    }),
  );
  return [
    ...pages.flat(),
    ...site.qna.map((pair) => ({ page: 'qna', text: pair.answer, title: pair.question })),
  ];
}

/** What a figure is, for moving one in place of another of its kind; null for what is not moved. */
function kindOf(figure: Figure): Kind | null {
  if (figure.contact || figure.link || figure.minor) return null;
  if (figure.amount) return 'amount';
  if (figure.keys.some((key) => key.startsWith('t:'))) return 'time';
  return figure.keys.some((key) => key.startsWith('n:')) ? 'count' : null;
}

/**
 * The text with its first price, time or count replaced by another of the same kind, stated on a
 * page `from` accepts and on none it does not (the text's own page, the pages that answer the
 * question: there it may be right), picked by the text so each run picks the same; null when none.
 */
function move(text: string, stated: Stated[], from: (page: string) => boolean): string | null {
  const target = figuresOf(text).find((figure) => kindOf(figure) !== null);
  if (!target) return null;
  const home = new Set(stated.filter((s) => !from(s.page)).flatMap((s) => s.figure.keys));
  const candidates = stated.filter(
    (other) =>
      other.kind === kindOf(target) &&
      from(other.page) &&
      !other.figure.keys.some((key) => home.has(key) || target.keys.includes(key)),
  );
  if (candidates.length === 0) return null;
  const pick = candidates[hashOf(text) % candidates.length]!;
  return text.replace(target.text, pick.figure.text);
}

const hashOf = (text: string) => [...text].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);

/** The figure a right answer to a question states, as its source writes it; null when it states none. */
function rightFigure(expect: string | null, sources: string[], texts: SiteText[]): string | null {
  if (!expect) return null;
  const pattern = new RegExp(expect, 'iu');
  for (const { page, text } of texts) {
    if (!sources.includes(page)) continue;
    const found = pattern.exec(text)?.[0];
    const figure = found && figuresOf(found).find((f) => kindOf(f) !== null);
    if (figure) return figure.text;
  }
  return null;
}

/** Each figure of a sentence in another spelling a model might use. */
export function respell(sentence: string): string {
  return (
    sentence
      // Links: without their scheme.
      .replace(/https?:\/\/(\S+)/g, '$1')
      // Times: "17:00" as "5:00 pm", "9 am" as "09:00".
      .replace(/\b(1[3-9]|2[0-3]):([0-5]\d)\b/g, (_m, h: string, m: string) => `${Number(h) - 12}:${m} pm`)
      .replace(/(?<![:\d])(\d{1,2})(?::(\d{2}))?\s?(am|pm)\b/gi, (_m, h: string, m = '00', half = 'am') => {
        const hours = (Number(h) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
        return `${String(hours).padStart(2, '0')}:${m}`;
      })
      // Phone numbers: the digits grouped in threes.
      .replace(/\+?\(?\d[\d\s().-]{7,}\d/g, (run) => {
        const digits = run.replace(/\D/g, '');
        return digits.length >= 8 ? (digits.match(/\d{1,3}/g) ?? []).join(' ') : run;
      })
      // Amounts: a decimal comma for a point and back, and whole amounts with cents.
      .replace(
        /(\d)([.,])(\d{2})(?!\d)/g,
        (_m, a: string, sep: string, b: string) => `${a}${sep === '.' ? ',' : '.'}${b}`,
      )
      .replace(/([$€£])(\d+)(?![\d.,])/g, '$1$2.00')
  );
}

/** The sentence with one figure changed, and that figure alone; null when it states none to change. */
export function alter(sentence: string): { sentence: string; figure: string } | null {
  const email = /([\p{L}\p{N}._%+-]+)@([\p{L}\p{N}.-]+\.[\p{L}]+)/u.exec(sentence);
  if (email) {
    const figure = `other${email[1]}@${email[2]}`;
    return { sentence: sentence.replace(email[0], figure), figure };
  }
  const time = /\b(\d{1,2}):([0-5]\d)\b/.exec(sentence);
  if (time) {
    const figure = `${(Number(time[1]) + 1) % 24}:${time[2]}`;
    return { sentence: sentence.replace(time[0], figure), figure };
  }
  const number = /(?<![\p{L}\d.,])(\d+)(?:[.,](\d+))?(?!\d|\p{L}+\d)/u.exec(sentence);
  if (!number) return null;
  const whole = Number(number[1]);
  // A small count is not checked (it is as often written out): change it to one that is.
  const next = whole < 9 ? whole + 10 : whole + 1;
  const separator = number[0].charAt(number[1]!.length);
  const figure = number[2] !== undefined ? `${next}${separator}${number[2]}` : String(next);
  const changed = sentence.replace(number[0], figure);
  // The figure as the sentence spells it around the change ("22h00", "9 am"), to look for on the page.
  const at = number.index;
  const before = changed.slice(0, at).match(/\S*$/)![0];
  const after = changed.slice(at + figure.length).match(/^(?:\s?[ap]\.?m\.?(?!\p{L})|\S*)/iu)![0];
  return { sentence: changed, figure: `${before}${figure}${after}`.replace(/[.,;:!?)]+$/, '') };
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
