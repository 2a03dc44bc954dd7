import type { Section } from './chunker.js';

/**
 * A page's main content as an ordered list of blocks: headings (with the id a link can point at)
 * and the text of each paragraph, list item, definition, table or code block. Block elements are
 * read one by one, so a heading and the paragraph after it never run together ("Connection
 * Settingslisten_addresses"), and every sibling section of the content is kept in order (Readability
 * keeps one "article" and dropped reference pages' later `<div class="sect2">`s).
 */
export type Block =
  | { kind: 'heading'; level: number; text: string; anchor: string | null }
  | { kind: 'text'; text: string };

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

/** Class or id words that name furniture: navigation bars, breadcrumbs, menus, cookie banners, sidebars. */
const CHROME_NAME =
  /(?:^|[\s_-])(?:nav|navbar|navigation|navheader|navfooter|breadcrumbs?|menu|sidebar|sphinxsidebar|toc|cookies?|consent|gdpr|skip-?link|masthead|social|share)(?:$|[\s_-])/i;
/** Words that name furniture only when no heading is inside ("section-header" wraps a heading). */
const WEAK_CHROME_NAME = /(?:^|[\s_-])(?:header|footer|banner|related)(?:$|[\s_-])/i;

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
 * The blocks of a document's main content: `main` (or `[role=main]`, or the one `article`) when the
 * page marks it, else the body, after removing navigation, banners, sidebars, footers, cookie notices
 * and hidden elements. Furniture named only by class or id is removed when it holds less than a
 * third of the text, so a wrapper that happens to be called "nav-content" keeps the page.
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
    if (CHROME_NAME.test(name) || weak) element.remove();
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

/**
 * A block whose text is nearly all link text is navigation (a table of contents entry, a generated
 * index line, "Next: …"), not content: the share of non-space characters inside links above which
 * it is dropped. Prose that links a few words keeps far below it.
 */
const NAVIGATION_LINK_SHARE = 0.9;

class BlockWalker {
  private readonly blocks: Block[] = [];
  private line: string[] = [];
  /** Non-space characters of the current line, and how many of them are inside links. */
  private chars = 0;
  private linkedChars = 0;
  private linkDepth = 0;

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
    const block = BLOCK_TAGS.has(tag);
    const link = tag === 'A' && element.hasAttribute('href');
    if (block) this.flush();
    if (link) this.linkDepth += 1;
    for (const child of element.childNodes) this.visit(child);
    if (link) this.linkDepth -= 1;
    if (block) this.flush();
  }

  finish(): Block[] {
    this.flush();
    return this.blocks;
  }

  private heading(element: Element, level: number): void {
    this.flush();
    const text = collapse(element.textContent ?? '');
    if (text) this.blocks.push({ kind: 'heading', level, text, anchor: anchorOf(element) });
  }

  /**
   * Code keeps its lines and indentation, fenced as Markdown writes it, so an answer can tell code
   * from prose (an extractive answer quotes no code) and a model or the widget shows it as code.
   */
  private code(element: Element): void {
    this.flush();
    const text = (element.textContent ?? '').replace(/\s+$/, '').replace(/^\n+/, '');
    if (text.trim()) this.blocks.push({ kind: 'text', text: `\`\`\`\n${text}\n\`\`\`` });
  }

  /** A table reads as rows, its cells separated by " | ". */
  private table(table: HTMLTableElement): void {
    this.flush();
    const rows: string[] = [];
    const caption = collapse(table.caption?.textContent ?? '');
    if (caption) rows.push(caption);
    for (const row of table.rows) {
      const cells = [...row.cells].map((cell) => collapse(cellText(cell))).filter(Boolean);
      if (cells.length > 0) rows.push(cells.join(' | '));
    }
    if (rows.length > 0) this.blocks.push({ kind: 'text', text: rows.join('\n') });
  }

  private flush(): void {
    const text = this.line.join('').split('\n').map(collapse).filter(Boolean).join('\n');
    const navigation = this.chars > 0 && this.linkedChars / this.chars > NAVIGATION_LINK_SHARE;
    this.line = [];
    this.chars = 0;
    this.linkedChars = 0;
    if (text && !navigation) this.blocks.push({ kind: 'text', text });
  }
}

/** A cell's text with its line breaks and block children spaced, not glued. */
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
 * opens (`<section id="x"><h2>`, as Sphinx and DocBook write), or its permalink's target.
 */
function anchorOf(heading: Element): string | null {
  if (heading.id) return heading.id;
  const inner = heading.querySelector('[id], a[name]');
  if (inner) return inner.id || inner.getAttribute('name');
  // A page's h1 opens the whole content, not a section: a link to the page is enough.
  const parent = heading.parentElement;
  if (heading.tagName !== 'H1' && parent?.id && parent.firstElementChild === heading) return parent.id;
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
  const stack: Extract<Block, { kind: 'heading' }>[] = [];
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
    } else parts.push(block.text);
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
