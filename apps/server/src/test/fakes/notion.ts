import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A block as tests describe it; the fake gives it an id and Notion's JSON shape. */
export type FakeBlock = { type: string; text: string; children?: FakeBlock[] };
export type FakePage = { id: string; title: string; lastEditedTime: string; blocks: FakeBlock[] };

export type FakeWorkspace = {
  token: string;
  workspaceId: string;
  workspaceName: string;
  botId: string;
  pages: Map<string, FakePage>;
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
  removePage(workspace: FakeWorkspace, pageId: string): void;
  /** Revokes the workspace's token: every later call with it answers 401. */
  revoke(workspace: FakeWorkspace): void;
  /** An OAuth code that /v1/oauth/token exchanges (once) for the workspace's token. */
  issueCode(workspace: FakeWorkspace, redirectUri: string): string;
  close(): Promise<void>;
};

type Stored = { id: string; type: string; text: string; hasChildren: boolean };

/**
 * A Notion API on loopback speaking its JSON: search (pages, cursors), block children (cursors),
 * pages, users/me and the OAuth token exchange. Bearer token and Notion-Version are required.
 * `pageSizeCap` lowers the largest page size (Notion's is 100) so tests see several pages.
 */
export async function startNotionFake(options: { pageSizeCap?: number } = {}): Promise<NotionFake> {
  const cap = options.pageSizeCap ?? 100;
  const clientId = 'notion-client-id';
  const clientSecret = 'notion-client-secret';
  const workspaces = new Map<string, FakeWorkspace>();
  const codes = new Map<string, { token: string; redirectUri: string }>();
  const requests: string[] = [];
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const tick = () => {
    clock += 60_000;
    return new Date(clock).toISOString();
  };

  /** Block children by parent id (a page id or a block id), rebuilt when pages change. */
  const children = (workspace: FakeWorkspace, parentId: string): Stored[] | undefined => {
    for (const page of workspace.pages.values()) {
      const found = findChildren(page.id, page.blocks, parentId);
      if (found) return found;
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
      const pages = [...workspace.pages.values()].filter(() => !filter || filter.value === 'page');
      return send(
        res,
        200,
        paginate(pages.map(pageJson), body.start_cursor, body.page_size, { type: 'page_or_data_source' }),
      );
    }
    const pageMatch = /^\/v1\/pages\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && pageMatch) {
      const page = workspace.pages.get(pageMatch[1]!);
      if (!page) return send(res, 404, notionError(404, 'object_not_found', 'Could not find page.'));
      return send(res, 200, pageJson(page));
    }
    const blockMatch = /^\/v1\/blocks\/([^/]+)\/children$/.exec(path);
    if (req.method === 'GET' && blockMatch) {
      const list = children(workspace, blockMatch[1]!);
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
      };
      workspaces.set(token, workspace);
      return workspace;
    },
    setPage: (workspace, page) => {
      const stored = { ...page, lastEditedTime: page.lastEditedTime ?? tick() };
      workspace.pages.set(page.id, stored);
      return stored;
    },
    removePage: (workspace, pageId) => {
      workspace.pages.delete(pageId);
    },
    revoke: (workspace) => {
      workspaces.delete(workspace.token);
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

/** The stored children of `parentId` inside a page: the page's own blocks, or a block's. */
function findChildren(pageId: string, blocks: FakeBlock[], parentId: string): Stored[] | undefined {
  const walk = (ownerId: string, list: FakeBlock[]): Stored[] | undefined => {
    const stored = list.map((b, i) => ({
      id: `${ownerId}-${i}`,
      type: b.type,
      text: b.text,
      hasChildren: Boolean(b.children?.length),
    }));
    if (ownerId === parentId) return stored;
    for (const [i, b] of list.entries()) {
      if (b.children?.length) {
        const found = walk(`${ownerId}-${i}`, b.children);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(pageId, blocks);
}

const richText = (text: string) => [
  {
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
  },
];

const pageJson = (page: FakePage) => ({
  object: 'page',
  id: page.id,
  created_time: '2026-01-01T00:00:00.000Z',
  last_edited_time: page.lastEditedTime,
  created_by: { object: 'user', id: 'creator' },
  last_edited_by: { object: 'user', id: 'editor' },
  cover: null,
  icon: null,
  parent: { type: 'workspace', workspace: true },
  archived: false,
  in_trash: false,
  is_locked: false,
  properties: { title: { id: 'title', type: 'title', title: richText(page.title) } },
  url: `https://www.notion.so/${page.id.replaceAll('-', '')}`,
  public_url: null,
});

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
  type: block.type,
  [block.type]: { rich_text: richText(block.text), color: 'default' },
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
