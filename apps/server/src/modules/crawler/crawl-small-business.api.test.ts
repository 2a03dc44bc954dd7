import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawledPageList, CrawlStarted, CrawlStatus, SearchResult, WebSource } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { botWebSources } from '../bots/bots.schema.js';
import { crawledPages } from './crawler.schema.js';

const layout = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8">
<title>${title} | Corner Cafe</title></head><body>
<header><nav><a href="/">Home</a> <a href="/menu">Menu</a> <a href="/hours">Hours</a>
<a href="/contact?PHPSESSID=abc123">Contact</a></nav></header>
<main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A café's site as such sites are: a campaign-tagged banner link and a session id in a nav link, a
 * page only its sitemap (a sitemap index, named by robots.txt) lists and only with its trailing
 * slash, a redirect to a trailing slash, a broken link, a page that fails, one too large, one built
 * by JavaScript, and images.
 */
const site = { menuFails: false, contact: true, events: false };
const hits: string[] = [];
let origin = '';
const PAGES: Record<string, () => string | null> = {
  '/': () =>
    layout(
      'Welcome',
      `<p>Corner Cafe serves breakfast and lunch in Leeds with locally roasted coffee.</p>
      <a href="/menu?utm_source=homepage&utm_medium=banner">See our spring menu</a>
      <a href="/menu?fbclid=IwAR123">Menu</a> <a href="/gallery/cake.jpg">Photo</a> <a href="/img?id=3">Image</a>
      <a href="/broken">Offers</a> <a href="/missing">Old page</a> <a href="/big">Big</a> <a href="/app">Order</a>
      ${site.events ? '<a href="/events">Events</a>' : ''}`,
    ),
  '/menu': () => layout('Menu', '<p>The vegan breakfast costs £8.50 and comes with sourdough toast.</p>'),
  '/hours/': () => layout('Opening hours', '<p>We open from 8 am to 5 pm on weekdays.</p>'),
  '/contact': () =>
    site.contact ? layout('Contact', '<p>Phone 0113 496 0000 to book a table for a group.</p>') : null,
  '/catering/': () => layout('Catering', '<p>We cater office lunches with sandwich platters for 40.</p>'),
  '/events': () => (site.events ? layout('Events', '<p>Quiz night is every Thursday at 7 pm.</p>') : null),
  '/big': () => layout('Big', `<p>${'A very long page. '.repeat(20_000)}</p>`),
  '/app': () =>
    '<!doctype html><html><head><title>Order</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>',
};

function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://cafe');
  hits.push(req.url ?? '');
  const send = (type: string, body: string | Buffer) =>
    res.writeHead(200, { 'content-type': type }).end(body);
  const xml = (body: string) =>
    send(
      'application/xml',
      `<?xml version="1.0"?>${body.replace('>', ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')}`,
    );
  if (url.pathname === '/robots.txt')
    return send('text/plain', `User-agent: *\nDisallow: /admin\nSitemap: ${origin}/sitemap_index.xml\n`);
  if (url.pathname === '/sitemap_index.xml')
    return xml(`<sitemapindex><sitemap><loc>${origin}/page-sitemap.xml</loc></sitemap></sitemapindex>`);
  if (url.pathname === '/page-sitemap.xml')
    return xml(
      `<urlset><url><loc>${origin}/catering/</loc></url><url><loc>${origin}/admin/x</loc></url></urlset>`,
    );
  if (url.pathname === '/hours') return void res.writeHead(301, { location: '/hours/' }).end();
  if (url.pathname === '/broken' || (url.pathname === '/menu' && site.menuFails))
    return void res.writeHead(500).end('Internal Server Error');
  if (url.pathname === '/img' || url.pathname.endsWith('.jpg')) return send('image/jpeg', Buffer.alloc(64));
  const page = PAGES[url.pathname]?.();
  if (!page) return void res.writeHead(404).end();
  send('text/html; charset=utf-8', page);
}

const server$ = http.createServer(handle);
let server: TestServer;
let owner: Account;
let sourceId: number;
let botId: number;
const as = () => ({ token: owner.access_token });
const path = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

beforeAll(async () => {
  await new Promise<void>((r) => server$.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server$.address() as AddressInfo).port}`;
  server = await startTestServer({
    env: { CRAWLER_ALLOW_PRIVATE: 'true', CRAWLER_MAX_PAGE_BYTES: String(200 * 1024) },
  });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await new Promise((r) => server$.close(r));
});

async function finished(taskId: string): Promise<CrawlStatus> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await server.get<CrawlStatus>(`/api/crawler/crawl/${taskId}/status`, as());
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`crawl ${taskId} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const pages = async () =>
  (await server.get<CrawledPageList>(`/api/crawler/websource/${sourceId}/pages`, as())).body.pages;
const source = async () =>
  (await server.get<WebSource[]>(`/api/crawler/tenant/${owner.user.tenant_id}/websources`, as())).body.find(
    (s) => s.source_id === sourceId,
  )!;
const search = async (query: string) => {
  const reply = await server.post<SearchResult>(`/api/knowledge/search/${botId}`, { query }, as());
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.hits.map((hit) => path(hit.page_url!));
};
const skippedPaths = (list: { url: string; reason: string }[]) =>
  Object.fromEntries(list.map((s) => [path(s.url), s.reason]));

describe("a small business's site", () => {
  it('stores each page once, at the address the site serves, without campaign tags or session ids', async () => {
    const started = await server.post<CrawlStarted>('/api/crawler/crawl', { url: origin }, as());
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    sourceId = started.body.web_source_id;
    expect(await finished(started.body.task_id)).toMatchObject({ status: 'completed', pages_crawled: 5 });
    expect((await pages()).map((p) => path(p.url)).sort()).toEqual([
      '/',
      '/catering/', // listed only by the sitemap, and served only with its slash
      '/contact',
      '/hours/',
      '/menu',
    ]);
    // The menu was asked for once: its tagged links are the same page.
    expect(hits.filter((h) => h.startsWith('/menu'))).toEqual(['/menu']);
    expect(hits.filter((h) => h.startsWith('/catering'))).toEqual(['/catering/']);
    expect(hits).not.toContain('/contact?PHPSESSID=abc123');
    expect(hits).not.toContain('/gallery/cake.jpg');
    expect(hits.some((h) => h.startsWith('/admin'))).toBe(false);
  });

  it('tells the owner which pages it could not read and why; images are no such page', async () => {
    const reasons = {
      '/broken': 'the site answered HTTP 500 (a server error)',
      '/missing': 'the site answered HTTP 404 (not found)',
      '/big': 'it is larger than the 200 KB a page may have',
      '/app': expect.stringContaining('built by JavaScript in the browser'),
    };
    const { last_skipped_pages } = await source();
    expect(skippedPaths(last_skipped_pages)).toEqual(reasons);
    const bot = await insertBot(server, owner.user.tenant_id);
    botId = bot.id;
    await server.database.db
      .insert(botWebSources)
      .values({ tenantId: owner.user.tenant_id, botId, webSourceId: sourceId });
    expect((await search('office lunches sandwich platters'))[0]).toBe('/catering/');
    expect(await search('vegan breakfast')).toContain('/menu');
  });

  it('on a re-crawl keeps a page that fails for now, drops a removed one, adds a new one, and says so', async () => {
    // A page an earlier version stored under its normalized address is the same page, not a new one.
    const catering = (await pages()).find((p) => p.url.endsWith('/catering/'))!;
    await server.database.db
      .update(crawledPages)
      .set({ url: `${origin}/catering` })
      .where(eq(crawledPages.id, catering.page_id));
    Object.assign(site, { menuFails: true, contact: false, events: true });
    const started = await server.post<CrawlStarted>(`/api/crawler/websource/${sourceId}/recrawl`, {}, as());
    const status = await finished(started.body.task_id);
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 5 });
    expect(skippedPaths(status.skipped_pages)).toMatchObject({
      '/menu': 'the site answered HTTP 500 (a server error); the copy from the last crawl is kept',
      '/contact': 'the site answered HTTP 404 (not found)',
    });
    const after = await pages();
    expect(after.map((p) => path(p.url)).sort()).toEqual(['/', '/catering/', '/events', '/hours/', '/menu']);
    expect(after.find((p) => p.url.endsWith('/catering/'))!.page_id).toBe(catering.page_id);
    const src = await source();
    expect(src.last_changes).toMatchObject({ added: 1, removed: 1 });
    expect(skippedPaths(src.last_skipped_pages)).toEqual(skippedPaths(status.skipped_pages));
    expect(await search('vegan breakfast')).toContain('/menu');
    expect((await search('quiz night Thursday'))[0]).toBe('/events');
    expect(await search('phone book a table group')).not.toContain('/contact');
  });
});
