import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawledPageList, CrawlStarted, CrawlStatus, WebSource } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/** A page of a small business's site, with the menu its layout has. */
const page = (title: string, menu: string, body: string, head = '') => `<!doctype html><html><head>
<meta charset="utf-8"><title>${title} | Bloom Florist</title>${head}</head><body>
<header>${menu}</header><main><h1>${title}</h1><p>${body}</p></main></body></html>`;

/** The florist's twelve pages, each linked from the menu every page has. */
const SHOP = Array.from({ length: 12 }, (_, i) => `/flowers-${i + 1}`);
const linkedMenu = `<nav><a href="/">Home</a>${SHOP.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</nav>`;
const shopPage = (path: string) =>
  page(path === '/' ? 'Home' : path, linkedMenu, `Bouquet ${path} is hand tied with seasonal stems.`);

/** The same shop on a site builder: an empty <nav> the scripts fill, and menu items that navigate on click. */
const SCRIPT = '<script src="/bundle.js"></script>';
const scriptedHome = page(
  'Home',
  '<nav id="menu"></nav><div class="item" onclick="window.location.href=\'/flowers-1\'">Bouquets</div>',
  'Bloom Florist delivers fresh bouquets across Bristol every day except Sunday.',
  SCRIPT,
);

type Site = { pages: Record<string, string>; sitemap?: string[] };
const servers: http.Server[] = [];

/** Serves a site on loopback: its pages, its sitemap when it has one, 404 for anything else. */
async function serve(site: Site): Promise<string> {
  let origin = '';
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/sitemap.xml' && site.sitemap) {
      const urls = site.sitemap.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        );
    }
    const html = site.pages[path];
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

let server: TestServer;
let owner: Account;
const as = () => ({ token: owner.access_token });

beforeAll(async () => {
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function crawl(body: Record<string, unknown>) {
  const started = await server.post<CrawlStarted>('/api/crawler/crawl', body, as());
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await server.get<CrawlStatus>(`/api/crawler/crawl/${started.body.task_id}/status`, as());
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'failed') {
      const sources = await server.get<WebSource[]>(
        `/api/crawler/tenant/${owner.user.tenant_id}/websources`,
        as(),
      );
      const source = sources.body.find((s) => s.source_id === started.body.web_source_id)!;
      return { status: reply.body, source };
    }
    if (Date.now() > deadline) throw new Error(`crawl still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const pageCount = async (sourceId: number) =>
  (await server.get<CrawledPageList>(`/api/crawler/websource/${sourceId}/pages`, as())).body.total;

const LIMIT_NOTICE = 'Stopped at 5 pages: the site has more. Raise the limit or crawl the sections you need.';

describe('a crawl stopped by its page limit', () => {
  it('says so on the crawl and on the website, where the owner would think the whole site was read', async () => {
    const pages = Object.fromEntries(['/', ...SHOP].map((p) => [p, shopPage(p)]));
    const origin = await serve({ pages });
    const { status, source } = await crawl({ url: origin, max_pages: 5 });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 5, notices: [LIMIT_NOTICE] });
    expect(source.last_notices).toEqual([LIMIT_NOTICE]);
    expect(await pageCount(source.source_id)).toBe(5);
  });

  it('says so when the sitemap lists more pages than the limit', async () => {
    const pages = Object.fromEntries(
      ['/', ...SHOP].map((p) => [p, page(p, '', `Bouquet ${p} for weddings.`)]),
    );
    const origin = await serve({ pages, sitemap: SHOP });
    const { status } = await crawl({ url: origin, max_pages: 5, max_depth: 0 });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 5, notices: [LIMIT_NOTICE] });
  });

  it('says nothing when the limit is exactly the size of the site', async () => {
    const few = ['/', '/flowers-1', '/flowers-2'];
    const menu = `<nav>${few.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</nav>`;
    const pages = Object.fromEntries(few.map((p) => [p, page(p, menu, `Bouquet ${p} with roses.`)]));
    const origin = await serve({ pages });
    const { status, source } = await crawl({ url: origin, max_pages: 3 });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 3, notices: [] });
    expect(source.last_notices).toEqual([]);
  });
});

describe('a home page whose menu is built by JavaScript', () => {
  it('is crawled as one page with a warning that says what to do', async () => {
    const origin = await serve({ pages: { '/': scriptedHome, '/flowers-1': shopPage('/flowers-1') } });
    const { status, source } = await crawl({ url: origin });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 1 });
    expect(status.notices).toEqual([
      "Only 1 page was found: the site's menu is built by JavaScript in the browser, which the crawler does not run, and no sitemap lists its pages. " +
        'Add a sitemap.xml to the site, start a crawl at each page you need, or upload those pages as files.',
    ]);
    expect(source.last_notices).toEqual(status.notices);
  });

  it('reads the pages its sitemap lists, without a warning', async () => {
    const pages = { '/': scriptedHome, ...Object.fromEntries(SHOP.slice(0, 3).map((p) => [p, shopPage(p)])) };
    const origin = await serve({ pages, sitemap: SHOP.slice(0, 3) });
    const { status } = await crawl({ url: origin, max_depth: 0 });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 4, notices: [] });
  });

  it('is not suspected on a scripted site whose menu has links', async () => {
    const few = ['/', '/flowers-1', '/flowers-2'];
    const menu = `<nav>${few.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</nav>`;
    const pages = Object.fromEntries(few.map((p) => [p, page(p, menu, `Bouquet ${p} with tulips.`, SCRIPT)]));
    const origin = await serve({ pages });
    const { status } = await crawl({ url: origin });
    expect(status).toMatchObject({ status: 'completed', pages_crawled: 3, notices: [] });
  });
});
