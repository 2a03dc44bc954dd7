import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';

// The HTML of store records (product and collection descriptions, pages, articles) as the text
// training reads, shared by every platform's adapter so a product reads alike wherever it comes from.

/** Never text: scripts, styles, embedded media and form controls. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'canvas',
  'button',
  'select',
  'textarea',
]);
/** Elements that start a new paragraph, so "Size</p><p>Colour" never runs together. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'tr',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'br',
]);

type HtmlNode = DefaultTreeAdapterMap['childNode'];

/**
 * A description's or page's HTML as plain text: one paragraph per block element, headings as
 * Markdown (the chunker splits on them), entities decoded. parse5 (the parser jsdom is built on)
 * reads a fragment in microseconds, where a jsdom document took about half a millisecond a product
 * (bench/stores): a sync reads thousands of descriptions on the server's event loop.
 */
export function htmlToText(html: string): string {
  if (!html.trim()) return '';
  const paragraphs: string[] = [];
  let line = '';
  const flush = (prefix = '') => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) paragraphs.push(prefix + text);
    line = '';
  };
  const walk = (nodes: HtmlNode[]) => {
    for (const node of nodes) {
      if (node.nodeName === '#text') line += (node as DefaultTreeAdapterMap['textNode']).value;
      if (!('childNodes' in node) || SKIPPED.has(node.nodeName)) continue;
      const heading = /^h([1-6])$/.exec(node.nodeName);
      const block = heading || BLOCKS.has(node.nodeName);
      if (block) flush();
      walk(node.childNodes);
      if (node.nodeName === 'td' || node.nodeName === 'th') line += ' ';
      if (block) flush(heading ? `${'#'.repeat(Number(heading[1]))} ` : '');
    }
  };
  walk(parseFragment(html).childNodes);
  flush();
  return paragraphs.join('\n\n');
}
