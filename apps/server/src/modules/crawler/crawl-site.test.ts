import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrawledContent, crawlSite } from './crawl.js';

/**
 * A bakery whose bare host (bakery.test) answers every request with a redirect to www.bakery.test,
 * where the site lives, as many sites do; robots.txt there keeps crawlers out of /staff.
 */
let server: http.Server;
let port: number;
const requested: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    requested.push(`${host}${req.url}`);
    // shop.test answers its own robots.txt and sends everything else to www.shop.test.
    if (host === 'shop.test' && req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /nothing\n');
      return;
    }
    // An old host's home page that sends the browser on to the real one.
    if (host === 'forge.test' && req.url === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><meta http-equiv="refresh" content="0;url=/hours"></head><body></body></html>');
      return;
    }
    // A single-page app: an empty root the browser fills with JavaScript.
    if (host === 'spa.test') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html><head><title>Studio</title><script type="module" src="/assets/app.js"></script></head>' +
            '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>',
        );
      return;
    }
    if (host === 'bakery.test' || host === 'shop.test') {
      res.writeHead(301, { location: `http://www.${host}:${port}${req.url}` }).end();
      return;
    }
    const page = (title: string, body: string) =>
      `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /staff\n');
    } else if (req.url === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          page(
            'Corner Bakery',
            '<p>Sourdough and pastries baked every morning.</p><a href="/hours">Hours</a> <a href="/staff">Staff</a>',
          ),
        );
    } else if (req.url === '/hours') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(page('Opening hours', '<p>Open Tuesday to Sunday, 7 am to 3 pm.</p>'));
    } else if (req.url === '/staff') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page('Staff only', '<p>Rota and payroll.</p>'));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Crawls from `startUrl` with a DNS that sends every host to the test server; the pages stored. */
async function crawl(startUrl: string) {
  const pages: CrawledContent[] = [];
  const result = await crawlSite(
    {
      startUrl,
      maxPages: 10,
      maxDepth: 3,
      useSitemap: false,
      concurrency: 2,
      fetch: {
        allowPrivate: true,
        userAgent: 'ParleyTest',
        timeoutMs: 2000,
        maxBytes: 100_000,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      },
    },
    {
      onPage: async (page) => {
        pages.push(page);
      },
      onKept: async () => undefined,
      onProgress: async () => undefined,
    },
  );
  return { stored: result.stored, urls: pages.map((page) => page.url).sort() };
}

describe('crawlSite', () => {
  it('follows a start that redirects to the www host: its pages are crawled there, under its robots.txt', async () => {
    expect(await crawl(`http://bakery.test:${port}/`)).toEqual({
      stored: 2,
      urls: [`http://www.bakery.test:${port}/`, `http://www.bakery.test:${port}/hours`],
    });
    expect(requested).toContain('www.bakery.test/robots.txt');
    expect(requested).not.toContain('www.bakery.test/staff');
  });

  it('goes on where a home page with no text sends the browser (a meta refresh)', async () => {
    expect(await crawl(`http://forge.test:${port}/`)).toEqual({
      stored: 1,
      urls: [`http://forge.test:${port}/hours`],
    });
  });

  it('says plainly that a site built by JavaScript has no text to read, instead of crawling 0 pages', async () => {
    await expect(crawl(`http://spa.test:${port}/`)).rejects.toThrow(
      `http://spa.test:${port}/ builds its text with JavaScript in the browser, which the crawler does not run`,
    );
  });

  it("reads the www host's robots.txt when only the pages redirect there", async () => {
    expect(await crawl(`http://shop.test:${port}/`)).toEqual({
      stored: 2,
      urls: [`http://www.shop.test:${port}/`, `http://www.shop.test:${port}/hours`],
    });
    expect(requested).toContain('shop.test/robots.txt');
    expect(requested).toContain('www.shop.test/robots.txt');
    expect(requested).not.toContain('www.shop.test/staff');
  });
});
