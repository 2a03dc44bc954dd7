import { createHash } from 'node:crypto';
import type http from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawledPageList, CrawlStarted, CrawlStatus, SearchResult } from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../test/bots.js';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { botWebSources } from '../bots/bots.schema.js';
import { chunks } from '../knowledge/knowledge.schema.js';

/**
 * A documentation site in the DocBook shape of the PostgreSQL manual: every page carries the same
 * cookie notice, navigation header and footer and a copyright line; the reference page holds its
 * settings in sibling `div.sect2` sections, each with an id, as definition lists and a table.
 */
const SECTIONS = [
  [
    'connection',
    'Connection Settings',
    'listen_addresses',
    'chooses the network interfaces that accept client connections',
  ],
  [
    'memory',
    'Resource Consumption',
    'shared_buffers',
    'sets the amount of memory used for shared data buffers',
  ],
  [
    'wal',
    'Write Ahead Log',
    'wal_level',
    'decides how much information is written to the journal for recovery',
  ],
  ['replication', 'Replication', 'max_wal_senders', 'limits the number of standby servers streaming at once'],
  [
    'planner',
    'Query Planning',
    'random_page_cost',
    'estimates the price of a nonsequentially fetched disk page',
  ],
  ['logging', 'Error Reporting and Logging', 'log_destination', 'picks where server messages are written'],
  [
    'statistics',
    'Run-time Statistics',
    'track_counts',
    'enables collection of statistics on database activity',
  ],
  [
    'locale',
    'Locale and Formatting',
    'lc_monetary',
    'sets the locale used for formatting currency amounts such as prices',
  ],
] as const;

const prose = (name: string, what: string) =>
  `The parameter ${name} ${what}. It can only be set at server start, and the default suits most installations; ` +
  `change it in the configuration file and restart the server for the new value of ${name} to take effect.`;

const FURNITURE_TOP = `<div class="cookie-notice">COOKIES We use cookies to give you the best experience. <button>Accept</button></div>
  <div class="navheader"><a href="/">Home</a> | <a href="/page-1">Prev</a> | <a href="/page-2">Next</a></div>`;
const FURNITURE_BOTTOM = `<p class="legal">Copyright 1996-2026 The Manual Group. All rights reserved.</p>`;

const layout = (title: string, content: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${FURNITURE_TOP}
  <div id="docContent">${content}</div>${FURNITURE_BOTTOM}</body></html>`;

const reference = () =>
  layout(
    'Server Configuration',
    `<div class="sect1" id="runtime-config"><h2 class="title">Server Configuration</h2>
    <p>${prose('configuration', 'is read from postgresql.conf at start')}</p>
    ${SECTIONS.map(
      ([
        id,
        heading,
        name,
        what,
      ]) => `<div class="sect2" id="runtime-config-${id}"><h3 class="title">${heading}</h3>
      <div class="variablelist"><dl><dt><code>${name}</code> (<code>string</code>)</dt><dd><p>${prose(name, what)}</p></dd></dl></div>
      <table><tr><th>Setting</th><th>Context</th></tr><tr><td>${name}</td><td>postmaster</td></tr></table></div>`,
    ).join('\n')}</div>`,
  );

/** What a reader sees of the reference page's main content, without whitespace. */
const visibleReference = () =>
  [
    'Server Configuration',
    prose('configuration', 'is read from postgresql.conf at start'),
    ...SECTIONS.flatMap(([, heading, name, what]) => [
      heading,
      `${name} (string)`,
      prose(name, what),
      'SettingContext',
      `${name}postmaster`,
    ]),
  ]
    .join('')
    .replace(/\s+/g, '');

/** Bumped to change page 3's text between crawls. */
let edition = 1;
const plainPage = (i: number) =>
  layout(
    `Tutorial part ${i}`,
    `<h1>Tutorial part ${i}</h1><p>${prose(`tutorial_${i}`, `walks through lesson ${i} of the tutorial`)}</p>`,
  );

let site: { url: string; close(): Promise<void> };
let server: TestServer;
let owner: Account;

beforeAll(async () => {
  const http_ = createServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const page = /^\/page-(\d+)$/.exec(path);
    let body: string | null = null;
    if (path === '/')
      body = layout(
        'Manual',
        `<h1>Manual</h1><p>${prose('manual', 'introduces the whole manual')}</p><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/page-${i + 1}">Part ${i + 1}</a></li>`).join('')}<li><a href="/reference">Reference</a></li></ul>`,
      );
    else if (path === '/reference') body = reference();
    else if (page && Number(page[1]) <= 10)
      body = plainPage(Number(page[1])).replace(
        'of the tutorial',
        Number(page[1]) === 3 ? `of the tutorial, edition ${edition}` : 'of the tutorial',
      );
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    // Validators, so a re-crawl's conditional requests get 304 for every page that did not change.
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
  });
  await new Promise<void>((r) => http_.listen(0, '127.0.0.1', r));
  site = {
    url: `http://127.0.0.1:${(http_.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => http_.close(() => r())),
  };
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

const as = (account: Account) => ({ token: account.access_token });

const crawl = () => crawlSite(server, owner, `${site.url}/`, 'Manual');

describe('extraction of crawled pages', () => {
  let sourceId: number;
  let referenceUrl: string;
  beforeAll(async () => {
    sourceId = await crawl();
    const pages = await server.get<CrawledPageList>(
      `/api/crawler/websource/${sourceId}/pages?limit=50`,
      as(owner),
    );
    expect(pages.body.total).toBe(12);
    const ref = pages.body.pages.find((p) => p.url.endsWith('/reference'))!;
    referenceUrl = ref.url;
  });

  const chunksOf = (pageUrlPrefix: string) =>
    server.database.db
      .select({ content: chunks.content, headingPath: chunks.headingPath, pageUrl: chunks.pageUrl })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'web')))
      .then((rows) => rows.filter((row) => row.pageUrl?.startsWith(pageUrlPrefix)));

  it('stores a reference page whole: every sibling section, words apart, tables as rows', async () => {
    const rows = await chunksOf(referenceUrl);
    const stored = rows.map((r) => r.content).join('');
    const visible = visibleReference();
    // The headings live in heading_path; the body text is the rest of what a reader sees.
    const headings = ['Server Configuration', ...SECTIONS.map(([, heading]) => heading)]
      .join('')
      .replace(/\s+/g, '');
    const body = stored.replace(/\s+/g, '').replace(/\|/g, '');
    expect(Math.abs(body.length - (visible.length - headings.length)) / visible.length).toBeLessThan(0.05);
    const text = rows.map((r) => r.content).join('\n');
    for (const [, , name, what] of SECTIONS) expect(text).toContain(`${name} ${what}`);
    expect(text).toContain('Setting | Context\nlc_monetary | postmaster');
    expect(text).not.toMatch(/Settingslisten_addresses|Settinglisten/);
  });

  it('gives each section its own chunk with its heading path and the anchor of its heading', async () => {
    const rows = await chunksOf(referenceUrl);
    expect(rows).toHaveLength(SECTIONS.length + 1);
    for (const [id, heading, name] of SECTIONS) {
      const row = rows.find((r) => r.content.includes(`${name} (string)`))!;
      expect(row).toMatchObject({
        headingPath: `Server Configuration > ${heading}`,
        pageUrl: `${referenceUrl}#runtime-config-${id}`,
      });
    }
  });

  it("leaves out the site's furniture, repeated on every page, from every page, the first ones too", async () => {
    const rows = await chunksOf(site.url);
    expect(rows.length).toBeGreaterThan(12);
    const all = rows.map((r) => r.content).join('\n');
    expect(all).not.toMatch(/COOKIES|All rights reserved|Prev|Accept/);
    for (let i = 1; i <= 10; i++) expect(all).toContain(`walks through lesson ${i} of the tutorial`);
  });

  it("answers a question about the reference page's last section with that section, linked by its anchor", async () => {
    const bot = await insertBot(server, owner.user.tenant_id);
    await server.database.db
      .insert(botWebSources)
      .values({ tenantId: owner.user.tenant_id, botId: bot.id, webSourceId: sourceId });
    const reply = await server.post<SearchResult>(
      `/api/knowledge/search/${bot.id}`,
      { query: 'which setting formats currency amounts' },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.hits[0]).toMatchObject({
      heading_path: 'Server Configuration > Locale and Formatting',
      page_url: `${referenceUrl}#runtime-config-locale`,
    });
  });

  it('keeps the furniture out of a page that changed when a re-crawl reads it alone (the others answer 304)', async () => {
    edition = 2;
    const started = await server.post<CrawlStarted>(
      `/api/crawler/websource/${sourceId}/recrawl`,
      undefined,
      as(owner),
    );
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const reply = await server.get<CrawlStatus>(
        `/api/crawler/crawl/${started.body.task_id}/status`,
        as(owner),
      );
      if (reply.body.status === 'completed') break;
      if (reply.body.status === 'failed' || Date.now() > deadline)
        throw new Error(JSON.stringify(reply.body));
      await new Promise((r) => setTimeout(r, 50));
    }
    const page3 = (await chunksOf(site.url)).filter((row) =>
      (row.pageUrl ?? '').split('#')[0]!.endsWith('/page-3'),
    );
    const text = page3.map((row) => row.content).join('\n');
    expect(text).toContain('lesson 3 of the tutorial, edition 2');
    expect(text).not.toMatch(/COOKIES|All rights reserved|Prev|Accept/);
  });
});
