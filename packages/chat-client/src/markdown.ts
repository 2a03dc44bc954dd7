import createDOMPurify, { type DOMPurify, type WindowLike } from 'dompurify';
import { Marked } from 'marked';
import { safeLink } from './safe-url.js';

export type MarkdownOptions = {
  /** Hosts (`host[:port]`) images may load from; an image from anywhere else shows its alt text. */
  imageHosts: readonly string[];
  /** Where relative image addresses point (the API's origin); without it they are dropped. */
  baseUrl?: string;
  /** The window whose document parses the HTML (tests may pass jsdom's); default: the global one. */
  window?: MarkdownWindow;
};

/** What Markdown may become; anything else (script, style, iframe, form, svg...) is removed. */
const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'start', 'align'];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** GitHub-flavoured Markdown where raw HTML in the text stays text: `<b>` shows as `<b>`. */
const parser = new Marked({
  gfm: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

type MarkdownWindow = WindowLike & { document: Document };

const purifiers = new WeakMap<MarkdownWindow, DOMPurify>();
function purifierFor(win: MarkdownWindow): DOMPurify {
  let purify = purifiers.get(win);
  if (!purify) {
    purify = createDOMPurify(win);
    purifiers.set(win, purify);
  }
  return purify;
}

/** The absolute http(s) address of an image when its host is allowed, else ''. */
function allowedImage(src: string, options: MarkdownOptions): string {
  try {
    const url = options.baseUrl ? new URL(src, options.baseUrl) : new URL(src);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
    return options.imageHosts.includes(url.host.toLowerCase()) ? url.href : '';
  } catch {
    return '';
  }
}

/**
 * A bot's answer (text a model wrote, or a customer's documents quoted) as safe HTML: Markdown with
 * raw HTML escaped, then sanitised to a short list of tags and attributes. Links keep only http(s),
 * mailto and tel addresses and open in a new tab with rel="noopener noreferrer nofollow"; images load
 * only from `imageHosts`, others are replaced by their alt text.
 */
export function renderMarkdown(text: string, options: MarkdownOptions): string {
  const win: MarkdownWindow = options.window ?? window;
  const html = parser.parse(text, { async: false });
  const fragment = purifierFor(win).sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  for (const link of Array.from(fragment.querySelectorAll('a'))) {
    const href = safeLink(link.getAttribute('href') ?? '');
    if (!href) {
      link.replaceWith(...Array.from(link.childNodes));
      continue;
    }
    link.setAttribute('href', href);
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  for (const image of Array.from(fragment.querySelectorAll('img'))) {
    const src = allowedImage(image.getAttribute('src') ?? '', options);
    if (src) image.setAttribute('src', src);
    else image.replaceWith(win.document.createTextNode(image.getAttribute('alt') ?? ''));
  }
  const holder = win.document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}
