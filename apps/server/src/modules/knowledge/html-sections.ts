import type { Section } from './chunker.js';

/**
 * A page's main content as an ordered list of blocks: headings (with the id a link can point at)
 * and the text of each paragraph, list item, definition, table or code block. Block elements are
 * read one by one, so a heading and the paragraph after it never run together ("Connection
 * Settingslisten_addresses"), and every sibling section of the content is kept in order (Readability
 * keeps one "article" and dropped reference pages' later `<div class="sect2">`s).
 */
export type Block = HeadingBlock | { kind: 'text'; text: string; headings?: HeadingBlock[] };
/**
 * A heading. A text block's `headings` are those it sits under, outermost first (see
 * BlockWalker.heading: a heading's section is the element that holds it and its content).
 */
export type HeadingBlock = { kind: 'heading'; level: number; text: string; anchor: string | null };

/** Never content: scripts, forms' controls, media and what the page hides. */
const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'SVG',
  'CANVAS',
  'BUTTON',
  'SELECT',
  'OPTION',
  'INPUT',
  'TEXTAREA',
  'OBJECT',
  'VIDEO',
  'AUDIO',
]);

/** The page's furniture, by element or landmark role. */
const CHROME_SELECTOR = [
  'nav',
  'aside',
  'dialog',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="search"]',
  '[role="complementary"]',
  '[aria-hidden="true"]',
  '[hidden]',
  'a.headerlink',
].join(', ');

/** Class or id words that name furniture: navigation bars, breadcrumbs, cookie banners, tables of contents. */
const CHROME_NAME =
  /(?:^|[\s_-])(?:nav|navbar|navigation|navheader|navfooter|breadcrumbs?|sphinxsidebar|toc|cookies?|consent|gdpr|skip-?link|masthead)(?:$|[\s_-])/i;
/**
 * Words that name furniture made of links (a menu, a site's sidebar, share buttons, related
 * articles) only when links are most of the element's text: DocBook writes its boxed asides
 * ("BACK TO BASICS", "CULTURE") as `div.sidebar`, prose with hardly a link, and an id such as
 * "SQL-FOR-UPDATE-SHARE" names a section of a reference page.
 */
const LINK_CHROME_NAME = /(?:^|[\s_-])(?:menu|sidebar|social|share|related)(?:$|[\s_-])/i;
/** The share of an element's text in links from which LINK_CHROME_NAME makes it furniture. */
const LINK_CHROME_SHARE = 0.5;
/** Words that name furniture only when no heading is inside ("section-header" wraps a heading). */
const WEAK_CHROME_NAME = /(?:^|[\s_-])(?:header|footer|banner)(?:$|[\s_-])/i;

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'BLOCKQUOTE',
  'CAPTION',
  'CENTER',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FORM',
  'HR',
  'LI',
  'MAIN',
  'OL',
  'P',
  'SECTION',
  'SUMMARY',
  'UL',
  'HEADER',
  'FOOTER',
]);

const HEADING = /^H([1-6])$/;

/**
 * `read` run on the HTML parsed by jsdom (no script runs; the page's console is silenced), then the
 * window freed. jsdom is imported on the first call: it is a quarter of the server's start-up import
 * time, and most processes (the API, every test file) never read HTML.
 */
export async function readHtml<T>(
  html: string,
  url: string | undefined,
  read: (document: Document) => T,
): Promise<T> {
  const { JSDOM, VirtualConsole } = await import('jsdom');
  const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
  try {
    return read(dom.window.document);
  } finally {
    dom.window.close();
  }
}

/**
 * The blocks of a document's main content: `main` (or `[role=main]`, or the one `article`) when the
 * page marks it, else the body, after removing navigation, banners, sidebars, footers, cookie notices
 * and hidden elements. Furniture named only by class or id is removed when it holds less than a
 * third of the text, so a wrapper that happens to be called "nav-content" keeps the page; a name
 * for furniture made of links (a sidebar, a menu) needs links to be most of its text.
 */
export function readBlocks(document: Document): Block[] {
  const root = mainRoot(document);
  if (!root) return [];
  for (const element of [...root.querySelectorAll(CHROME_SELECTOR)]) element.remove();
  const total = textLength(root);
  for (const element of [...root.querySelectorAll('[class], [id]')]) {
    if (!element.isConnected || textLength(element) >= total / 3) continue;
    // A heading's own parts are its text, whatever they are called (Sphinx's "toc-backref" links).
    if (element.closest('h1, h2, h3, h4, h5, h6')) continue;
    const name = `${element.getAttribute('class') ?? ''} ${element.id}`;
    const weak = WEAK_CHROME_NAME.test(name) && !element.querySelector('h1, h2, h3, h4, h5, h6');
    const links = LINK_CHROME_NAME.test(name) && linkShare(element) >= LINK_CHROME_SHARE;
    if (CHROME_NAME.test(name) || weak || links) element.remove();
  }
  // Outside a marked main element, the page's header and footer are furniture too.
  if (root.tagName === 'BODY')
    for (const element of [...root.querySelectorAll(':scope > header, :scope > footer')]) element.remove();
  const walker = new BlockWalker();
  walker.visit(root);
  return walker.finish();
}

function mainRoot(document: Document): Element | null {
  const marked = document.querySelector('main, [role="main"]');
  if (marked) return marked;
  const articles = document.querySelectorAll('article');
  if (articles.length === 1) return articles[0]!;
  return document.body;
}

const textLength = (element: Element) => (element.textContent ?? '').replace(/\s+/g, '').length;

/** The share of an element's non-space text that sits inside links (0 when it has no text). */
function linkShare(element: Element): number {
  const total = textLength(element);
  if (total === 0) return 0;
  const linked = [...element.querySelectorAll('a[href]')]
    .filter((a) => !a.parentElement?.closest('a[href]'))
    .reduce((n, a) => n + textLength(a), 0);
  return linked / total;
}

/**
 * A block whose text is nearly all link text is navigation (a table of contents entry, a generated
 * index line, "Next: …"), not content: the share of non-space characters inside links above which
 * it is dropped. Prose that links a few words keeps far below it.
 */
const NAVIGATION_LINK_SHARE = 0.9;

class BlockWalker {
  private readonly blocks: Block[] = [];
  /** The headings open where the walk is, outermost first, each with its section's element. */
  private open: Array<{ heading: HeadingBlock; section: Element }> = [];
  private line: string[] = [];
  /** Non-space characters of the current line, and how many of them are inside links. */
  private chars = 0;
  private linkedChars = 0;
  private linkDepth = 0;
  /** A <dt> was read and its <dd> should continue its line. */
  private termOpen = false;

  visit(node: Node): void {
    if (node.nodeType === 3) {
      const data = (node as Text).data;
      const length = data.replace(/\s+/g, '').length;
      this.chars += length;
      if (this.linkDepth > 0) this.linkedChars += length;
      // A line break in the page's source is a space (only <br> breaks a line), so a sentence the
      // source wraps stays one sentence.
      this.line.push(data.replace(/[ \t\r\n\f]+/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.tagName.toUpperCase();
    if (SKIPPED.has(tag)) return;
    const heading = HEADING.exec(tag);
    if (heading) {
      this.heading(element, Number(heading[1]));
      return;
    }
    if (tag === 'PRE') {
      this.code(element);
      return;
    }
    if (tag === 'TABLE') {
      this.table(element as HTMLTableElement);
      return;
    }
    if (tag === 'BR') {
      this.line.push('\n');
      return;
    }
    if (tag === 'DT') {
      this.term(element);
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    const link = tag === 'A' && element.hasAttribute('href');
    // A definition continues its term's line ("Vinho Verde: $10 glass"), which the term left open.
    if (block && !(tag === 'DD' && this.termOpen)) this.flush();
    this.termOpen = false;
    if (link) this.linkDepth += 1;
    for (const child of element.childNodes) this.visit(child);
    if (link) this.linkDepth -= 1;
    if (block) this.flush();
    // A section's end closes its heading: what follows is under the headings open before it.
    if (this.open.some((o) => o.section === element))
      this.open = this.open.filter((o) => o.section !== element);
  }

  finish(): Block[] {
    this.flush();
    return this.blocks;
  }

  /**
   * A definition list's term starts a line that its definition ends: "Fall term 2026: Monday,
   * September 14 to December 18", one line, as a reader takes them, not a label and a value apart.
   */
  private term(element: Element): void {
    this.flush();
    for (const child of element.childNodes) this.visit(child);
    const text = collapse(this.line.join(''));
    if (!text) return;
    this.line.push(/[?!.:]$/.test(text) ? ' ' : ': ');
    this.termOpen = true;
  }

  private heading(element: Element, level: number): void {
    this.flush();
    const text = collapse(element.textContent ?? '');
    if (!text) return;
    const heading: HeadingBlock = { kind: 'heading', level, text, anchor: anchorOf(element) };
    this.blocks.push(heading);
    // A heading closes those of its level or deeper, except the headings of sections it sits in:
    // DocBook's "Note" is an h3 inside a div.sect2 whose title is an h3 too, and belongs under it.
    const section = sectionOf(element);
    const enclosing = (open: Element) => open !== section && open.contains(section);
    this.open = [
      ...this.open.filter((o) => o.heading.level < level || enclosing(o.section)),
      { heading, section },
    ];
  }

  private text(text: string): void {
    this.blocks.push({ kind: 'text', text, headings: this.open.map((o) => o.heading) });
  }

  /**
   * Code keeps its lines and indentation, fenced as Markdown writes it, so an answer can tell code
   * from prose (an extractive answer quotes no code) and a model or the widget shows it as code.
   */
  private code(element: Element): void {
    this.flush();
    const text = (element.textContent ?? '').replace(/\s+$/, '').replace(/^\n+/, '');
    if (text.trim()) this.text(`\`\`\`\n${text}\n\`\`\``);
  }

  /**
   * A table reads as rows, its cells separated by " | ", each value in its column's place (tableRows),
   * so an answer can say which header a value is under.
   */
  private table(table: HTMLTableElement): void {
    this.flush();
    const caption = collapse(table.caption?.textContent ?? '');
    const rows = [...(caption ? [caption] : []), ...tableRows(table).map((cells) => cells.join(' | '))];
    if (rows.length > 0) this.text(rows.join('\n'));
  }

  private flush(): void {
    const text = this.line.join('').split('\n').map(collapse).filter(Boolean).join('\n');
    const navigation = this.chars > 0 && this.linkedChars / this.chars > NAVIGATION_LINK_SHARE;
    this.line = [];
    this.chars = 0;
    this.linkedChars = 0;
    if (text && !navigation) this.text(text);
  }
}

/**
 * The element a heading opens the section of: its nearest ancestor holding anything besides it, so
 * a DocBook `div.sect2` (the h3 wrapped in `div.titlepage`s), an HTML `section`, a note box, or the
 * page's main element for headings written flat between paragraphs.
 */
function sectionOf(heading: Element): Element {
  let node = heading;
  for (let parent = node.parentElement; parent; node = parent, parent = parent.parentElement) {
    const child = node;
    const other = [...parent.childNodes].some((n) =>
      n === child
        ? false
        : n.nodeType === 3
          ? (n as Text).data.trim() !== ''
          : n.nodeType === 1 && !SKIPPED.has((n as Element).tagName.toUpperCase()) && !!n.textContent?.trim(),
    );
    if (other) return parent;
  }
  return node;
}

/** A cell's text with its line breaks and block children spaced, not glued. */
/** A span past this is a layout trick or a typo (rowspan="9999"): capped, so no table can blow up. */
const MAX_SPAN = 50;
const span = (value: number) => Math.min(Math.max(Math.trunc(value) || 1, 1), MAX_SPAN);

/**
 * A table's rows as cells in their columns' places:
 * - a cell spanning rows fills each row it covers ("Monday" beside three classes);
 * - a header cell spanning columns names each ("Price" over Small and Large); a data cell spanning
 *   columns is said once, in its first;
 * - an empty cell keeps its place ("Coffee |  | $4"), so the values after it stay under their
 *   headers; trailing empty cells and empty rows go;
 * - a row whose first cell is empty continues the group of the row above (a name written once for
 *   the rows under it); the first row's empty corner (a timetable's, above its times) is left out,
 *   and the answer reads such a header as naming the columns after the first (evidence.ts rowText).
 */
export function tableRows(table: HTMLTableElement): string[][] {
  const rows: string[][] = [];
  // The name a row with an empty first cell continues: the last row's below the first (a header
  // names columns, not groups).
  let group: string | null = null;
  for (const slots of tableGrid(table)) {
    const cells = Array.from(slots, (cell) => cell ?? '');
    while (cells.length > 0 && !cells.at(-1)) cells.pop();
    if (cells.length === 0) continue;
    if (cells[0]) {
      if (rows.length > 0) group = cells[0];
    } else if (group !== null) cells[0] = group;
    else cells.shift();
    rows.push(cells);
  }
  return rows;
}

/** Each row's slots, spans spread over the slots they cover (a slot no cell reaches stays a hole). */
function tableGrid(table: HTMLTableElement): string[][] {
  const count = table.rows.length;
  const grid: string[][] = Array.from({ length: count }, () => []);
  for (let r = 0; r < count; r++) {
    let c = 0;
    for (const cell of table.rows[r]!.cells) {
      while (grid[r]![c] !== undefined) c++;
      const text = collapse(cellText(cell));
      const header = cell.tagName === 'TH';
      const [down, across] = [span(cell.rowSpan), span(cell.colSpan)];
      for (let dr = 0; dr < down && r + dr < count; dr++)
        for (let dc = 0; dc < across; dc++) grid[r + dr]![c + dc] = header || dc === 0 ? text : '';
      c += across;
    }
  }
  return grid;
}

function cellText(cell: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) parts.push((node as Text).data);
    else if (node.nodeType === 1 && !SKIPPED.has((node as Element).tagName.toUpperCase())) {
      const block =
        BLOCK_TAGS.has((node as Element).tagName.toUpperCase()) || (node as Element).tagName === 'BR';
      if (block) parts.push(' ');
      for (const child of node.childNodes) walk(child);
      if (block) parts.push(' ');
    }
  };
  walk(cell);
  return parts.join('');
}

const collapse = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim();

/**
 * The id a link to this heading would use: its own, one inside it (`<h2><a id="x">`), the section it
 * opens (`<section id="x"><h2>`, as Sphinx and DocBook write, the heading maybe wrapped), or its
 * permalink's target.
 */
function anchorOf(heading: Element): string | null {
  if (heading.id) return heading.id;
  const inner = heading.querySelector('[id], a[name]');
  if (inner) return inner.id || inner.getAttribute('name');
  // A page's h1 opens the whole content, not a section: a link to the page is enough. Else the
  // nearest element the heading opens, through the wrappers DocBook puts around it
  // (`div.sect2#x > div.titlepage > div > div > h3`).
  if (heading.tagName !== 'H1')
    for (let node = heading; node.parentElement?.firstElementChild === node; node = node.parentElement) {
      if (node.parentElement.id) return node.parentElement.id;
      if (node.parentElement === sectionOf(heading)) break;
    }
  const permalink = heading.querySelector('a[href^="#"]')?.getAttribute('href');
  return permalink && permalink.length > 1 ? permalink.slice(1) : null;
}

/** A page's section: a heading path, the anchor of its nearest heading that has one, its text. */
export type PageSection = Section & { anchor?: string };

/**
 * Groups blocks under their headings: each section's heading path is the page title followed by the
 * headings above it (a first heading repeating the title is not repeated), and its anchor is that of
 * the nearest heading with an id. Text before any heading belongs to the title alone. Blocks that
 * `skip` says are boilerplate (repeated across a site's pages) are left out.
 */
export function sectionsOf(
  blocks: Block[],
  title: string,
  skip: (text: string) => boolean = () => false,
): PageSection[] {
  const sections: PageSection[] = [];
  let stack: HeadingBlock[] = [];
  let parts: string[] = [];
  const close = () => {
    if (parts.length === 0) return;
    const path = [title, ...stack.map((h) => h.text)].filter(
      (text, i, all) => text && (i === 0 || text.toLowerCase() !== all[i - 1]!.toLowerCase()),
    );
    const anchor = [...stack].reverse().find((h) => h.anchor)?.anchor ?? undefined;
    sections.push({ text: parts.join('\n\n'), headingPath: path.join(' > ') || undefined, anchor });
    parts = [];
  };
  for (const block of blocks) {
    if (skip(block.text)) continue;
    if (block.kind === 'heading') {
      close();
      while (stack.length > 0 && stack.at(-1)!.level >= block.level) stack.pop();
      stack.push(block);
      continue;
    }
    // The walk knows which headings a block sits under (a section's scope ends with its element).
    const under = block.headings?.filter((h) => !skip(h.text));
    if (under && (under.length !== stack.length || under.some((h, i) => h !== stack[i]))) {
      close();
      stack = under;
    }
    parts.push(block.text);
  }
  close();
  return sections;
}

/** The key under which a block is counted across a site's pages. */
export const blockKey = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Learns a site's boilerplate from its pages: a block (a line of navigation, a cookie notice, a
 * footer sentence, a "Home" breadcrumb) found on at least half of the pages seen, and on at least
 * MIN_PAGES of them, is the site's furniture rather than a page's content. Measured across the pages
 * of one web source, never guessed from one page. `known` is what earlier crawls of the source
 * learnt: a re-crawl where most pages answer 304 reads too few to learn it again.
 */
export class BoilerplateLearner {
  static readonly MIN_PAGES = 3;
  private pages = 0;
  private readonly counts = new Map<string, number>();
  private readonly known: Set<string>;

  constructor(known: Iterable<string> = []) {
    this.known = new Set(known);
  }

  observe(blocks: Block[]): void {
    this.pages += 1;
    for (const key of new Set(blocks.map((b) => blockKey(b.text))))
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  get pagesSeen(): number {
    return this.pages;
  }

  isBoilerplate = (text: string): boolean => {
    const key = blockKey(text);
    return this.known.has(key) || this.repeated(key);
  };

  /**
   * What to remember for the next crawl: what this one learnt, and, when it read fewer than `enough`
   * pages to judge the site afresh, what was known before too.
   */
  remembered(enough: number): string[] {
    const learnt = [...this.counts.keys()].filter((key) => this.repeated(key));
    return this.pages >= enough ? learnt : [...new Set([...this.known, ...learnt])];
  }

  private repeated(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    return count >= BoilerplateLearner.MIN_PAGES && count >= this.pages / 2;
  }
}
