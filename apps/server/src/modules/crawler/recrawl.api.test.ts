import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawlStarted, CrawlStatus, SearchResult, WebSource } from '@parley/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { jobs } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { botWebSources } from '../bots/bots.schema.js';
import { chunks, documents } from '../knowledge/knowledge.schema.js';
import { CRAWL_JOB } from './crawler.service.js';

/** The time the test sets by hand: schedules and sync times read it through `clock`. */
let clockAt = new Date('2030-01-07T00:00:00.000Z');
const clock: Clock = { now: () => new Date(clockAt) };
const DAY_MS = 24 * 60 * 60 * 1000;

const prose = (topic: string) =>
  `This page explains ${topic} in enough words for a reader to learn about ${topic}. ` +
  `It goes on about ${topic} with a second sentence, and a third sentence that names ${topic} once more.`;
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

type Hit = { path: string; ifNoneMatch?: string; ifModifiedSince?: string; status: number };

/**
 * A site of three pages on loopback: A (the start page) links to B and C. Every page sends an ETag
 * and a Last-Modified and answers 304 when the request's validators match; `site.b` changes B's text,
 * `site.cGone` makes C answer 404, `site.hold` keeps A's answer back until released.
 */
function website() {
  const hits: Hit[] = [];
  const site = { b: 'bluebirds', cGone: false, hold: null as Promise<void> | null, hits, url: '' };
  const bodies: Record<string, () => string | null> = {
    '/': () => page('Page A', `<p>${prose('anchovies')}</p><a href="/b">B</a> <a href="/c">C</a>`),
    '/b': () => page('Page B', `<p>${prose(site.b)}</p>`),
    '/c': () => (site.cGone ? null : page('Page C', `<p>${prose('cormorants')}</p>`)),
  };
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const hit: Hit = {
      path,
      ifNoneMatch: req.headers['if-none-match'],
      ifModifiedSince: req.headers['if-modified-since'],
      status: 404,
    };
    hits.push(hit);
    if (path === '/' && site.hold) await site.hold;
    const body = bodies[path]?.();
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    const lastModified = new Date(Date.UTC(2029, 0, 1) + body.length * 1000).toUTCString();
    hit.status = req.headers['if-none-match'] === etag ? 304 : 200;
    res.writeHead(hit.status, { 'content-type': 'text/html', etag, 'last-modified': lastModified });
    res.end(hit.status === 304 ? undefined : body);
  });
  return {
    site,
    listen: async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const as = (account: Account) => ({ token: account.access_token });
let database: TestDatabase;
let server: TestServer;
let owner: Account;
let other: Account;
let web: ReturnType<typeof website>;
let sourceId: number;

beforeAll(async () => {
  web = website();
  await web.listen();
  database = await createTestDatabase();
  server = await startTestServer({
    database,
    clock,
    env: { CRAWLER_ALLOW_PRIVATE: 'true', SCHEDULER_TICK_MS: '50' },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(async () => {
  await server?.close({ dropDatabase: false });
  await database?.drop();
  await web?.close();
});

async function waitForTask(taskId: string): Promise<CrawlStatus> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await server.get<CrawlStatus>(`/api/crawler/crawl/${taskId}/status`, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    if (Date.now() > deadline) throw new Error(`crawl ${taskId} still ${reply.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sourceOf(account: Account = owner): Promise<WebSource> {
  const reply = await server.get<WebSource[]>(
    `/api/crawler/tenant/${account.user.tenant_id}/websources`,
    as(account),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.find((s) => s.source_id === sourceId)!;
}

/** The source once the crawl that ran at `at` (the clock's time) has finished, its job included. */
async function waitForCrawlAt(at: Date): Promise<WebSource> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const source = await sourceOf();
    // Its changes commit with last_crawled_at; its job ends (sync_task_id cleared) just after.
    if (source.last_crawled_at === at.toISOString() && source.sync_task_id === null) return source;
    if (Date.now() > deadline) throw new Error(`no crawl finished at ${at.toISOString()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pagePath = (url: string | null) => new URL(url!).pathname;

/** Each page's document and chunk ids, by path. */
async function indexed() {
  const rows = await server.database.db
    .select({ url: documents.url, syncedAt: documents.syncedAt, chunkId: chunks.id, content: chunks.content })
    .from(documents)
    .innerJoin(chunks, eq(chunks.documentId, documents.id))
    .where(and(eq(documents.tenantId, owner.user.tenant_id), eq(documents.sourceType, 'web')))
    .orderBy(asc(chunks.id));
  const byPath = new Map<string, { chunkIds: number[]; text: string; syncedAt: Date }>();
  for (const row of rows) {
    const entry = byPath.get(pagePath(row.url)) ?? { chunkIds: [], text: '', syncedAt: row.syncedAt };
    entry.chunkIds.push(row.chunkId);
    entry.text += row.content;
    byPath.set(pagePath(row.url), entry);
  }
  return byPath;
}

const crawlJobs = () =>
  server.database.db.select({ id: jobs.id, status: jobs.status }).from(jobs).where(eq(jobs.name, CRAWL_JOB));

describe('a scheduled re-crawl', () => {
  it('crawls the site once and sets a daily schedule, due at the hour given (UTC)', async () => {
    const started = await server.post<CrawlStarted>(
      '/api/crawler/crawl',
      { url: `${web.site.url}/`, use_sitemap: false },
      as(owner),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    sourceId = started.body.web_source_id;
    expect(await waitForTask(started.body.task_id)).toMatchObject({ status: 'completed', pages_crawled: 3 });
    expect(await sourceOf()).toMatchObject({
      page_count: 3,
      schedule: 'off',
      next_sync_at: null,
      last_crawled_at: clockAt.toISOString(),
      last_changes: { added: 3, changed: 0, removed: 0, unchanged: 0 },
      sync_task_id: null,
    });

    const set = await server.patch<WebSource>(
      `/api/crawler/websource/${sourceId}`,
      { schedule: 'daily', schedule_hour: 3 },
      as(owner),
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      source_id: sourceId,
      schedule: 'daily',
      schedule_hour: 3,
      next_sync_at: '2030-01-07T03:00:00.000Z',
    });
  });

  it('waits for its hour: before it, no request reaches the site', async () => {
    web.site.hits.length = 0;
    clockAt = new Date('2030-01-07T02:59:00.000Z');
    await new Promise((r) => setTimeout(r, 400));
    expect(web.site.hits).toEqual([]);
    expect((await sourceOf()).sync_task_id).toBeNull();
  });

  it('retrains only the changed page, keeps the 304 one as it was and drops the removed one', async () => {
    const before = await indexed();
    expect([...before.keys()].sort()).toEqual(['/', '/b', '/c']);
    web.site.b = 'butterflies';
    web.site.cGone = true;

    clockAt = new Date('2030-01-07T03:00:30.000Z');
    const source = await waitForCrawlAt(clockAt);

    // The start page was asked for conditionally and answered 304; the crawl went on through its links.
    const a = web.site.hits.find((h) => h.path === '/')!;
    expect(a).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^"[0-9a-f]+"$/) });
    expect(a.ifModifiedSince).toMatch(/GMT$/);
    expect(web.site.hits.find((h) => h.path === '/b')).toMatchObject({ status: 200 });
    expect(web.site.hits.find((h) => h.path === '/c')).toMatchObject({ status: 404 });

    expect(source).toMatchObject({
      page_count: 2,
      last_crawled_at: '2030-01-07T03:00:30.000Z',
      last_changes: { added: 0, changed: 1, removed: 1, unchanged: 1 },
      next_sync_at: '2030-01-08T03:00:00.000Z',
      sync_task_id: null,
    });

    const after = await indexed();
    expect([...after.keys()].sort()).toEqual(['/', '/b']);
    expect(after.get('/')!.chunkIds).toEqual(before.get('/')!.chunkIds);
    expect(after.get('/')!.syncedAt.toISOString()).toBe('2030-01-07T03:00:30.000Z');
    expect(after.get('/b')!.chunkIds).not.toEqual(before.get('/b')!.chunkIds);
    expect(after.get('/b')!.text).toContain('butterflies');
    expect(after.get('/b')!.text).not.toContain('bluebirds');
  });

  it("leaves the removed page out of retrieval and finds the changed page's new text", async () => {
    const bot = await insertBot(server, owner.user.tenant_id);
    await server.database.db
      .insert(botWebSources)
      .values({ tenantId: owner.user.tenant_id, botId: bot.id, webSourceId: sourceId });
    const search = async (query: string) => {
      const reply = await server.post<SearchResult>(`/api/knowledge/search/${bot.id}`, { query }, as(owner));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.hits.map((hit) => pagePath(hit.page_url));
    };
    expect(await search('cormorants')).toEqual([]);
    expect(await search('bluebirds')).toEqual([]);
    expect(await search('butterflies')).toEqual(['/b']);
  });

  it('skips a run while a crawl of the source is queued or running, and re-crawls on request', async () => {
    let release!: () => void;
    web.site.hold = new Promise<void>((r) => {
      release = r;
    });
    const manual = await server.post<CrawlStarted>(
      `/api/crawler/websource/${sourceId}/recrawl`,
      {},
      as(owner),
    );
    expect(manual.status, JSON.stringify(manual.body)).toBe(202);
    expect(manual.body.web_source_id).toBe(sourceId);
    // A second request while it runs answers with the same crawl.
    const again = await server.post<CrawlStarted>(
      `/api/crawler/websource/${sourceId}/recrawl`,
      {},
      as(owner),
    );
    expect(again.body.task_id).toBe(manual.body.task_id);
    expect((await sourceOf()).sync_task_id).toBe(manual.body.task_id);

    clockAt = new Date('2030-01-08T03:05:00.000Z');
    const deadline = Date.now() + 10_000;
    while ((await sourceOf()).next_sync_at !== '2030-01-09T03:00:00.000Z') {
      if (Date.now() > deadline) throw new Error('the due run was never taken');
      await new Promise((r) => setTimeout(r, 50));
    }
    const pending = (await crawlJobs()).filter((j) => j.status === 'queued' || j.status === 'active');
    expect(pending.map((j) => j.id)).toEqual([manual.body.task_id]);

    web.site.hold = null;
    release();
    expect(await waitForTask(manual.body.task_id)).toMatchObject({ status: 'completed' });
    expect((await sourceOf()).last_changes).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 2 });
  });

  it('is enqueued once when two processes tick at the same time', async () => {
    const second = await startTestServer({
      database,
      clock,
      env: { CRAWLER_ALLOW_PRIVATE: 'true', SCHEDULER_TICK_MS: '3600000' },
    });
    try {
      await server.patch(
        `/api/crawler/websource/${sourceId}`,
        { schedule: 'weekly', schedule_hour: 5 },
        as(owner),
      );
      expect((await sourceOf()).next_sync_at).toBe('2030-01-14T05:00:00.000Z');
      const before = (await crawlJobs()).length;
      clockAt = new Date(Date.parse('2030-01-14T05:00:00.000Z') + 1000);
      await Promise.all([
        server.parley.scheduler.tick(),
        second.parley.scheduler.tick(),
        second.parley.scheduler.tick(),
      ]);
      const deadline = Date.now() + 10_000;
      while (
        (await sourceOf()).next_sync_at !==
        new Date(Date.parse('2030-01-14T05:00:00.000Z') + 7 * DAY_MS).toISOString()
      ) {
        if (Date.now() > deadline) throw new Error('the due run was never taken');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await crawlJobs()).length).toBe(before + 1);
      const { sync_task_id } = await sourceOf();
      if (sync_task_id) await waitForTask(sync_task_id);
    } finally {
      await second.close({ dropDatabase: false });
    }
  });
});

describe('the schedule field', () => {
  it.each([
    [{ schedule: 'hourly' }, /Schedule must be one of off, daily, weekly/],
    [{}, /Schedule must be one of/],
    [{ schedule: 'daily', schedule_hour: 24 }, /Hour must be from 0 to 23/],
    [{ schedule: 'daily', schedule_hour: -1 }, /Hour must be from 0 to 23/],
    [{ schedule: 'daily', schedule_hour: 2.5 }, /whole number/],
    [{ schedule: 'daily', schedule_hour: '3' }, /Hour must be a number/],
  ])('refuses %j with 400', async (body, detail) => {
    const reply = await server.patch<{ detail: string }>(
      `/api/crawler/websource/${sourceId}`,
      body,
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.detail).toMatch(detail);
  });

  it('turns the schedule off: nothing is due any more', async () => {
    const reply = await server.patch<WebSource>(
      `/api/crawler/websource/${sourceId}`,
      { schedule: 'off' },
      as(owner),
    );
    expect(reply.body).toMatchObject({ schedule: 'off', schedule_hour: 3, next_sync_at: null });
  });

  it("answers 404 for another workspace's web source, changing nothing", async () => {
    const theirs = as(other);
    const patch = await server.patch(`/api/crawler/websource/${sourceId}`, { schedule: 'daily' }, theirs);
    const recrawl = await server.post(`/api/crawler/websource/${sourceId}/recrawl`, {}, theirs);
    expect([patch.status, recrawl.status]).toEqual([404, 404]);
    expect(await sourceOf()).toMatchObject({ schedule: 'off', sync_task_id: null });
  });
});
