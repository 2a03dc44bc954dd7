import type { CrawlStarted, CrawlStatus } from '@parley/contracts';
import { expect } from 'vitest';
import type { Account, TestServer } from './server.js';

/** Crawls a site through the API as its owner would and waits for the crawl: the web source's id. */
export async function crawlSite(
  server: TestServer,
  account: Account,
  url: string,
  name: string,
): Promise<number> {
  const as = { token: account.access_token };
  const started = await server.post<CrawlStarted>('/api/crawler/crawl', { url, name }, as);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reply = await server.get<CrawlStatus>(`/api/crawler/crawl/${started.body.task_id}/status`, as);
    if (reply.body.status === 'completed') return started.body.web_source_id;
    if (reply.body.status === 'failed' || Date.now() > deadline) throw new Error(JSON.stringify(reply.body));
    await new Promise((r) => setTimeout(r, 50));
  }
}
