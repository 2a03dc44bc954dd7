import type {
  JobProgress,
  NotionConnectResponse,
  NotionStatus,
  NotionTaskResponse,
  NotionWorkspace,
} from '@parley/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { signupOwner } from '../../test/factories.js';
import { type FakeBlock, type NotionFake, startNotionFake } from '../../test/fakes/notion.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { chunks, documents } from '../knowledge/knowledge.schema.js';

/** The time the test sets by hand: schedules and sync times read it through `clock`. */
let clockAt = new Date('2030-03-04T00:00:00.000Z');
const clock: Clock = { now: () => new Date(clockAt) };

let server: TestServer;
let fake: NotionFake;
let owner: Account;
let other: Account;
const as = (account: Account) => ({ token: account.access_token });

const paragraphs = (prefix: string, n: number): FakeBlock[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'paragraph', text: `${prefix} paragraph ${i + 1}.` }));
const handbook = paragraphs('Refunds are paid within fourteen days', 2);

beforeAll(async () => {
  fake = await startNotionFake();
  server = await startTestServer({
    clock,
    env: { NOTION_API_URL: fake.url, SCHEDULER_TICK_MS: '50' },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function workspaceOf(id: number, account: Account = owner): Promise<NotionWorkspace> {
  const reply = await server.get<NotionStatus>('/api/notion/status', as(account));
  expect(reply.status).toBe(200);
  return reply.body.workspaces.find((w) => w.id === id)!;
}

async function waitJob(taskId: string): Promise<JobProgress> {
  for (let i = 0; i < 400; i++) {
    const reply = await server.get<JobProgress>(`/api/jobs/${taskId}`, as(owner));
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

/** Chunk ids and text of each Notion page of the owner, by title. */
async function indexed() {
  const rows = await server.database.db
    .select({ title: documents.title, chunkId: chunks.id, content: chunks.content })
    .from(documents)
    .innerJoin(chunks, eq(chunks.documentId, documents.id))
    .where(and(eq(documents.tenantId, owner.user.tenant_id), eq(documents.sourceType, 'notion')))
    .orderBy(asc(chunks.id));
  const byTitle = new Map<string, { chunkIds: number[]; text: string }>();
  for (const row of rows) {
    const entry = byTitle.get(row.title) ?? { chunkIds: [], text: '' };
    entry.chunkIds.push(row.chunkId);
    entry.text += row.content;
    byTitle.set(row.title, entry);
  }
  return byTitle;
}

describe('a scheduled Notion re-sync', () => {
  let workspaceId: number;

  it('re-syncs at its hour: edited pages fetched, only changed text retrained, removed pages gone', async () => {
    const remote = fake.addWorkspace({ name: 'Scheduled Space' });
    fake.setPage(remote, { id: 'handbook', title: 'Handbook', blocks: handbook });
    fake.setPage(remote, { id: 'faq', title: 'FAQ', blocks: paragraphs('Old answers', 2) });
    fake.setPage(remote, { id: 'team', title: 'Team', blocks: paragraphs('Team', 1) });
    fake.setPage(remote, { id: 'careers', title: 'Careers', blocks: paragraphs('Careers', 1) });
    const connected = await server.post<NotionConnectResponse>(
      '/api/notion/connect',
      { token: remote.token },
      as(owner),
    );
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    workspaceId = connected.body.workspace.id;
    const first = await server.post<NotionTaskResponse>(
      `/api/notion/sync/${workspaceId}`,
      undefined,
      as(owner),
    );
    expect(await waitJob(first.body.task_id)).toMatchObject({ status: 'completed' });
    expect(await workspaceOf(workspaceId)).toMatchObject({
      page_count: 4,
      last_synced_at: clockAt.toISOString(),
      last_changes: { added: 4, changed: 0, removed: 0, unchanged: 0 },
      schedule: 'off',
    });

    const set = await server.patch<NotionWorkspace>(
      `/api/notion/workspaces/${workspaceId}`,
      { schedule: 'weekly', schedule_hour: 6 },
      as(owner),
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      schedule: 'weekly',
      schedule_hour: 6,
      next_sync_at: '2030-03-04T06:00:00.000Z',
    });

    const before = await indexed();
    fake.setPage(remote, { id: 'handbook', title: 'Handbook', blocks: handbook }); // edited, same text
    fake.setPage(remote, { id: 'faq', title: 'FAQ', blocks: paragraphs('New answers', 2) });
    fake.setPage(remote, { id: 'pricing', title: 'Pricing', blocks: paragraphs('Prices', 1) });
    fake.removePage(remote, 'team');
    const mark = fake.requests.length;

    clockAt = new Date('2030-03-04T06:00:10.000Z');
    const deadline = Date.now() + 30_000;
    let after = await workspaceOf(workspaceId);
    while (after.last_synced_at !== clockAt.toISOString() || after.sync_task_id !== null) {
      if (Date.now() > deadline) throw new Error('the scheduled re-sync never finished');
      await new Promise((r) => setTimeout(r, 50));
      after = await workspaceOf(workspaceId);
    }
    expect(after).toMatchObject({
      page_count: 4,
      last_changes: { added: 1, changed: 1, removed: 1, unchanged: 2 },
      next_sync_at: '2030-03-11T06:00:00.000Z',
    });

    const calls = fake.requests.slice(mark);
    expect(calls).toContain('GET /v1/blocks/faq/children');
    expect(calls).toContain('GET /v1/blocks/handbook/children');
    expect(calls).not.toContain('GET /v1/blocks/careers/children');
    const now = await indexed();
    expect([...now.keys()].sort()).toEqual(['Careers', 'FAQ', 'Handbook', 'Pricing']);
    expect(now.get('Handbook')!.chunkIds).toEqual(before.get('Handbook')!.chunkIds);
    expect(now.get('Careers')!.chunkIds).toEqual(before.get('Careers')!.chunkIds);
    expect(now.get('FAQ')!.chunkIds).not.toEqual(before.get('FAQ')!.chunkIds);
    expect(now.get('FAQ')!.text).toContain('New answers');
    const synced = await server.database.db
      .select({ title: documents.title, syncedAt: documents.syncedAt })
      .from(documents)
      .where(and(eq(documents.tenantId, owner.user.tenant_id), eq(documents.title, 'Careers')));
    expect(synced[0]!.syncedAt.toISOString()).toBe('2030-03-04T06:00:10.000Z');
  });

  it('refuses a bad schedule with 400 and answers 404 for another workspace', async () => {
    const bad = await server.patch<{ detail: string }>(
      `/api/notion/workspaces/${workspaceId}`,
      { schedule: 'monthly' },
      as(owner),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Schedule must be one of/);
    const foreign = await server.patch(
      `/api/notion/workspaces/${workspaceId}`,
      { schedule: 'off' },
      as(other),
    );
    expect(foreign.status).toBe(404);
    expect((await workspaceOf(workspaceId)).schedule).toBe('weekly');
  });
});
