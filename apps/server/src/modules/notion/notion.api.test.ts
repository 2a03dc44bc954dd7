import type {
  JobProgress,
  NotionAuthorizeResponse,
  NotionConnectResponse,
  NotionContent,
  NotionStatus,
  NotionTaskResponse,
  Role,
} from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeammate, signupOwner, tokenFromText } from '../../test/factories.js';
import {
  type FakeBlock,
  type FakeWorkspace,
  type NotionFake,
  startNotionFake,
} from '../../test/fakes/notion.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { botNotionWorkspaces, bots } from '../bots/bots.schema.js';
import { chunks, documents } from '../knowledge/knowledge.schema.js';
import { notionOauthStates, notionWorkspaces } from './notion.schema.js';

let server: TestServer;
let fake: NotionFake;
const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);

beforeAll(async () => {
  // Two results per page of search and of block children: every listing takes several requests.
  fake = await startNotionFake({ pageSizeCap: 2 });
  server = await startTestServer({
    env: {
      NOTION_API_URL: fake.url,
      NOTION_CLIENT_ID: fake.clientId,
      NOTION_CLIENT_SECRET: fake.clientSecret,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const paragraphs = (prefix: string, n: number): FakeBlock[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'paragraph', text: `${prefix} paragraph ${i + 1}.` }));

/** A workspace in the fake with three pages (search needs two requests), each with five blocks. */
function seedWorkspace(name = 'Acme Notion'): FakeWorkspace {
  const workspace = fake.addWorkspace({ name });
  fake.setPage(workspace, {
    id: `${name.replaceAll(' ', '')}-handbook`,
    title: 'Handbook',
    blocks: [
      { type: 'heading_1', text: 'Refunds' },
      ...paragraphs('Refunds are paid within fourteen days', 2),
      {
        type: 'toggle',
        text: 'Details',
        children: [{ type: 'bulleted_list_item', text: 'Nested zebra policy applies to returns' }],
      },
      { type: 'heading_2', text: 'Shipping' },
      ...paragraphs('Orders ship from Lisbon', 1),
    ],
  });
  fake.setPage(workspace, {
    id: `${name.replaceAll(' ', '')}-faq`,
    title: 'FAQ',
    blocks: paragraphs('FAQ', 3),
  });
  fake.setPage(workspace, {
    id: `${name.replaceAll(' ', '')}-team`,
    title: 'Team',
    blocks: paragraphs('Team', 1),
  });
  return workspace;
}

async function connect(account: Account, workspace: FakeWorkspace) {
  const reply = await server.post<NotionConnectResponse>(
    '/api/notion/connect',
    { token: workspace.token },
    as(account),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.workspace;
}

async function waitJob(account: Account, taskId: string): Promise<JobProgress> {
  for (let i = 0; i < 200; i++) {
    const reply = await server.get<JobProgress>(`/api/jobs/${taskId}`, as(account));
    expect(reply.status).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

async function sync(account: Account, id: number) {
  const reply = await server.post<NotionTaskResponse>(`/api/notion/sync/${id}`, undefined, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const job = await waitJob(account, reply.body.task_id);
  expect(job.status, job.error ?? '').toBe('completed');
  return job;
}

async function content(account: Account) {
  const reply = await server.get<NotionContent>('/api/notion/content', as(account));
  expect(reply.status).toBe(200);
  return reply.body;
}

async function insertBot(account: Account, name = 'Support bot') {
  const [bot] = await server.database.db
    .insert(bots)
    .values({ tenantId: account.user.tenant_id, botName: `${name} ${Math.random()}` })
    .returning({ id: bots.id });
  return bot!.id;
}

const sealedTokens = async () =>
  (
    await server.database.db.select({ sealed: notionWorkspaces.accessTokenSealed }).from(notionWorkspaces)
  ).map((r) => r.sealed);

describe('Notion OAuth', () => {
  const authorize = async (account: Account) => {
    const reply = await server.get<NotionAuthorizeResponse>('/api/notion/authorize', as(account));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return new URL(reply.body.url);
  };
  const callback = async (params: Record<string, string>) => {
    const response = await fetch(`${server.url}/api/notion/callback?${new URLSearchParams(params)}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!, 'http://parley.test');
  };

  it('builds the consent URL, exchanges the code and stores the workspace with its token sealed', async () => {
    const owner = await signupOwner(server);
    const status = await server.get<NotionStatus>('/api/notion/status', as(owner));
    expect(status.body).toEqual({ connected: false, oauth_configured: true, workspaces: [] });

    const url = await authorize(owner);
    expect(url.origin + url.pathname).toBe(`${fake.url}/v1/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('owner')).toBe('user');
    const redirectUri = url.searchParams.get('redirect_uri')!;
    expect(redirectUri).toBe('http://parley.test/api/notion/callback');
    const state = url.searchParams.get('state')!;

    const workspace = seedWorkspace('OAuth Space');
    const landed = await callback({ code: fake.issueCode(workspace, redirectUri), state });
    expect(landed.pathname).toBe('/bot/knowledge/notion');
    expect(landed.searchParams.get('connected')).toBe('1');

    const after = await server.get<NotionStatus>('/api/notion/status', as(owner));
    expect(after.body.connected).toBe(true);
    expect(after.body.workspaces).toMatchObject([
      { workspace_id: workspace.workspaceId, workspace_name: 'OAuth Space', trained: false, page_count: 0 },
    ]);
    expect(JSON.stringify(after.body)).not.toContain(workspace.token);
    const sealed = await sealedTokens();
    expect(sealed.length).toBeGreaterThan(0);
    for (const value of sealed) expect(value).not.toContain(workspace.token);

    // A replay of the same state is refused, and nothing more is stored.
    const replay = await callback({ code: fake.issueCode(workspace, redirectUri), state });
    expect(replay.searchParams.get('error')).toMatch(/already used/);
  });

  it('refuses a tampered, expired or unknown state', async () => {
    const owner = await signupOwner(server);
    const workspace = seedWorkspace('Refused Space');
    const url = await authorize(owner);
    const redirectUri = url.searchParams.get('redirect_uri')!;
    const state = url.searchParams.get('state')!;
    const [body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { t: number };
    const forged = Buffer.from(JSON.stringify({ ...payload, t: payload.t + 1 })).toString('base64url');

    for (const bad of [`${forged}.${mac}`, `${body}.${mac}x`, 'garbage', '']) {
      const landed = await callback({ code: fake.issueCode(workspace, redirectUri), state: bad });
      expect(landed.searchParams.get('error')).toMatch(/not valid/);
    }
    const expiring = await authorize(owner);
    await server.database.db.update(notionOauthStates).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await callback({
      code: fake.issueCode(workspace, redirectUri),
      state: expiring.searchParams.get('state')!,
    });
    expect(expired.searchParams.get('error')).toMatch(/expired/);
    // The untouched first state was also expired by the update: nothing was connected.
    const status = await server.get<NotionStatus>('/api/notion/status', as(owner));
    expect(status.body.workspaces).toEqual([]);
  });

  it('refuses a wrong token on connect without storing anything', async () => {
    const owner = await signupOwner(server);
    const reply = await server.post<{ detail: string }>(
      '/api/notion/connect',
      { token: 'secret_wrong' },
      as(owner),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toMatch(/refused/);
    const status = await server.get<NotionStatus>('/api/notion/status', as(owner));
    expect(status.body.connected).toBe(false);
  });
});

describe('Notion sync and training', () => {
  it('syncs every page with pagination, incrementally, and trains into a bot', async () => {
    const owner = await signupOwner(server);
    const remote = seedWorkspace('Sync Space');
    const workspace = await connect(owner, remote);
    expect(workspace).toMatchObject({ workspace_name: 'Sync Space', page_count: 0 });

    const before = fake.requests.length;
    const job = await sync(owner, workspace.id);
    expect(job).toMatchObject({ current: 3, total: 3, percentage: 100 });
    const calls = fake.requests.slice(before);
    // One search for databases (none), two for the three pages.
    expect(calls.filter((c) => c === 'POST /v1/search').length).toBe(3);
    expect(calls.filter((c) => c === 'GET /v1/blocks/SyncSpace-handbook/children').length).toBe(3);
    expect(calls).toContain('GET /v1/blocks/SyncSpace-handbook-3/children');

    const listed = await content(owner);
    expect(listed.workspaces).toHaveLength(1);
    expect(listed.workspaces[0]!.pages.map((p) => p.title).sort()).toEqual(['FAQ', 'Handbook', 'Team']);
    expect(listed.workspaces[0]!.last_synced_at).not.toBeNull();
    const handbook = listed.workspaces[0]!.pages.find((p) => p.title === 'Handbook')!;
    expect(handbook.character_count).toBeGreaterThan(0);
    expect(listed.workspaces[0]!.pages.every((p) => !p.trained)).toBe(true);

    const chunksOf = (pageId: number) =>
      server.database.db
        .select({ content: chunks.content, headingPath: chunks.headingPath, pageUrl: chunks.pageUrl })
        .from(chunks)
        .innerJoin(documents, eq(documents.id, chunks.documentId))
        .where(and(eq(documents.sourceType, 'notion'), eq(documents.sourceId, pageId)));
    const handbookChunks = await chunksOf(handbook.id);
    const text = handbookChunks.map((c) => c.content).join('\n');
    expect(text).toContain('Nested zebra policy');
    expect(text).toContain('Orders ship from Lisbon');
    // Each section links to its heading block: the page's address, '#', the block id without dashes.
    const bySection = new Map(handbookChunks.map((c) => [c.headingPath, c.pageUrl]));
    const page = 'https://www.notion.so/SyncSpacehandbook';
    expect(bySection.get('Handbook > Refunds')).toBe(`${page}#SyncSpacehandbook0`);
    expect(bySection.get('Handbook > Refunds > Shipping')).toBe(`${page}#SyncSpacehandbook4`);
    // A page without headings is one section under its title, linking to the page itself.
    const faqPage = listed.workspaces[0]!.pages.find((p) => p.title === 'FAQ')!;
    expect((await chunksOf(faqPage.id)).map((c) => [c.headingPath, c.pageUrl])).toEqual([
      ['FAQ', 'https://www.notion.so/SyncSpacefaq'],
    ]);

    // Edit one page, remove another: only the edited one is fetched again, the removed one is gone.
    fake.setPage(remote, { id: 'SyncSpace-faq', title: 'FAQ', blocks: paragraphs('Updated answers', 2) });
    fake.removePage(remote, 'SyncSpace-team');
    const mark = fake.requests.length;
    await sync(owner, workspace.id);
    const again = fake.requests.slice(mark);
    expect(again).toContain('GET /v1/blocks/SyncSpace-faq/children');
    expect(again).not.toContain('GET /v1/blocks/SyncSpace-handbook/children');
    const resynced = await content(owner);
    expect(resynced.workspaces[0]!.pages.map((p) => p.title).sort()).toEqual(['FAQ', 'Handbook']);
    const docs = await server.database.db
      .select({ title: documents.title })
      .from(documents)
      .where(and(eq(documents.tenantId, owner.user.tenant_id), eq(documents.sourceType, 'notion')));
    expect(docs.map((d) => d.title).sort()).toEqual(['FAQ', 'Handbook']);
    const faqChunks = await server.database.db
      .select({ content: chunks.content })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'notion')));
    expect(faqChunks.map((c) => c.content).join('\n')).toContain('Updated answers');

    // Train into a bot: the link exists, the chunks carry source_type notion, the workspace is trained.
    const botId = await insertBot(owner);
    const train = await server.post<NotionTaskResponse>(
      `/api/training/train/notion/${botId}/${workspace.id}`,
      undefined,
      as(owner),
    );
    expect(train.status, JSON.stringify(train.body)).toBe(202);
    const trained = await waitJob(owner, train.body.task_id);
    expect(trained).toMatchObject({ status: 'completed', current: 2, total: 2, percentage: 100 });
    const status = await server.get<NotionStatus>('/api/notion/status', as(owner));
    expect(status.body.workspaces[0]).toMatchObject({ trained: true, page_count: 2 });
    expect((await content(owner)).workspaces[0]!.pages.every((p) => p.trained)).toBe(true);
    const links = await server.database.db
      .select()
      .from(botNotionWorkspaces)
      .where(eq(botNotionWorkspaces.notionWorkspaceId, workspace.id));
    expect(links).toMatchObject([{ botId, tenantId: owner.user.tenant_id }]);
    const notionChunks = await server.database.db
      .select({ id: chunks.id, collectionId: chunks.collectionId })
      .from(chunks)
      .where(and(eq(chunks.tenantId, owner.user.tenant_id), eq(chunks.sourceType, 'notion')));
    expect(notionChunks.length).toBeGreaterThan(0);
    expect(new Set(notionChunks.map((c) => c.collectionId))).toEqual(new Set([workspace.id]));

    // Delete a page, then the workspace: documents and chunks go with them.
    const faq = resynced.workspaces[0]!.pages.find((p) => p.title === 'FAQ')!;
    const deletedPage = await server.delete(`/api/notion/pages/${faq.id}`, as(owner));
    expect(deletedPage.status).toBe(200);
    expect((await content(owner)).workspaces[0]!.pages.map((p) => p.title)).toEqual(['Handbook']);
    const deleted = await server.delete(`/api/notion/workspaces/${workspace.id}`, as(owner));
    expect(deleted.status).toBe(200);
    expect((await content(owner)).workspaces).toEqual([]);
    const left = await server.database.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.tenantId, owner.user.tenant_id), eq(documents.sourceType, 'notion')));
    expect(left).toEqual([]);
  });

  it('reports a refused token as the failed job error', async () => {
    const owner = await signupOwner(server);
    const remote = seedWorkspace('Revoked Space');
    const workspace = await connect(owner, remote);
    fake.revoke(remote);
    const reply = await server.post<NotionTaskResponse>(
      `/api/notion/sync/${workspace.id}`,
      undefined,
      as(owner),
    );
    expect(reply.status).toBe(202);
    const job = await waitJob(owner, reply.body.task_id);
    expect(job).toMatchObject({ status: 'failed', error: 'The Notion token was refused by Notion' });
  });
});

describe('Notion access', () => {
  let owner: Account;
  let other: Account;
  let workspaceId: number;
  let pageId: number;

  beforeAll(async () => {
    owner = await signupOwner(server);
    other = await signupOwner(server);
    const workspace = await connect(owner, seedWorkspace('Guarded Space'));
    workspaceId = workspace.id;
    await sync(owner, workspaceId);
    pageId = (await content(owner)).workspaces[0]!.pages[0]!.id;
  });

  it("answers 404 for another tenant's ids and changes nothing", async () => {
    const otherBot = await insertBot(other);
    const ownBot = await insertBot(owner);
    const attempts = [
      server.post(`/api/notion/sync/${workspaceId}`, undefined, as(other)),
      server.post(`/api/training/train/notion/${otherBot}/${workspaceId}`, undefined, as(other)),
      server.post(`/api/training/train/notion/${ownBot}/${workspaceId}`, undefined, as(other)),
      server.delete(`/api/notion/workspaces/${workspaceId}`, as(other)),
      server.patch(`/api/notion/workspaces/${workspaceId}`, { schedule: 'daily' }, as(other)),
      server.delete(`/api/notion/pages/${pageId}`, as(other)),
    ];
    for (const reply of await Promise.all(attempts)) expect(reply.status).toBe(404);
    // The owner cannot train into another tenant's bot either.
    const foreignBot = await server.post(
      `/api/training/train/notion/${otherBot}/${workspaceId}`,
      undefined,
      as(owner),
    );
    expect(foreignBot.status).toBe(404);

    expect((await content(other)).workspaces).toEqual([]);
    const mine = await content(owner);
    expect(mine.workspaces).toHaveLength(1);
    expect(mine.workspaces[0]!.pages).toHaveLength(3);
    expect(mine.workspaces[0]!.trained).toBe(false);
    expect(mine.workspaces[0]!.schedule).toBe('off');
  });

  it("refuses a Member without 'Create Bot'", async () => {
    const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
    const member = roles.body.find((r) => r.name === 'Member')!;
    const teammate = await addTeammate(server, owner, member, readToken);
    const attempts = [
      server.get('/api/notion/status', as(teammate)),
      server.get('/api/notion/content', as(teammate)),
      server.get('/api/notion/authorize', as(teammate)),
      server.post('/api/notion/connect', { token: 'secret_x' }, as(teammate)),
      server.post(`/api/notion/sync/${workspaceId}`, undefined, as(teammate)),
      server.post(`/api/training/train/notion/1/${workspaceId}`, undefined, as(teammate)),
      server.delete(`/api/notion/workspaces/${workspaceId}`, as(teammate)),
      server.patch(`/api/notion/workspaces/${workspaceId}`, { schedule: 'daily' }, as(teammate)),
      server.delete(`/api/notion/pages/${pageId}`, as(teammate)),
    ];
    for (const reply of await Promise.all(attempts)) expect(reply.status).toBe(403);
    expect((await content(owner)).workspaces[0]!.pages).toHaveLength(3);
  });
});
