import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { chunks } from '../knowledge/knowledge.schema.js';

/** One byte per character, as a windows-1252 or ISO-8859-1 page is stored ("£" is 0xA3). */
const singleByte = (text: string) => Buffer.from(text, 'latin1');

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A salon's older site: the home page's encoding is only in the server's header, the price list's
 * only in its own <meta>, and the booking page says nothing and is UTF-8. The home page travels
 * gzipped; a page no link reaches is listed in a gzipped sitemap file that robots.txt names.
 */
const PAGES: Record<string, { type: string; bytes: Buffer; encoding?: string }> = {
  '/': {
    type: 'text/html; charset=ISO-8859-1',
    encoding: 'gzip',
    bytes: singleByte(
      page(
        'Salon Belle',
        '<p>Welcome to Salon Belle, the caf\xe9 corner of the high street.</p><a href="/prices">Prices</a> <a href="/booking">Booking</a>',
      ),
    ),
  },
  '/prices': {
    type: 'text/html',
    // windows-1252's own characters too, where ISO-8859-1 has control codes: curly quotes and €.
    bytes: singleByte(
      page(
        'Prices',
        '<p>A cut and finish is \xa335. A fringe trim is \xa38.</p><p>\x93Ok\x94 \x805</p>',
        '<meta charset="windows-1252">',
      ),
    ),
  },
  '/booking': {
    type: 'text/html',
    bytes: Buffer.from(
      page('Booking', '<p>Deposits of £10 secure a booking — refunded with 24 hours’ notice.</p>'),
    ),
  },
};

PAGES['/']!.bytes = gzipSync(PAGES['/']!.bytes);
PAGES['/gift-vouchers'] = {
  type: 'text/html; charset=utf-8',
  bytes: Buffer.from(page('Gift vouchers', '<p>Gift vouchers from £25, valid for a year.</p>')),
};

let site: { url: string; close(): Promise<void> };
let server: TestServer;
let owner: Account;

beforeAll(async () => {
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const origin = `http://${req.headers.host}`;
    if (path === '/robots.txt')
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nSitemap: ${origin}/sitemap-pages.xml.gz\n`);
    if (path === '/sitemap-pages.xml.gz') {
      const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/gift-vouchers</loc></url></urlset>`;
      return void res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(gzipSync(xml));
    }
    const found = PAGES[path];
    if (!found) return void res.writeHead(404).end();
    const headers = {
      'content-type': found.type,
      ...(found.encoding ? { 'content-encoding': found.encoding } : {}),
    };
    res.writeHead(200, headers).end(found.bytes);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  site = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

describe('crawled pages in the encoding they are written in', () => {
  it('reads the server’s charset, the page’s <meta charset>, and undeclared UTF-8: no £ is lost', async () => {
    await crawlSite(server, owner, `${site.url}/`, 'Salon Belle');
    const rows = await server.database.db
      .select({ content: chunks.content })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'web')));
    const text = rows.map((row) => row.content).join('\n');
    expect(text).toContain('the café corner of the high street');
    expect(text).toContain('A cut and finish is £35. A fringe trim is £8.');
    expect(text).toContain('“Ok” €5');
    expect(text).toContain('Deposits of £10 secure a booking — refunded with 24 hours’ notice.');
    expect(text).not.toContain('\uFFFD');
  });

  it('reads a gzipped page and finds the pages a gzipped sitemap file lists', async () => {
    const rows = await server.database.db
      .select({ content: chunks.content, pageUrl: chunks.pageUrl })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'web')));
    expect(rows.find((row) => row.pageUrl === `${site.url}/`)?.content).toContain('Welcome to Salon Belle');
    expect(rows.find((row) => row.pageUrl === `${site.url}/gift-vouchers`)?.content).toContain(
      'Gift vouchers from £25, valid for a year.',
    );
  });
});
