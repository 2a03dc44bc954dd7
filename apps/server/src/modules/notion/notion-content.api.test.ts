import type {
  JobProgress,
  NotionConnectResponse,
  NotionContent,
  NotionStatus,
  NotionTaskResponse,
  NotionWorkspace,
} from '@parley/contracts';
import { NOTION_TEXTS } from '@parley/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askBot, createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import {
  type FakeBlock,
  type FakeWorkspace,
  type NotionFake,
  startNotionFake,
} from '../../test/fakes/notion.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { chunks, documents } from '../knowledge/knowledge.schema.js';

let server: TestServer;
let fake: NotionFake;
const as = (account: Account) => ({ token: account.access_token });

beforeAll(async () => {
  fake = await startNotionFake();
  server = await startTestServer({ env: { NOTION_API_URL: fake.url } });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function connect(account: Account, workspace: FakeWorkspace): Promise<NotionWorkspace> {
  const reply = await server.post<NotionConnectResponse>(
    '/api/notion/connect',
    { token: workspace.token },
    as(account),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.workspace;
}

async function waitJob(account: Account, taskId: string): Promise<JobProgress> {
  for (let i = 0; i < 600; i++) {
    const reply = await server.get<JobProgress>(`/api/jobs/${taskId}`, as(account));
    if (reply.body.status === 'completed' || reply.body.status === 'failed') return reply.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not finish');
}

async function run(account: Account, path: string): Promise<JobProgress> {
  const reply = await server.post<NotionTaskResponse>(path, undefined, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return waitJob(account, reply.body.task_id);
}

const sync = (account: Account, id: number) => run(account, `/api/notion/sync/${id}`);

async function workspaceOf(account: Account, id: number): Promise<NotionWorkspace> {
  const reply = await server.get<NotionStatus>('/api/notion/status', as(account));
  return reply.body.workspaces.find((w) => w.id === id)!;
}

async function pageTitles(account: Account): Promise<string[]> {
  const reply = await server.get<NotionContent>('/api/notion/content', as(account));
  return reply.body.workspaces.flatMap((w) => w.pages.map((p) => p.title)).sort();
}

/** The indexed text of each Notion document of the account, by title, and its heading paths. */
async function indexed(account: Account) {
  const rows = await server.database.db
    .select({ title: documents.title, content: chunks.content, headingPath: chunks.headingPath })
    .from(documents)
    .innerJoin(chunks, eq(chunks.documentId, documents.id))
    .where(and(eq(documents.tenantId, account.user.tenant_id), eq(documents.sourceType, 'notion')))
    .orderBy(asc(chunks.id));
  const byTitle = new Map<string, { text: string; paths: string[] }>();
  for (const row of rows) {
    const entry = byTitle.get(row.title) ?? { text: '', paths: [] };
    entry.text += `${row.content}\n\n`;
    entry.paths.push(row.headingPath ?? '');
    byTitle.set(row.title, entry);
  }
  return byTitle;
}

const text = (t: string): FakeBlock => ({ type: 'paragraph', text: t });

describe('Notion content as a customer writes it', () => {
  let owner: Account;
  let remote: FakeWorkspace;
  let workspaceId: number;

  beforeAll(async () => {
    owner = await signupOwner(server);
    remote = fake.addWorkspace({ name: 'Mug Shop' });
    fake.addDataSource(remote, { id: 'products', title: 'Products' });
    // 105 rows: the database query takes two pages of results (Notion's limit is 100).
    for (let i = 1; i <= 105; i++) {
      fake.setPage(remote, {
        id: `row${i}`,
        dataSourceId: 'products',
        titleProperty: 'Name',
        title: i === 7 ? 'Blue Ceramic Mug' : `Plain item ${i}`,
        properties: {
          Price: { type: 'number', number: i === 7 ? 18.5 : i },
          Status: {
            type: 'status',
            status: { id: 's', name: i === 7 ? 'In stock' : 'Sold out', color: 'green' },
          },
          Colours: {
            type: 'multi_select',
            multi_select: [
              { id: 'a', name: 'Blue', color: 'blue' },
              { id: 'b', name: 'White', color: 'default' },
            ],
          },
          Restock: { type: 'date', date: { start: '2026-03-01', end: null, time_zone: null } },
          Gift: { type: 'checkbox', checkbox: i === 7 },
          Supplier: { type: 'relation', relation: [{ id: 'abc' }], has_more: false },
          Notes: {
            type: 'rich_text',
            rich_text:
              i === 7
                ? [
                    {
                      type: 'text',
                      text: { content: 'Dishwasher safe. '.repeat(8), link: null },
                      annotations: {},
                      plain_text: 'Dishwasher safe. '.repeat(8).trim(),
                      href: null,
                    },
                  ]
                : [],
          },
        },
        blocks: [],
      });
    }
    const manyBlocks = Array.from({ length: 130 }, (_, i) => text(`Care step number ${i + 1}.`));
    fake.setPage(remote, { id: 'care', title: 'Care guide', blocks: manyBlocks });
    fake.setPage(remote, {
      id: 'shared',
      title: 'Shared notice',
      blocks: [
        {
          type: 'synced_block',
          children: [{ type: 'callout', text: 'Closed on public holidays.' }],
        },
      ],
    });
    fake.setPage(remote, {
      id: 'guide',
      title: 'Shop guide',
      blocks: [
        { type: 'heading_1', text: 'Shipping' },
        { type: 'bulleted_list_item', text: 'Portugal: 2 days' },
        { type: 'bulleted_list_item', text: 'Spain: 4 days' },
        { type: 'numbered_list_item', text: 'Order online' },
        { type: 'numbered_list_item', text: 'Pay by card' },
        { type: 'numbered_list_item', text: 'Collect in Porto' },
        { type: 'to_do', text: 'Gift wrap available', checked: true },
        { type: 'quote', text: 'Best mugs in town.' },
        { type: 'callout', text: 'Free shipping over 50 euros.' },
        { type: 'code', text: 'DISCOUNT10', language: 'plain text' },
        {
          type: 'table',
          columnHeader: true,
          children: [
            { type: 'table_row', cells: ['Size', 'Volume', 'Price'] },
            { type: 'table_row', cells: ['Small', '250 ml', '€12'] },
            { type: 'table_row', cells: ['Large', '400 ml', '€16'] },
          ],
        },
        {
          type: 'toggle',
          text: 'Returns',
          children: [{ type: 'paragraph', text: 'Returns are accepted within 30 days.' }],
        },
        {
          type: 'column_list',
          children: [
            { type: 'column', children: [text('Left column: open Monday to Friday.')] },
            { type: 'column', children: [text('Right column: closed on Sunday.')] },
          ],
        },
        // A copy of the synced block on "Shared notice" (its first block), and one of a page not shared.
        { type: 'synced_block', syncedFrom: 'shared-0' },
        { type: 'synced_block', syncedFrom: 'unshared-0' },
        { type: 'child_page', title: 'Wholesale' },
        { type: 'child_database', title: 'Products' },
        { type: 'divider' },
        { type: 'heading_2', text: 'Contact' },
        text('Write to hello@mugs.example.'),
      ],
    });
    workspaceId = (await connect(owner, remote)).id;
  });

  it('syncs database rows with their properties, long pages and every block type as text', async () => {
    const mark = fake.requests.length;
    const job = await sync(owner, workspaceId);
    expect(job.status, job.error ?? '').toBe('completed');
    expect(job).toMatchObject({ current: 108, total: 108 });
    const calls = fake.requests.slice(mark);
    expect(calls.filter((c) => c === 'POST /v1/data_sources/products/query')).toHaveLength(2);
    expect(calls.filter((c) => c === 'GET /v1/blocks/care/children')).toHaveLength(2);
    expect(calls).toContain('GET /v1/blocks/shared-0/children');
    expect(calls).toContain('GET /v1/blocks/unshared-0/children');

    const titles = await pageTitles(owner);
    expect(titles).toHaveLength(108);
    expect(titles).toContain('Blue Ceramic Mug');
    const docs = await indexed(owner);

    // A row: its properties as a one-row table (title first), long text as its own paragraph.
    const mug = docs.get('Blue Ceramic Mug')!;
    expect(mug.paths).toEqual(['Products > Blue Ceramic Mug']);
    const [header, values, , notes] = mug.text.split('\n');
    const cells = (line: string) => line.split(' | ');
    expect(cells(header!)[0]).toBe('Name');
    const row = Object.fromEntries(cells(header!).map((name, i) => [name, cells(values!)[i]]));
    expect(row).toEqual({
      Name: 'Blue Ceramic Mug',
      Price: '18.5',
      Status: 'In stock',
      Colours: 'Blue, White',
      Restock: '2026-03-01',
      Gift: 'Yes',
    });
    expect(notes).toMatch(/^Notes: Dishwasher safe\./);
    expect(docs.get('Plain item 3')!.text).not.toContain('Notes');

    expect(docs.get('Care guide')!.text).toContain('Care step number 130.');
    expect(docs.get('Shared notice')!.text).toContain('Closed on public holidays.');

    const guide = docs.get('Shop guide')!;
    for (const piece of [
      '- Portugal: 2 days\n- Spain: 4 days',
      '1. Order online\n2. Pay by card\n3. Collect in Porto',
      '- [x] Gift wrap available',
      'Best mugs in town.',
      'Free shipping over 50 euros.',
      'DISCOUNT10',
      'Size | Volume | Price\nSmall | 250 ml | €12\nLarge | 400 ml | €16',
      'Returns\n\nReturns are accepted within 30 days.',
      'Left column: open Monday to Friday.\n\nRight column: closed on Sunday.',
      'Closed on public holidays.',
      'Wholesale',
      'Write to hello@mugs.example.',
    ]) {
      expect(guide.text).toContain(piece);
    }
    expect(guide.paths).toContain('Shop guide > Shipping');
    expect(guide.paths).toContain('Shop guide > Shipping > Contact');
  });

  it('answers a question from a database row, with no language model', async () => {
    const bot = await createBotViaApi(server, owner, { bot_name: 'Mug helper' });
    const trained = await run(owner, `/api/training/train/notion/${bot.bot_id}/${workspaceId}`);
    expect(trained.status, trained.error ?? '').toBe('completed');
    const reply = await askBot(server, owner, bot.bot_id, 'How much is the Blue Ceramic Mug?');
    expect(reply.status).toBe(200);
    expect(reply.body.bot_message!.message).toContain('18.5');
    expect(reply.body.bot_message!.sources.map((s) => s.page_title)).toContain('Blue Ceramic Mug');
  });

  it('waits out a 429 with Retry-After instead of failing the sync', async () => {
    fake.setPage(remote, { id: 'care', title: 'Care guide', blocks: [text('Rinse after use.')] });
    fake.rateLimit(3, 1);
    const started = Date.now();
    const mark = fake.requests.length;
    const job = await sync(owner, workspaceId);
    expect(job.status, job.error ?? '').toBe('completed');
    // The three refused requests were sent again after the second Notion asked for, not given up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(fake.requests.slice(mark, mark + 4)).toEqual(Array(4).fill('POST /v1/search'));
    expect(job.current).toBe(108);
    expect((await indexed(owner)).get('Care guide')!.text).toContain('Rinse after use.');
  });

  it('replaces an edited page, and removes a deleted one even while search still lists it', async () => {
    fake.setPage(remote, {
      id: 'row7',
      dataSourceId: 'products',
      titleProperty: 'Name',
      title: 'Blue Ceramic Mug',
      properties: { Price: { type: 'number', number: 21 } },
      blocks: [],
    });
    // Edited, then deleted: search still lists it with its new time, its blocks answer 404.
    fake.setPage(remote, { id: 'shared', title: 'Shared notice', blocks: [text('Edited.')] });
    fake.removePage(remote, 'shared', { keepInSearch: true });
    fake.removePage(remote, 'row9');
    const job = await sync(owner, workspaceId);
    expect(job.status, job.error ?? '').toBe('completed');
    const status = await workspaceOf(owner, workspaceId);
    expect(status.last_changes).toMatchObject({ changed: 1, removed: 2 });
    const docs = await indexed(owner);
    expect(docs.get('Blue Ceramic Mug')!.text).toContain('Blue Ceramic Mug | 21');
    expect(docs.get('Blue Ceramic Mug')!.text).not.toContain('18.5');
    expect(docs.has('Shared notice')).toBe(false);
    expect(docs.has('Plain item 9')).toBe(false);
    const titles = await pageTitles(owner);
    expect(titles).not.toContain('Shared notice');
    expect(titles).toHaveLength(106);
  });

  it('keeps every page when Notion says its listing was cut short', async () => {
    fake.removePage(remote, 'guide');
    fake.searchIncomplete = true;
    try {
      const job = await sync(owner, workspaceId);
      expect(job.status, job.error ?? '').toBe('completed');
    } finally {
      fake.searchIncomplete = false;
    }
    expect(await pageTitles(owner)).toContain('Shop guide');
    expect((await indexed(owner)).has('Shop guide')).toBe(true);
    const job = await sync(owner, workspaceId);
    expect(job.status).toBe('completed');
    expect(await pageTitles(owner)).not.toContain('Shop guide');
  });
});

describe('a revoked Notion token', () => {
  it('shows the owner why syncing stopped, keeps the knowledge, and clears once connected again', async () => {
    const owner = await signupOwner(server);
    const remote = fake.addWorkspace({ name: 'Revoked Shop' });
    fake.setPage(remote, { id: 'rv-faq', title: 'FAQ', blocks: [text('We open at nine.')] });
    const workspace = await connect(owner, remote);
    expect((await sync(owner, workspace.id)).status).toBe('completed');
    expect((await workspaceOf(owner, workspace.id)).last_error).toBeNull();

    fake.revoke(remote);
    const failed = await sync(owner, workspace.id);
    expect(failed).toMatchObject({ status: 'failed', error: NOTION_TEXTS.invalidToken });
    expect(await workspaceOf(owner, workspace.id)).toMatchObject({
      last_error: NOTION_TEXTS.invalidToken,
      sync_task_id: null,
      page_count: 1,
    });
    // Nothing learnt is thrown away because Notion refused the token.
    expect((await indexed(owner)).get('FAQ')!.text).toContain('We open at nine.');

    fake.reauthorize(remote);
    await connect(owner, remote);
    expect((await workspaceOf(owner, workspace.id)).last_error).toBeNull();
    expect((await sync(owner, workspace.id)).status).toBe('completed');
  });
});
