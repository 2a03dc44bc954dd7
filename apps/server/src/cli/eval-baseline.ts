import MiniSearch from 'minisearch';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOP_WORDS } from 'stopword';
import type { Question } from './eval-corpora.js';
import type { QuestionResult } from './eval-score.js';

/**
 * The reference the answer-quality issue set beside Parley: a plain BM25 (k1 1.2, b 0.75, no
 * BM25+ floor) over the same pages, cleanly extracted (a Sphinx page's main content only, a
 * DocBook page's body without its navigation and tables of contents, parsed by parse5, block
 * elements on their own lines) into chunks of about 800 characters, with English stop words
 * removed and Porter stemming, ranked by a well-kept library (MiniSearch). It is what lexical
 * ranking reaches on a corpus when extraction and chunking are not in the way: scored exactly as
 * Parley's search is (rank of the first chunk from an acceptable page), it tells a corpus's
 * vocabulary gap, which no full-text stage closes, from a loss in Parley's own pipeline.
 */
const CHUNK_CHARS = 800;
const SEARCH_LIMIT = 10;
const STOP = new Set(ENGLISH_STOP_WORDS);

type Chunk = { id: number; page: string; text: string };

/** Each question's rank of the first chunk from one of its pages, among the first ten. */
export function baselineRanks(
  pages: Map<string, string>,
  questions: Question[],
  chunkChars = CHUNK_CHARS,
): QuestionResult[] {
  const chunks = [...pages].flatMap(([page, text]) =>
    chunkText(text, chunkChars).map((t) => ({ page, text: t })),
  );
  const index = new MiniSearch<Chunk>({
    fields: ['text'],
    storeFields: ['page'],
    processTerm,
    searchOptions: { processTerm, bm25: { k: 1.2, b: 0.75, d: 0 } },
  });
  index.addAll(chunks.map((chunk, id) => ({ id, ...chunk })));
  return questions.map((question) => {
    const found = index.search(question.q).slice(0, SEARCH_LIMIT);
    const at = found.findIndex((hit) => question.pages.includes(hit.page as string));
    return {
      ...question,
      rank: at === -1 ? null : at + 1,
      first: (found[0]?.page as string) ?? null,
      cited: [],
    };
  });
}

function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return word.length < 2 || STOP.has(word) ? null : stemmer(word);
}

/** Lines packed into chunks of at most `chunkChars` (a longer line is a chunk of its own). */
export function chunkText(text: string, chunkChars = CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (current && current.length + line.length + 1 > chunkChars) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) chunks.push(current);
  return chunks;
}

const BLOCKS = new Set(
  'p li dt dd pre tr td th h1 h2 h3 h4 h5 h6 div section table blockquote ul ol dl br'.split(' '),
);
const SKIPPED = new Set(['script', 'style']);

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** A Sphinx page's main content (`div[role=main]`, else the whole page) as text, a line per block. */
export function sphinxMainText(html: string): string {
  const document = parse(html);
  const main = find(document, (e) => e.attrs.some((a) => a.name === 'role' && a.value === 'main'));
  return blockText(main ?? document, (e) => hasClass(e, 'headerlink'));
}

/** What DocBook's XSL stylesheets put around a page's content: the navigation bars and tables of contents. */
const DOCBOOK_FURNITURE = ['navheader', 'navfooter', 'toc'];

/**
 * A DocBook page's main content (its body without the navigation header and footer and the tables
 * of contents) as text, a line per block.
 */
export function docbookMainText(html: string): string {
  const document = parse(html);
  const body = find(document, (e) => e.tagName === 'body');
  return blockText(body ?? document, (e) => DOCBOOK_FURNITURE.some((name) => hasClass(e, name)));
}

/** The pages a DocBook page's tables of contents (`div.toc`) link to, without anchors, in order. */
export function tocLinks(html: string): string[] {
  const links: string[] = [];
  const walk = (node: Node, inToc: boolean) => {
    if (!('childNodes' in node)) return;
    const element = 'tagName' in node ? (node as Element) : null;
    const toc = inToc || (element !== null && hasClass(element, 'toc'));
    const href = element?.tagName === 'a' ? element.attrs.find((a) => a.name === 'href')?.value : undefined;
    if (toc && href) {
      const page = href.split('#')[0]!;
      if (page && !links.includes(page)) links.push(page);
    }
    for (const child of node.childNodes) walk(child, toc);
  };
  walk(parse(html), false);
  return links;
}

/** The text under `root`, every block element on its own line, without scripts, styles and what `skip` names. */
function blockText(root: Node, skip: (element: Element) => boolean): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeName === '#text') parts.push((node as DefaultTreeAdapterMap['textNode']).value);
    if (!('childNodes' in node)) return;
    const element = 'tagName' in node ? (node as Element) : null;
    if (element && (SKIPPED.has(element.tagName) || skip(element))) return;
    const block = element !== null && BLOCKS.has(element.tagName);
    if (block) parts.push('\n');
    for (const child of node.childNodes) walk(child);
    if (block) parts.push('\n');
  };
  walk(root);
  return parts.join('').replace(/[ \t]+/g, ' ');
}

/** The first element, depth first, that `test` accepts. */
function find(node: Node, test: (element: Element) => boolean): Element | null {
  if ('tagName' in node && test(node as Element)) return node as Element;
  if (!('childNodes' in node)) return null;
  for (const child of node.childNodes) {
    const found = find(child, test);
    if (found) return found;
  }
  return null;
}

const hasClass = (element: Element, name: string) =>
  element.attrs.some((a) => a.name === 'class' && a.value.split(/\s+/).includes(name));
