import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import pLimit from 'p-limit';
import robotsParserModule from 'robots-parser';
import { PermanentJobError } from '../../core/jobs/queue.js';
import { decodeHtml } from '../../core/text-encoding.js';
import {
  type Block,
  BoilerplateLearner,
  type PageSection,
  readBlocks,
  readHtml,
  sectionsOf,
} from '../knowledge/html-sections.js';
import { compilePattern } from './patterns.js';
import {
  BlockedUrlError,
  type SafeFetchOptions,
  type SafeResponse,
  safeFetch,
  type Validators,
} from './safe-fetch.js';

export type CrawlOptions = {
  startUrl: string;
  maxPages: number;
  maxDepth: number;
  includePatterns?: string[];
  excludePatterns?: string[];
  useSitemap: boolean;
  concurrency: number;
  fetch: Omit<SafeFetchOptions, 'accept'>;
  /** Longest Crawl-delay obeyed, in seconds (a larger one is clamped to this). */
  maxCrawlDelaySeconds?: number;
  /** The page stored at a URL by an earlier crawl: a re-crawl asks for it conditionally. */
  known?: (url: string) => KnownPage | undefined;
  /** The site's furniture as earlier crawls learnt it (block keys, html-sections.ts). */
  boilerplate?: string[];
  /**
   * Set to read the documents (PDF, Word, Excel) the site links to on its own host (a menu, a price
   * list), each up to `maxBytes`; they count as pages. Unset: they are left alone, as other files are.
   */
  documents?: { maxBytes: number };
};

/**
 * What a crawl did: pages stored, the site's furniture to remember for the next one, pages it could
 * not read, and what the owner should know about the site as a whole (CrawlNotices).
 */
export type CrawlResult = {
  stored: number;
  boilerplate: string[];
  skipped: SkippedPage[];
  notices: string[];
};

/** A page the crawl found but could not store, and why, in words the owner can act on. */
export type SkippedPage = { url: string; reason: string };
/** The most skipped pages a crawl reports (a broken site could otherwise report hundreds). */
export const MAX_SKIPPED = 100;
const NO_TEXT = 'it has no text to read';
/** Said when the page limit stopped a crawl with pages left to read: the owner would think the bot has all. */
export const limitNotice = (maxPages: number) =>
  `Stopped at ${maxPages} ${maxPages === 1 ? 'page' : 'pages'}: the site has more. Raise the limit or crawl the sections you need.`;
/** Said when the crawl found next to no pages from a start page whose menu its scripts build. */
export const scriptedMenuNotice = (stored: number) =>
  `Only ${stored} ${stored === 1 ? 'page was' : 'pages were'} found: the site's menu is built by JavaScript in the browser, which the crawler does not run, and no sitemap lists its pages. ` +
  'Add a sitemap.xml to the site, start a crawl at each page you need, or upload those pages as files.';
/** A start page with fewer links than this to follow, whose menu is scripted, hides the rest of its site. */
const FEW_LINKS = 3;
const NO_TEXT_SCRIPTED =
  'it has no text to read: its content is built by JavaScript in the browser, which the crawler does not run';

const STATUS_WORDS: Record<number, string> = {
  401: 'it needs a login',
  403: 'access is forbidden',
  404: 'not found',
  410: 'gone',
  429: 'too many requests',
  500: 'a server error',
  502: 'a bad gateway',
  503: 'unavailable',
  504: 'a gateway timeout',
};
const answered = (status: number) =>
  `the site answered HTTP ${status}${STATUS_WORDS[status] ? ` (${STATUS_WORDS[status]})` : ''}`;

/** Why a fetch failed, without the URL the owner already sees next to it. */
function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const tooLarge = / is larger than (\d+) bytes/.exec(message);
  if (tooLarge) return `it is larger than the ${formatBytes(Number(tooLarge[1]))} a page may have`;
  const slow = / did not answer within (\d+) ms/.exec(message);
  if (slow) return `the site did not answer within ${Math.round(Number(slow[1]) / 1000)} seconds`;
  return message;
}
const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;

/** What an earlier crawl kept of a page: its validators, its fingerprint and its links. */
export type KnownPage = Validators & { contentHash: string; links: string[] };

/** A page as stored: its main content in sections under their headings, the site's boilerplate left out. */
export type CrawledContent = {
  url: string;
  title: string;
  text: string;
  sections: PageSection[];
  contentHash: string;
  /** The site's validators for this copy, and its links on the same host (a later 304 goes on through them). */
  etag: string | null;
  lastModified: string | null;
  links: string[];
};

/** A document the site links to, as fetched: its bytes are read by the caller (in the extraction pool). */
export type CrawledDocument = {
  url: string;
  /** What its address says it is; the caller checks the bytes agree. */
  kind: DocumentKind;
  /** Its file name, made readable ("Dinner Menu (PDF)"): a document's own title is seldom set. */
  title: string;
  bytes: Buffer;
  /** Of the bytes: the same file at another address is read once, and an unchanged one not again. */
  contentHash: string;
  etag: string | null;
  lastModified: string | null;
};

export type CrawlHooks = {
  /** Stores a page; called one page at a time, in the order pages are accepted. */
  onPage(page: CrawledContent): Promise<void>;
  /**
   * Reads and stores a document (CrawlOptions.documents), in the same order as pages; false when it
   * holds no text to store (blank pages, a locked file), so it does not count as crawled.
   */
  onDocument?(document: CrawledDocument): Promise<boolean>;
  /**
   * Keeps a known page as it is: it answered 304 (`notModified`), or could not be read this time
   * (timeout, 5xx, 429), which is no proof it is gone.
   */
  onKept(url: string, notModified: boolean): Promise<void>;
  onProgress(stored: number, total: number): Promise<void>;
};

type Robot = {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
};
/** robots-parser is CommonJS (`module.exports = function`); its types describe an ES default export. */
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robot;

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
/** Pages seen before the first is stored: enough to tell a site's repeated furniture from content. */
const BOILERPLATE_SAMPLE = 10;
const isHtml = (contentType: string) => HTML_TYPES.some((t) => contentType.startsWith(t));
const isXml = (contentType: string) => contentType.includes('xml') || contentType.startsWith('text/plain');
const isText = (contentType: string) => contentType.startsWith('text/') || contentType === '';
/** Answers that say "not now" rather than "not here": a known page that gets one is kept. */
const isTransient = (status: number) => status >= 500 || status === 429 || status === 408;
/** Documents a site links to that a crawl reads (CrawlOptions.documents), by extension, and how a title names them. */
const DOCUMENT_KINDS = { pdf: 'PDF', docx: 'Word', xlsx: 'Excel' } as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;
const DOCUMENT_PATH = /\.(pdf|docx|xlsx)$/i;
const documentKindOf = (url: string) =>
  DOCUMENT_PATH.exec(new URL(url).pathname)?.[1]?.toLowerCase() as DocumentKind | undefined;
/** What servers call them: their own types, or (often, for Office files) a plain byte stream or zip. */
const isDocumentType = (contentType: string) =>
  /^application\/(pdf|vnd\.openxmlformats-officedocument\.|octet-stream|zip|x-zip)/.test(contentType);
/** Every PDF opens with `%PDF-`, every DOCX and XLSX (zip archives) with `PK\x03\x04`. */
const SIGNATURES: Record<DocumentKind, string> = { pdf: '%PDF-', docx: 'PK\x03\x04', xlsx: 'PK\x03\x04' };
const NON_HTML_EXTENSION =
  /\.(pdf|jpe?g|png|gif|webp|svg|ico|css|js|mjs|json|xml|zip|gz|tgz|rar|7z|mp[34]|avi|mov|webm|woff2?|ttf|eot|docx?|xlsx?|pptx?|csv|txt)$/i;

/**
 * Query parameters that name a visit, not a page: campaign tags (utm_*, fbclid, gclid…) and the
 * session ids older PHP and Java sites put in every link. A page reached with them is the page
 * without them; kept, they made one page several (fetched again each time) and a bot cite a session.
 */
const VISIT_PARAMETER =
  /^(utm_\w+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|yclid|twclid|igshid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|phpsessid|jsessionid|aspsessionid\w*|sessionid)$/i;

/**
 * A link as the crawler fetches and stores it: no fragment, no visit parameters (VISIT_PARAMETER)
 * nor `;jsessionid=` path parameter, host lower-cased, default port dropped; its path as the site
 * wrote it (a site that serves only `/catering/` answers 404 for `/catering`). Null when not http(s).
 */
export function cleanUrl(raw: string | URL, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.pathname = url.pathname.replace(/;jsessionid=[^/]*$/i, '');
  // Deleting re-writes the whole query, so only a query that has one is touched.
  const visit = [...url.searchParams.keys()].filter((name) => VISIT_PARAMETER.test(name));
  for (const name of visit) url.searchParams.delete(name);
  if (url.search === '?') url.search = '';
  return url.href;
}

/**
 * A URL in its one comparable form (a page's identity within a crawl): cleanUrl, query parameters
 * sorted, and no trailing slash except on the root path.
 */
export function normalizeUrl(raw: string | URL, base?: string | URL): string | null {
  const cleaned = cleanUrl(raw, base);
  if (!cleaned) return null;
  const url = new URL(cleaned);
  url.searchParams.sort();
  if (url.search === '?') url.search = '';
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url.href;
}

/** What patterns see: the path and query of the URL (`/blog/post?id=1`). */
const patternTarget = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

export const contentHash = (title: string, text: string) =>
  createHash('sha256').update(title).update('\0').update(text).digest('hex');

/** "Dinner Menu (PDF)" for `/files/Dinner_Menu.pdf`: the file's name, as a person would write it. */
export function documentTitle(url: string): string {
  const kind = documentKindOf(url) ?? 'pdf';
  const file = new URL(url).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(file);
  } catch {
    name = file;
  }
  const words = name
    .replace(DOCUMENT_PATH, '')
    .replace(/[-_+.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const readable = words ? words[0]!.toUpperCase() + words.slice(1) : 'Document';
  return `${readable} (${DOCUMENT_KINDS[kind]})`;
}

type Extracted = {
  title: string;
  blocks: Block[];
  text: string;
  canonical: string | null;
  links: string[];
  /** Whether the page runs scripts: a page with scripts and no text is built by them in the browser. */
  scripted: boolean;
  /**
   * Whether its menu is left to its scripts: a <nav> or <header> without a link, or places a click
   * navigates from that are no links (onclick, data-href, routerLink, <a> without href).
   */
  scriptedMenu: boolean;
};

/** The markers of a menu built or driven by scripts (Extracted.scriptedMenu). */
const SCRIPT_NAVIGATION = '[onclick*="location" i], [data-href], [data-url], [routerlink], nav a:not([href])';
const scriptedMenuOf = (document: Document) =>
  document.querySelector('script') !== null &&
  ([...document.querySelectorAll('nav, header, [role="navigation"]')].some(
    (menu) => !menu.querySelector('a[href]'),
  ) ||
    document.querySelector(SCRIPT_NAVIGATION) !== null);

/** Title, main content as blocks (html-sections.ts: every section, furniture removed), canonical URL and links. */
export function extractPage(html: string, url: string): Promise<Extracted> {
  return readHtml(html, url, (document) => {
    // Relative addresses resolve against the page's <base href> when it has one, as a browser's do.
    const base = document.baseURI;
    const canonicalHref = document.querySelector('link[rel~="canonical" i]')?.getAttribute('href');
    const canonical = canonicalHref ? cleanUrl(canonicalHref, base) : null;
    const links: string[] = [];
    for (const anchor of document.querySelectorAll('a[href]')) {
      if ((anchor.getAttribute('rel') ?? '').split(/\s+/).includes('nofollow')) continue;
      const href = cleanUrl(anchor.getAttribute('href') ?? '', base);
      if (href) links.push(href);
    }
    // An old host's home page that sends the browser on (`<meta http-equiv="refresh" content="0; url=/home">`).
    const refresh = document.querySelector('meta[http-equiv="refresh" i]')?.getAttribute('content');
    const onward = refresh ? /url\s*=\s*['"]?([^'"\s]+)/i.exec(refresh)?.[1] : undefined;
    const refreshed = onward ? cleanUrl(onward, base) : null;
    if (refreshed) links.push(refreshed);
    const h1 = document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
    const scripted = document.querySelector('script') !== null;
    const blocks = readBlocks(document);
    const text = blocks.map((block) => block.text).join('\n\n');
    const title = document.title.replace(/\s+/g, ' ').trim() || h1 || url;
    return { title, blocks, text, canonical, links, scripted, scriptedMenu: scriptedMenuOf(document) };
  });
}

/** A sitemap as the protocol allows it: XML, or XML gzipped into a `.xml.gz` file. */
const isSitemapFile = (contentType: string) =>
  isXml(contentType) || /^application\/(x-)?gzip|^application\/octet-stream/.test(contentType);

/** The sitemap's XML: a gzipped file (its magic bytes 1F 8B) unpacked, within the page byte limit. */
function unpackedSitemap(body: Buffer, maxBytes: number): Buffer {
  return body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body, { maxOutputLength: maxBytes }) : body;
}

/** Page URLs listed by a sitemap or, recursively, a sitemap index (at most 20 sitemaps read). */
async function readSitemaps(
  first: string[],
  get: (url: string, accept: (type: string) => boolean) => Promise<SafeResponse | null>,
  maxBytes: number,
): Promise<string[]> {
  const parser = new XMLParser({
    ignoreAttributes: true,
    isArray: (name) => name === 'url' || name === 'sitemap',
  });
  const queue = [...first];
  const seen = new Set<string>();
  const pages: string[] = [];
  while (queue.length > 0 && seen.size < 20) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const response = await get(next, isSitemapFile);
    if (!response?.body) continue;
    let parsed: {
      urlset?: { url?: { loc?: unknown }[] };
      sitemapindex?: { sitemap?: { loc?: unknown }[] };
    };
    try {
      parsed = parser.parse(unpackedSitemap(response.body, maxBytes).toString('utf8'));
    } catch {
      continue; // not XML, or a .gz that does not unpack within the limit
    }
    for (const entry of parsed.urlset?.url ?? [])
      if (typeof entry.loc === 'string') pages.push(entry.loc.trim());
    for (const entry of parsed.sitemapindex?.sitemap ?? [])
      if (typeof entry.loc === 'string') queue.push(entry.loc.trim());
  }
  return pages;
}

/** How many distinct pages other than `self` the links lead to (a fragment or tag is the same page). */
const onwardLinks = (links: string[], self: string) => {
  const host = new URL(self).host;
  const others = links.filter((link) => new URL(link).host === host).map((link) => normalizeUrl(link));
  return new Set(others.filter((key) => key !== normalizeUrl(self))).size;
};

/** A host without its `www.`: example.com and www.example.com are one site. */
const bareHost = (host: string) => host.replace(/^www\./, '');

/**
 * Crawls one site breadth-first from `startUrl`: robots.txt (rules and Crawl-delay for our user
 * agent), the sitemap, links on the same host up to `maxDepth`, at most `maxPages` stored pages,
 * each page once by canonical URL and by content. Pages `known` from an earlier crawl are asked for
 * conditionally and may be kept as they are (`onKept`). Answers how many pages were stored or kept, and
 * the site's furniture to remember for its next crawl.
 */
export async function crawlSite(options: CrawlOptions, hooks: CrawlHooks): Promise<CrawlResult> {
  const given = cleanUrl(options.startUrl);
  if (!given) throw new BlockedUrlError(`Refused to fetch ${options.startUrl}: not a valid URL`);
  const start = given;
  // Where the crawl is: the host typed, or its www-variant where the site redirects (followHost).
  let origin = new URL(start).origin;
  let host = new URL(start).host;
  // A pattern RE2 cannot read (one stored before patterns ran on it) fails the crawl here, before any
  // request, with a message naming it; the web source keeps its pages.
  const includes = (options.includePatterns ?? []).map(compilePattern);
  const excludes = (options.excludePatterns ?? []).map(compilePattern);
  const userAgent = options.fetch.userAgent;

  // Crawl-delay: requests to the site start at least this far apart.
  let delayMs = 0;
  let nextSlot = 0;
  const waitTurn = async () => {
    if (delayMs === 0) return;
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + delayMs;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
  const get = async (
    url: string,
    accept: (type: string) => boolean,
    validators?: Validators,
    maxBytes = options.fetch.maxBytes,
  ) => {
    return safeFetch(url, { ...options.fetch, accept, beforeRequest: waitTurn, validators, maxBytes });
  };
  const tolerant = async (url: string, accept: (type: string) => boolean) => {
    try {
      return await get(url, accept);
    } catch {
      return null; // a sitemap that cannot be read (refused, missing, too large) is skipped
    }
  };

  /**
   * Moves the crawl to the host's www-variant when the site redirects there (example.com to
   * www.example.com, or back): its pages, links, robots.txt and sitemap are that host's, and a crawl
   * kept on the host typed stopped at the redirect with no page. Any other host is another site.
   */
  const followHost = (landedUrl: string): boolean => {
    const landed = new URL(landedUrl);
    if (landed.host === host || bareHost(landed.host) !== bareHost(host)) return false;
    host = landed.host;
    origin = landed.origin;
    return true;
  };

  /** robots.txt of the crawl's host: its rules and its Crawl-delay for our user agent. */
  const readRobots = async (): Promise<Robot> => {
    let text = '';
    try {
      const answer = await get(`${origin}/robots.txt`, isText);
      followHost(answer.url);
      if (answer.body && new URL(answer.url).host === host) text = answer.body.toString('utf8');
    } catch (error) {
      // The start URL must be fetchable at all: its refusal (SSRF, bad host) is the crawl's error.
      if (error instanceof BlockedUrlError) throw error;
    }
    const rules = robotsParser(`${origin}/robots.txt`, text);
    const crawlDelay = Number(rules.getCrawlDelay(userAgent) ?? 0);
    if (Number.isFinite(crawlDelay) && crawlDelay > 0) {
      delayMs = Math.min(crawlDelay, options.maxCrawlDelaySeconds ?? 30) * 1000;
      nextSlot = Date.now() + delayMs;
    }
    return rules;
  };
  let robots = await readRobots();

  const sameHost = (url: string) => new URL(url).host === host;
  const isDocument = (url: string) => options.documents !== undefined && documentKindOf(url) !== undefined;
  const allowed = (url: string) =>
    sameHost(url) &&
    robots.isAllowed(url, userAgent) !== false &&
    !excludes.some((pattern) => pattern.test(patternTarget(url))) &&
    (isDocument(url) || !NON_HTML_EXTENSION.test(new URL(url).pathname));
  const included = (url: string) =>
    includes.length === 0 || includes.some((pattern) => pattern.test(patternTarget(url)));

  /** Pages are told apart by their normalized URL; they are fetched and stored as linked (cleanUrl). */
  const keyOf = (url: string) => normalizeUrl(url)!;
  const queued = new Set<string>([keyOf(start)]);
  let level: string[] = [start];
  const skipped: SkippedPage[] = [];
  const skip = (url: string, reason: string) => {
    if (skipped.length < MAX_SKIPPED) skipped.push({ url, reason });
  };
  if (options.useSitemap) {
    const sitemapUrls = [`${origin}/sitemap.xml`, ...robots.getSitemaps()];
    const fromSitemap = await readSitemaps(
      sitemapUrls.filter((u) => normalizeUrl(u) && sameHost(u)),
      tolerant,
      options.fetch.maxBytes,
    );
    for (const raw of fromSitemap) {
      const url = cleanUrl(raw);
      if (url && !queued.has(keyOf(url)) && allowed(url)) {
        queued.add(keyOf(url));
        level.push(url);
      }
    }
  }

  let startBuiltByScripts = false;
  // The start page's menu is its scripts' and it leads almost nowhere (scriptedMenuNotice).
  let startMenuHidden = false;
  const fromSitemapCount = level.length - 1;
  // Pages left unread because the limit was reached (limitNotice).
  let moreThanLimit = false;
  const full = () => stored >= options.maxPages;
  const fullNow = () => {
    if (full()) moreThanLimit = true;
    return full();
  };
  const seenCanonical = new Set<string>();
  const seenHashes = new Set<string>();
  let stored = 0;
  let written = 0;
  let storing = Promise.resolve();
  const learner = new BoilerplateLearner(options.boilerplate);
  const pending: ({ url: string; title: string; blocks: Block[]; links: string[] } & Validators)[] = [];
  const limit = pLimit(Math.max(1, delayMs > 0 ? 1 : options.concurrency));

  const follow = (links: string[], depth: number, next: string[]) => {
    if (depth >= options.maxDepth) return;
    for (const link of links)
      if (!queued.has(keyOf(link)) && allowed(link)) {
        queued.add(keyOf(link));
        next.push(link);
      }
  };
  /** Queues a page's write after those before it, then its progress report; false: nothing stored. */
  const enqueueWrite = (store: () => Promise<unknown>, url?: string) => {
    storing = storing.then(async () => {
      if ((await store()) === false) {
        stored--;
        if (url) skip(url, 'no text could be read from it');
        return;
      }
      written++;
      const total = Math.min(options.maxPages, stored + queued.size - seenCanonical.size);
      await hooks.onProgress(written, Math.max(total, written));
    });
  };
  /** A known page kept as stored; the crawl goes on through the links it had. */
  const keep = async (url: string, page: KnownPage, depth: number, next: string[], notModified: boolean) => {
    follow(page.links, depth, next);
    const key = keyOf(url);
    if (seenCanonical.has(key) || fullNow()) return;
    seenCanonical.add(key);
    seenHashes.add(page.contentHash);
    stored++;
    enqueueWrite(() => hooks.onKept(key, notModified));
    await storing;
  };
  /** A page this crawl could not read: kept as the last crawl stored it when it may be back soon. */
  const unreadable = async (url: string, why: string, keepable: boolean, depth: number, next: string[]) => {
    const known = options.known?.(keyOf(url));
    if (!known || !keepable) return skip(url, why);
    skip(url, `${why}; the copy from the last crawl is kept`);
    await keep(url, known, depth, next, false);
  };

  const visit = async (url: string, depth: number, next: string[]) => {
    if (options.fetch.signal?.aborted) return;
    if (url !== start && !allowed(url)) return;
    // A page the limit leaves unread (one already read under another address is no page more).
    if (full()) {
      if (!seenCanonical.has(keyOf(url))) moreThanLimit = true;
      return;
    }
    const known = options.known?.(keyOf(url));
    // The start page must answer: otherwise the crawl fails and the web source keeps its pages.
    const document = isDocument(url);
    let response: SafeResponse;
    try {
      response = document
        ? await get(url, isDocumentType, known, options.documents!.maxBytes)
        : await get(url, isHtml, known);
    } catch (error) {
      if (url !== start)
        return unreadable(url, failureReason(error), !(error instanceof BlockedUrlError), depth, next);
      if (error instanceof BlockedUrlError) throw error;
      throw new Error(`Could not fetch ${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (known && response.status === 304) return keep(url, known, depth, next, true);
    if (!response.body) {
      // A link to an image or another file is no page: left out without a word.
      if (url !== start && response.status >= 200 && response.status < 300) return;
      // 404 and 410 (like any other refusal) leave the page out of this crawl, so it is removed.
      const status = response.status;
      if (url !== start) return unreadable(url, answered(status), isTransient(status), depth, next);
      if (response.status < 200 || response.status >= 300)
        throw new Error(`Could not fetch ${url}: the site answered HTTP ${response.status}`);
      throw new Error(
        `Could not crawl ${url}: it is not an HTML page (${response.contentType || 'no content type'})`,
      );
    }
    const finalUrl = cleanUrl(response.url);
    // robots.txt may not redirect where the start page does: the new host's own is read.
    if (url === start && finalUrl && followHost(finalUrl)) robots = await readRobots();
    if (!finalUrl || !sameHost(finalUrl)) return;
    if (document) return readDocument(finalUrl, response);
    const page = await extractPage(decodeHtml(response.body, response.contentType), finalUrl);
    if (url === start && !page.text && page.scripted) startBuiltByScripts = true;
    if (url === start && page.scriptedMenu) startMenuHidden = onwardLinks(page.links, finalUrl) < FEW_LINKS;
    follow(page.links, depth, next);
    const canonical = page.canonical && sameHost(page.canonical) ? page.canonical : finalUrl;
    if (seenCanonical.has(keyOf(canonical)) || seenCanonical.has(keyOf(finalUrl))) return;
    seenCanonical.add(keyOf(canonical));
    seenCanonical.add(keyOf(finalUrl));
    if (!included(canonical) || !allowed(canonical)) return;
    if (!page.text) return skip(finalUrl, page.scripted ? NO_TEXT_SCRIPTED : NO_TEXT);
    const hash = contentHash(page.title, page.text);
    if (seenHashes.has(hash)) return;
    seenHashes.add(hash);
    if (fullNow()) return;
    stored++;
    learner.observe(page.blocks);
    pending.push({
      url: canonical,
      title: page.title,
      blocks: page.blocks,
      etag: response.etag,
      lastModified: response.lastModified,
      links: [...new Set(page.links.filter(sameHost))],
    });
    if (learner.pagesSeen >= BOILERPLATE_SAMPLE) await storePending();
  };

  /** A linked document: stored once per address and per file, counted as a page. */
  const readDocument = (url: string, response: SafeResponse) => {
    const bytes = response.body!;
    const kind = documentKindOf(url);
    if (!hooks.onDocument || !kind) return;
    if (bytes.subarray(0, SIGNATURES[kind].length).toString('latin1') !== SIGNATURES[kind]) return;
    if (seenCanonical.has(keyOf(url)) || !allowed(url)) return;
    seenCanonical.add(keyOf(url));
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (seenHashes.has(hash) || fullNow()) return;
    seenHashes.add(hash);
    stored++;
    const { etag, lastModified } = response;
    const title = documentTitle(url);
    const document = { url, kind, title, bytes, contentHash: hash, etag, lastModified };
    enqueueWrite(() => hooks.onDocument!(document), url);
  };

  /**
   * Stores the pages waiting, each without the blocks the site repeats. The first pages wait until
   * BOILERPLATE_SAMPLE pages (or the whole site, if smaller) have been seen, so they are cleaned of
   * the site's furniture like every later one.
   */
  const storePending = async () => {
    for (const page of pending.splice(0)) {
      const sections = sectionsOf(page.blocks, page.title, learner.isBoilerplate);
      const text = sections.map((section) => section.text).join('\n\n');
      if (!text) continue;
      const { blocks: _, ...fetched } = page;
      const content = {
        ...fetched,
        text,
        sections,
        contentHash: contentHash(page.title, JSON.stringify(sections)),
      };
      enqueueWrite(() => hooks.onPage(content));
    }
    await storing;
  };

  for (let depth = 0; level.length > 0 && !full(); depth++) {
    const next: string[] = [];
    await Promise.all(level.map((url) => limit(() => visit(url, depth, next))));
    await storing;
    level = next;
  }
  // Pages queued for the next level when the limit ended the loop are pages the site has beyond it.
  if (full() && level.some((url) => !seenCanonical.has(keyOf(url)))) moreThanLimit = true;
  await storePending();
  // An interrupted crawl saw only part of the site: it must not count as a snapshot.
  if (options.fetch.signal?.aborted) throw new Error('The crawl was interrupted');
  // Said plainly, where "0 pages crawled" would leave the owner guessing (and keep the pages it had).
  // Permanent: crawling it again would find the same nothing.
  if (written === 0 && startBuiltByScripts)
    throw new PermanentJobError(
      `${start} builds its text with JavaScript in the browser, which the crawler does not run, so no page had text to read. ` +
        'Add its content as files or Q&A pairs, or crawl a version of the site served as HTML.',
    );
  const notices: string[] = [];
  if (moreThanLimit) notices.push(limitNotice(options.maxPages));
  // Only when the crawl truly stayed small: a site whose sitemap or other pages led on is read.
  if (startMenuHidden && fromSitemapCount === 0 && written < FEW_LINKS)
    notices.push(scriptedMenuNotice(written));
  return { stored: written, boilerplate: learner.remembered(BOILERPLATE_SAMPLE), skipped, notices };
}
