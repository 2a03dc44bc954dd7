import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatExchange, CrawledPageList, CrawlStarted, CrawlStatus, WebSource } from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { makeDocx, makePdf } from '../files/test-files.fixture.js';
import { chunks } from '../knowledge/knowledge.schema.js';
import { documentTitle } from './crawl.js';

const MENU = [
  'Starters. Soup of the day £6. Whipped feta with honey £7.',
  'Mains. Braised lamb shank with mash £18. Wild mushroom risotto £15.',
];

/**
 * A restaurant's site, as many are: the menu is a PDF the home page links to (twice, under two
 * names), beside a flyer with no text at all (blank pages), a ".pdf" link that answers an HTML error page, and
 * another site's PDF.
 */
async function restaurant(otherOrigin: string) {
  const menu = Buffer.from(await makePdf(MENU));
  const blank = Buffer.from(await makePdf(['']));
  const wine = Buffer.from(
    await makeDocx(['Wine list', 'House red by the glass 6 pounds, by the bottle 22 pounds.']),
  );
  let menuRequests = 0;
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>The Old Forge</title></head><body><main>
        <h1>The Old Forge</h1><p>Seasonal food in the village, open Wednesday to Sunday evenings.</p>
        <a href="/files/Dinner_Menu.pdf">Our dinner menu</a> <a href="/menu-latest.pdf">Menu</a>
        <a href="/flyer.pdf">Flyer</a> <a href="/missing.pdf">Old menu</a> <a href="/wine-list.docx">Wines</a>
        <a href="${otherOrigin}/their-menu.pdf">Friends</a></main></body></html>`);
    } else if (path === '/files/Dinner_Menu.pdf' || path === '/menu-latest.pdf') {
      menuRequests += 1;
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(menu);
    } else if (path === '/wine-list.docx') {
      // As many servers send Office files: a plain byte stream.
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(wine);
    } else if (path === '/flyer.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(blank);
    } else if (path === '/missing.pdf') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Page not found</p>');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    menuRequests: () => menuRequests,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

let site: Awaited<ReturnType<typeof restaurant>>;
let other: { url: string; hits: number; close(): Promise<void> };
let server: TestServer;
let owner: Account;
let sourceId: number;

const as = (account: Account) => ({ token: account.access_token });

async function crawled(taskId: string): Promise<CrawlStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await server.get<CrawlStatus>(`/api/crawler/crawl/${taskId}/status`, as(owner));
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(JSON.stringify(reply.body));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const stranger = createServer((_req, res) => {
    other.hits += 1;
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  other = {
    url: `http://localhost:${(stranger.address() as AddressInfo).port}`,
    hits: 0,
    close: () => new Promise<void>((resolve) => stranger.close(() => resolve())),
  };
  site = await restaurant(other.url);
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await other?.close();
});

describe('PDFs a crawled site links to', () => {
  it('reads the menu PDF once, page by page, and a Word wine list; leaves out a blank PDF, a non-PDF and other sites', async () => {
    const started = await server.post<CrawlStarted>(
      '/api/crawler/crawl',
      { url: `${site.url}/`, name: 'The Old Forge', use_sitemap: false },
      as(owner),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    sourceId = started.body.web_source_id;
    expect(await crawled(started.body.task_id)).toMatchObject({ status: 'completed', pages_crawled: 3 });

    const pages = await server.get<CrawledPageList>(`/api/crawler/websource/${sourceId}/pages`, as(owner));
    expect(pages.body.pages.map((page) => [new URL(page.url).pathname, page.title]).sort()).toEqual([
      ['/', 'The Old Forge'],
      ['/files/Dinner_Menu.pdf', 'Dinner Menu (PDF)'],
      ['/wine-list.docx', 'Wine list (Word)'],
    ]);
    expect(other.hits).toBe(0);

    const rows = await server.database.db
      .select({ content: chunks.content, pageNumber: chunks.pageNumber, pageUrl: chunks.pageUrl })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'web')));
    const menu = rows.filter((row) => row.pageUrl === `${site.url}/files/Dinner_Menu.pdf`);
    expect(menu.map((row) => [row.pageNumber, row.content])).toEqual([
      [1, MENU[0]],
      [2, MENU[1]],
    ]);
    const wine = rows.filter((row) => row.pageUrl === `${site.url}/wine-list.docx`);
    expect(wine.map((row) => row.content).join('\n')).toContain('House red by the glass 6 pounds');
  });

  it("answers from the menu's page, citing the PDF and its page number", async () => {
    const bot = await createBotViaApi(server, owner, {
      bot_name: 'Old Forge',
      web_source_ids: JSON.stringify([sourceId]),
    });
    const reply = await server.post<ChatExchange>(
      '/api/chat/chats',
      { bot_id: bot.bot_id, message: 'How much is the lamb shank?' },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.bot_message!.message).toContain('Braised lamb shank with mash £18');
    expect(reply.body.bot_message!.sources).toEqual([
      expect.objectContaining({
        page_url: `${site.url}/files/Dinner_Menu.pdf`,
        page_title: 'Dinner Menu (PDF)',
        page_number: 2,
      }),
    ]);
  });

  it('keeps an unchanged PDF as it is on a re-crawl: asked for again, its chunks stay', async () => {
    const menuChunks = () =>
      server.database.db
        .select({ id: chunks.id })
        .from(chunks)
        .where(
          and(
            eq(chunks.tenantId, owner.user.tenant_id),
            eq(chunks.pageUrl, `${site.url}/files/Dinner_Menu.pdf`),
          ),
        )
        .then((rows) => rows.map((row) => row.id).sort());
    const before = await menuChunks();
    const requests = site.menuRequests();
    const started = await server.post<CrawlStarted>(
      `/api/crawler/websource/${sourceId}/recrawl`,
      undefined,
      as(owner),
    );
    expect(await crawled(started.body.task_id)).toMatchObject({ status: 'completed', pages_crawled: 3 });
    const sources = await server.get<WebSource[]>(
      `/api/crawler/tenant/${owner.user.tenant_id}/websources`,
      as(owner),
    );
    const source = sources.body.find((s) => s.source_id === sourceId)!;
    expect(source.last_changes).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 3 });
    expect(site.menuRequests()).toBeGreaterThan(requests);
    expect(await menuChunks()).toEqual(before);
  });
});

describe('documentTitle', () => {
  it("is the file's name as a person writes it", () => {
    expect(documentTitle('https://a.example/files/Dinner_Menu.pdf')).toBe('Dinner Menu (PDF)');
    expect(documentTitle('https://a.example/price-list%202026.PDF')).toBe('Price list 2026 (PDF)');
    expect(documentTitle('https://a.example/.pdf')).toBe('Document (PDF)');
    expect(documentTitle('https://a.example/docs/opening_hours.xlsx')).toBe('Opening hours (Excel)');
  });
});
