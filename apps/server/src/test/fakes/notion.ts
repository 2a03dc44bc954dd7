import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A block as tests describe it; the fake gives it an id (`<parent id>-<index>`) and Notion's JSON
 * shape: `cells` for a table_row, `checked` for a to_do, `language` for code, `title` for a child
 * page or database, `syncedFrom` (the original's id) for a duplicate synced_block, `columnHeader`
 * for a table.
 */
export type FakeBlock = {
  type: string;
  text?: string;
  children?: FakeBlock[];
  cells?: string[];
  checked?: boolean;
  language?: string;
  title?: string;
  syncedFrom?: string;
  columnHeader?: boolean;
};
/**
 * A page; a database row has `dataSourceId` and `properties` in Notion's wire shape (e.g.
 * `{ Price: { type: 'number', number: 12 } }`), its title under `titleProperty` (default 'title').
 */
export type FakePage = {
  id: string;
  title: string;
  lastEditedTime: string;
  blocks: FakeBlock[];
  dataSourceId?: string;
  titleProperty?: string;
  properties?: Record<string, Record<string, unknown>>;
};
export type FakeDataSource = { id: string; databaseId: string; title: string };

export type FakeWorkspace = {
  token: string;
  workspaceId: string;
  workspaceName: string;
  botId: string;
  pages: Map<string, FakePage>;
  dataSources: Map<string, FakeDataSource>;
  /** Pages deleted in Notion that search still lists (its index lags): their blocks answer 404. */
  staleInSearch: Set<string>;
};

export type NotionFake = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every request as "METHOD /path", in order. */
  requests: string[];
  /** A workspace reachable with `token` (an internal integration token or an OAuth access token). */
  addWorkspace(options?: { token?: string; name?: string }): FakeWorkspace;
  /** Adds or replaces a page; its last_edited_time moves to now unless given. */
  setPage(
    workspace: FakeWorkspace,
    page: Omit<FakePage, 'lastEditedTime'> & { lastEditedTime?: string },
  ): FakePage;
  /** Deletes (or unshares) a page; `keepInSearch`: search still lists it for a while, as Notion's index lags. */
  removePage(workspace: FakeWorkspace, pageId: string, options?: { keepInSearch?: boolean }): void;
  /** Adds a database with one data source; its rows are pages with `dataSourceId` set to its id. */
  addDataSource(workspace: FakeWorkspace, source: { id: string; title: string }): FakeDataSource;
  /** The next `times` requests answer 429 rate_limited with `Retry-After: seconds`. */
  rateLimit(times: number, seconds?: number): void;
  /** Search answers mark their result incomplete (request_status), as Notion does past its result limit. */
  searchIncomplete: boolean;
  /** Revokes the workspace's token: every later call with it answers 401. */
  revoke(workspace: FakeWorkspace): void;
  /** Gives the workspace a new token (the owner connected it again); the old one stays revoked. */
  reauthorize(workspace: FakeWorkspace): string;
  /** An OAuth code that /v1/oauth/token exchanges (once) for the workspace's token. */
  issueCode(workspace: FakeWorkspace, redirectUri: string): string;
  close(): Promise<void>;
};

type Stored = { id: string; block: FakeBlock; hasChildren: boolean };

/**
 * A Notion API on loopback speaking its JSON (version 2025-09-03): search (pages and data sources,
 * cursors), data source queries (cursors), block children (cursors), pages, users/me and the OAuth
 * token exchange; 429 with Retry-After on demand. Bearer token and Notion-Version are required.
 * `pageSizeCap` lowers the largest page size (Notion's is 100) so tests see several pages.
 */
export async function startNotionFake(options: { pageSizeCap?: number } = {}): Promise<NotionFake> {
  const cap = options.pageSizeCap ?? 100;
  const clientId = 'notion-client-id';
  const clientSecret = 'notion-client-secret';
  const workspaces = new Map<string, FakeWorkspace>();
  const codes = new Map<string, { token: string; redirectUri: string }>();
  const requests: string[] = [];
  let limited = { times: 0, seconds: 1 };
  const state = { searchIncomplete: false };
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const tick = () => {
    clock += 60_000;
    return new Date(clock).toISOString();
  };

  /** Block children by parent id (a page id or a block id), rebuilt when pages change. */
  const children = (workspace: FakeWorkspace, parentId: string): Stored[] | undefined => {
    for (const page of workspace.pages.values()) {
      const found = findChildren(page.id, page.blocks, parentId);
      if (found) return 'list' in found ? found.list : children(workspace, found.synced);
    }
    return undefined;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 500, notionError(500, 'internal_server_error', String(error)));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    requests.push(`${req.method} ${path}`);
    const body = await readJson(req);
    if (limited.times > 0) {
      limited.times--;
      res.setHeader('retry-after', String(limited.seconds));
      return send(res, 429, notionError(429, 'rate_limited', 'You have been rate limited.'));
    }
    if (!req.headers['notion-version']) {
      return send(res, 400, notionError(400, 'missing_version', 'Notion-Version header failed validation'));
    }
    if (req.method === 'POST' && path === '/v1/oauth/token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        return send(res, 401, notionError(401, 'unauthorized', 'Invalid client credentials.'));
      }
      const grant = codes.get(String(body.code ?? ''));
      if (body.grant_type !== 'authorization_code' || !grant || grant.redirectUri !== body.redirect_uri) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid code.' });
      }
      codes.delete(String(body.code));
      const workspace = workspaces.get(grant.token)!;
      return send(res, 200, {
        access_token: workspace.token,
        token_type: 'bearer',
        refresh_token: null,
        bot_id: workspace.botId,
        workspace_id: workspace.workspaceId,
        workspace_name: workspace.workspaceName,
        workspace_icon: null,
        owner: { type: 'user', user: { object: 'user', id: randomUUID() } },
        duplicated_template_id: null,
      });
    }
    const auth = req.headers.authorization ?? '';
    const workspace = auth.startsWith('Bearer ') ? workspaces.get(auth.slice(7)) : undefined;
    if (!workspace) return send(res, 401, notionError(401, 'unauthorized', 'API token is invalid.'));

    if (req.method === 'GET' && path === '/v1/users/me') {
      return send(res, 200, {
        object: 'user',
        id: workspace.botId,
        type: 'bot',
        name: 'Parley',
        avatar_url: null,
        bot: { owner: { type: 'workspace', workspace: true }, workspace_name: workspace.workspaceName },
      });
    }
    if (req.method === 'POST' && path === '/v1/search') {
      const filter = body.filter as { property?: string; value?: string } | undefined;
      const results = [
        ...(!filter || filter.value === 'page' ? [...workspace.pages.values()].map(pageJson) : []),
        ...(!filter || filter.value === 'data_source'
          ? [...workspace.dataSources.values()].map(dataSourceJson)
          : []),
      ];
      const listed = paginate(results, body.start_cursor, body.page_size, {
        type: 'page_or_data_source',
        page_or_data_source: {},
      });
      if (state.searchIncomplete) {
        Object.assign(listed, {
          request_status: { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' },
        });
      }
      return send(res, 200, listed);
    }
    const queryMatch = /^\/v1\/data_sources\/([^/]+)\/query$/.exec(path);
    if (req.method === 'POST' && queryMatch) {
      const source = workspace.dataSources.get(queryMatch[1]!);
      if (!source) return send(res, 404, notionError(404, 'object_not_found', 'Could not find data source.'));
      const rows = [...workspace.pages.values()].filter(
        (p) => p.dataSourceId === source.id && !workspace.staleInSearch.has(p.id),
      );
      return send(
        res,
        200,
        paginate(rows.map(pageJson), body.start_cursor, body.page_size, {
          type: 'page_or_data_source',
          page_or_data_source: {},
        }),
      );
    }
    const pageMatch = /^\/v1\/pages\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && pageMatch) {
      const page = workspace.pages.get(pageMatch[1]!);
      if (!page || workspace.staleInSearch.has(page.id))
        return send(res, 404, notionError(404, 'object_not_found', 'Could not find page.'));
      return send(res, 200, pageJson(page));
    }
    const blockMatch = /^\/v1\/blocks\/([^/]+)\/children$/.exec(path);
    if (req.method === 'GET' && blockMatch) {
      const owner = blockMatch[1]!.split('-')[0]!;
      const list = workspace.staleInSearch.has(owner) ? undefined : children(workspace, blockMatch[1]!);
      if (!list) return send(res, 404, notionError(404, 'object_not_found', 'Could not find block.'));
      return send(
        res,
        200,
        paginate(
          list.map(blockJson),
          url.searchParams.get('start_cursor') ?? undefined,
          url.searchParams.get('page_size') ?? undefined,
          { type: 'block', block: {} },
        ),
      );
    }
    return send(res, 404, notionError(404, 'invalid_request_url', 'Invalid request URL.'));
  }

  function paginate(items: unknown[], cursor: unknown, size: unknown, extra: Record<string, unknown>) {
    const start = cursor ? Number(cursor) : 0;
    const pageSize = Math.min(Number(size) || 100, cap, 100);
    const results = items.slice(start, start + pageSize);
    const next = start + pageSize < items.length ? String(start + pageSize) : null;
    return { object: 'list', results, next_cursor: next, has_more: next !== null, ...extra };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    requests,
    addWorkspace: ({ token = `secret_${randomUUID()}`, name = 'Acme Notion' } = {}) => {
      const workspace: FakeWorkspace = {
        token,
        workspaceId: randomUUID(),
        workspaceName: name,
        botId: randomUUID(),
        pages: new Map(),
        dataSources: new Map(),
        staleInSearch: new Set(),
      };
      workspaces.set(token, workspace);
      return workspace;
    },
    setPage: (workspace, page) => {
      const stored = { ...page, lastEditedTime: page.lastEditedTime ?? tick() };
      workspace.pages.set(page.id, stored);
      workspace.staleInSearch.delete(page.id);
      return stored;
    },
    removePage: (workspace, pageId, { keepInSearch = false } = {}) => {
      if (keepInSearch) workspace.staleInSearch.add(pageId);
      else workspace.pages.delete(pageId);
    },
    addDataSource: (workspace, source) => {
      const stored = { ...source, databaseId: `db${source.id}` };
      workspace.dataSources.set(source.id, stored);
      return stored;
    },
    rateLimit: (times, seconds = 1) => {
      limited = { times, seconds };
    },
    get searchIncomplete() {
      return state.searchIncomplete;
    },
    set searchIncomplete(value: boolean) {
      state.searchIncomplete = value;
    },
    revoke: (workspace) => {
      workspaces.delete(workspace.token);
    },
    reauthorize: (workspace) => {
      workspaces.delete(workspace.token);
      workspace.token = `secret_${randomUUID()}`;
      workspaces.set(workspace.token, workspace);
      return workspace.token;
    },
    issueCode: (workspace, redirectUri) => {
      const code = `code-${randomUUID()}`;
      codes.set(code, { token: workspace.token, redirectUri });
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The stored children of `parentId` inside a page: the page's own blocks, or a block's; a duplicate
 * synced block answers its original's id instead (Notion serves the original's children).
 */
function findChildren(
  pageId: string,
  blocks: FakeBlock[],
  parentId: string,
): { list: Stored[] } | { synced: string } | undefined {
  const walk = (ownerId: string, list: FakeBlock[]): ReturnType<typeof findChildren> => {
    const stored = list.map((b, i) => ({
      id: `${ownerId}-${i}`,
      block: b,
      hasChildren: Boolean(b.children?.length || b.syncedFrom),
    }));
    if (ownerId === parentId) return { list: stored };
    for (const [i, b] of list.entries()) {
      if (b.syncedFrom && `${ownerId}-${i}` === parentId) return { synced: b.syncedFrom };
      if (b.children?.length) {
        const found = walk(`${ownerId}-${i}`, b.children);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(pageId, blocks);
}

const richText = (text: string) => (text ? [richTextItem(text)] : []);

const richTextItem = (text: string) => ({
  type: 'text',
  text: { content: text, link: null },
  annotations: {
    bold: false,
    italic: false,
    strikethrough: false,
    underline: false,
    code: false,
    color: 'default',
  },
  plain_text: text,
  href: null,
});

const pageJson = (page: FakePage) => ({
  object: 'page',
  id: page.id,
  created_time: '2026-01-01T00:00:00.000Z',
  last_edited_time: page.lastEditedTime,
  created_by: { object: 'user', id: 'creator' },
  last_edited_by: { object: 'user', id: 'editor' },
  cover: null,
  icon: null,
  parent: page.dataSourceId
    ? { type: 'data_source_id', data_source_id: page.dataSourceId, database_id: `db${page.dataSourceId}` }
    : { type: 'workspace', workspace: true },
  archived: false,
  in_trash: false,
  is_locked: false,
  properties: {
    ...Object.fromEntries(
      Object.entries(page.properties ?? {}).map(([name, value], i) => [name, { id: `p${i}`, ...value }]),
    ),
    [page.titleProperty ?? 'title']: { id: 'title', type: 'title', title: richText(page.title) },
  },
  url: `https://www.notion.so/${page.id.replaceAll('-', '')}`,
  public_url: null,
});

const dataSourceJson = (source: FakeDataSource) => ({
  object: 'data_source',
  id: source.id,
  created_time: '2026-01-01T00:00:00.000Z',
  last_edited_time: '2026-01-01T00:00:00.000Z',
  created_by: { object: 'user', id: 'creator' },
  last_edited_by: { object: 'user', id: 'editor' },
  title: richText(source.title),
  description: [],
  icon: null,
  cover: null,
  parent: { type: 'database_id', database_id: source.databaseId },
  database_parent: { type: 'workspace', workspace: true },
  is_inline: false,
  archived: false,
  in_trash: false,
  properties: { Name: { id: 'title', name: 'Name', type: 'title', title: {} } },
  url: `https://www.notion.so/${source.databaseId.replaceAll('-', '')}`,
  public_url: null,
});

/** The type's own object of a block, as Notion shapes it for that type. */
function typeValue(block: FakeBlock): Record<string, unknown> {
  const text = richText(block.text ?? '');
  switch (block.type) {
    case 'table':
      return { table_width: 2, has_column_header: Boolean(block.columnHeader), has_row_header: false };
    case 'table_row':
      return { cells: (block.cells ?? []).map(richText) };
    case 'to_do':
      return { rich_text: text, checked: Boolean(block.checked), color: 'default' };
    case 'code':
      return { rich_text: text, caption: [], language: block.language ?? 'plain text' };
    case 'child_page':
    case 'child_database':
      return { title: block.title ?? block.text ?? '' };
    case 'synced_block':
      return { synced_from: block.syncedFrom ? { type: 'block_id', block_id: block.syncedFrom } : null };
    case 'column_list':
    case 'divider':
      return {};
    case 'column':
      return { width_ratio: 0.5 };
    case 'callout':
      return { rich_text: text, icon: { type: 'emoji', emoji: '💡' }, color: 'default' };
    default:
      return { rich_text: text, color: 'default' };
  }
}

const blockJson = (block: Stored) => ({
  object: 'block',
  id: block.id,
  parent: { type: 'page_id', page_id: block.id.split('-')[0] },
  created_time: '2026-01-01T00:00:00.000Z',
  last_edited_time: '2026-01-01T00:00:00.000Z',
  created_by: { object: 'user', id: 'creator' },
  last_edited_by: { object: 'user', id: 'editor' },
  has_children: block.hasChildren,
  archived: false,
  in_trash: false,
  type: block.block.type,
  [block.block.type]: typeValue(block.block),
});

const notionError = (status: number, code: string, message: string) => ({
  object: 'error',
  status,
  code,
  message,
});

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}
