import {
  APIResponseError,
  type BlockObjectResponse,
  Client,
  isFullBlock,
  isFullDataSource,
  isFullPage,
  isNotionClientError,
  LogLevel,
  type PageObjectResponse,
} from '@notionhq/client';
import type { Section } from '../knowledge/chunker.js';

/**
 * A page shared with the integration, as Parley keeps it. A database row also carries its
 * properties as text (a header line and a value line, as a table's; long texts as "Name: value"
 * paragraphs) and its database's title.
 */
export type RemotePage = {
  pageId: string;
  title: string;
  url: string | null;
  lastEditedTime: string;
  properties: Line[];
  database: string | null;
};

/** A line of a page's text: rows of one table, and items of one list, stay together. */
type Line = { text: string; kind: 'text' | 'item' | 'row' };

/** Every page Notion listed; `complete` is false when Notion said a listing was cut short. */
export type RemoteListing = { pages: RemotePage[]; complete: boolean };

export type NotionIdentity = { workspaceId: string; workspaceName: string; workspaceIcon: string | null };

/** The page is gone (deleted or unshared) though a listing still named it: Notion's search lags. */
export class PageGoneError extends Error {}

/** How deep nested blocks are followed (toggles, lists, columns); deeper content is skipped. */
export const MAX_BLOCK_DEPTH = 5;
const PAGE_SIZE = 100;

type Listed<T> = {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
  request_status?: { type: 'complete' | 'incomplete' };
};

/** A typed Notion API client on the configured base URL (the official SDK, honouring Retry-After on 429). */
export class NotionApi {
  private readonly client: Client;

  /** `maxRetries`: a request answers quickly (2); a job can wait out a longer rate limit. */
  constructor(baseUrl: string, token?: string, { maxRetries = 2 }: { maxRetries?: number } = {}) {
    this.client = new Client({
      auth: token,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      timeoutMs: 30_000,
      retry: { maxRetries },
      logLevel: LogLevel.ERROR,
    });
  }
  /** Exchanges an OAuth code (client id and secret sent as Basic auth by the SDK). */
  async exchangeCode(
    code: string,
    redirectUri: string,
    clientId: string,
    clientSecret: string,
  ): Promise<NotionIdentity & { accessToken: string }> {
    const reply = await this.client.oauth.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      client_secret: clientSecret,
    });
    return {
      accessToken: reply.access_token,
      workspaceId: reply.workspace_id,
      workspaceName: reply.workspace_name || 'Notion workspace',
      workspaceIcon: reply.workspace_icon,
    };
  }

  /** The workspace an internal integration token belongs to, from its bot user. */
  async identify(): Promise<NotionIdentity> {
    const me = await this.client.users.me({});
    const bot = (me.type === 'bot' ? me.bot : {}) as {
      workspace_name?: string | null;
      workspace_id?: string | null;
      owner?: { type?: string; user?: { name?: string | null } };
    };
    const ownerName = bot.owner?.type === 'user' ? bot.owner.user?.name : null;
    return {
      workspaceId: bot.workspace_id || me.id,
      workspaceName:
        bot.workspace_name || (ownerName ? `${ownerName}'s workspace` : me.name || 'Notion workspace'),
      workspaceIcon: null,
    };
  }

  /**
   * Every page shared with the integration: the rows of each database (data source) queried in full,
   * then the other pages search lists, each once, following every cursor.
   */
  async listPages(): Promise<RemoteListing> {
    const pages = new Map<string, RemotePage>();
    const add = (result: unknown, database: string | null) => {
      const page = result as PageObjectResponse;
      if (page.object !== 'page' || !isFullPage(page) || page.in_trash || pages.has(page.id)) return;
      pages.set(page.id, toRemotePage(page, database));
    };
    const sources: Array<{ id: string; title: string }> = [];
    let complete = await this.each(
      (cursor) =>
        this.client.search({ filter: { property: 'object', value: 'data_source' }, ...paging(cursor) }),
      (result) => {
        if (isFullDataSource(result) && !result.in_trash)
          sources.push({ id: result.id, title: plain(result.title) || 'Untitled' });
      },
    );
    for (const source of sources) {
      complete = (await this.rowsOf(source.id, (row) => add(row, source.title))) && complete;
    }
    complete =
      (await this.each(
        (cursor) => this.client.search({ filter: { property: 'object', value: 'page' }, ...paging(cursor) }),
        (result) => add(result, null),
      )) && complete;
    return { pages: [...pages.values()], complete };
  }

  /** A data source's rows; one Notion no longer shows (unshared since search listed it) has none. */
  private async rowsOf(dataSourceId: string, visit: (row: unknown) => void): Promise<boolean> {
    try {
      return await this.each(
        (cursor) => this.client.dataSources.query({ data_source_id: dataSourceId, ...paging(cursor) }),
        visit,
      );
    } catch (error) {
      if (isNotFound(error)) return true;
      throw error;
    }
  }

  /** Visits every result of a cursor-paginated listing; answers whether Notion called it complete. */
  private async each<T>(
    list: (cursor: string | undefined) => Promise<Listed<T>>,
    visit: (item: T) => void | Promise<void>,
  ): Promise<boolean> {
    let complete = true;
    let cursor: string | undefined;
    do {
      const reply = await list(cursor);
      for (const item of reply.results) await visit(item);
      if (reply.request_status?.type === 'incomplete') complete = false;
      cursor = reply.has_more ? (reply.next_cursor ?? undefined) : undefined;
    } while (cursor);
    return complete;
  }

  /**
   * A page's text as sections, each under the path of headings above it; a database row's
   * properties come first. Throws PageGoneError when Notion no longer shows the page.
   */
  async pageSections(page: RemotePage): Promise<Section[]> {
    const writer = new SectionWriter(page);
    await this.walk(page.pageId, 1, writer, true);
    writer.flush();
    return writer.sections;
  }

  /** Follows a block's children; a nested block Notion no longer shows (an unshared synced original) is skipped. */
  private async walk(blockId: string, depth: number, writer: SectionWriter, root = false): Promise<void> {
    const blocks: BlockObjectResponse[] = [];
    try {
      await this.each(
        (cursor) => this.client.blocks.children.list({ block_id: blockId, ...paging(cursor) }),
        (block) => {
          if (isFullBlock(block)) blocks.push(block);
        },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (root) throw new PageGoneError(blockId);
      return;
    }
    let number = 0;
    for (const block of blocks) {
      number = block.type === 'numbered_list_item' ? number + 1 : 0;
      if (block.type === 'table') {
        writer.rows(await this.tableRows(block));
        continue;
      }
      writer.block(block, blockText(block as unknown as Record<string, unknown>, block.type, number));
      if (!block.has_children || depth >= MAX_BLOCK_DEPTH || block.type === 'child_page') continue;
      // A duplicate synced block shows its original's content.
      const synced = block.type === 'synced_block' ? block.synced_block.synced_from?.block_id : undefined;
      await this.walk(synced ?? block.id, depth + 1, writer);
    }
  }

  /**
   * A table's rows, its header row first, each as "cell | cell" (the form answers read tables in);
   * none when the table went since the page was read.
   */
  private async tableRows(table: BlockObjectResponse & { type: 'table' }): Promise<string[]> {
    const rows: string[] = [];
    try {
      await this.each(
        (cursor) => this.client.blocks.children.list({ block_id: table.id, ...paging(cursor) }),
        (row) => {
          if (isFullBlock(row) && row.type === 'table_row')
            rows.push(tableLine(row.table_row.cells.map(plain)));
        },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    return rows;
  }
}

/**
 * Collects a page's lines into sections, starting a new one at each heading. Blocks are paragraphs
 * of their own (a blank line between); a list's items and a table's rows are lines of one paragraph.
 */
class SectionWriter {
  readonly sections: Section[] = [];
  private readonly headings: Array<{ text: string; anchor: string }> = [];
  private lines: Line[] = [];
  private readonly title: string;

  constructor(page: RemotePage) {
    this.title = page.database ? `${page.database} > ${page.title}` : page.title;
    this.lines.push(...page.properties);
  }

  block(block: BlockObjectResponse, text: string): void {
    const level = HEADING_LEVEL[block.type];
    if (level) {
      this.flush();
      this.headings.length = level - 1;
      // Notion links to a block as the page's address + '#' + the block id without dashes.
      this.headings[level - 1] = { text, anchor: block.id.replace(/-/g, '') };
    } else if (text) {
      this.lines.push({ text, kind: LIST_ITEMS.has(block.type) ? 'item' : 'text' });
    }
  }

  rows(rows: string[]): void {
    // A paragraph between two tables keeps their rows apart.
    if (this.lines.at(-1)?.kind === 'row') this.lines.push({ text: '', kind: 'text' });
    this.lines.push(...rows.map((text) => ({ text, kind: 'row' as const })));
  }

  flush(): void {
    const text = this.lines
      .map((line, i) => {
        const previous = this.lines[i - 1];
        const together = previous && previous.kind === line.kind && line.kind !== 'text';
        return `${i === 0 ? '' : together ? '\n' : '\n\n'}${line.text}`;
      })
      .join('')
      .trim();
    const anchor = this.headings.findLast((heading) => heading?.anchor)?.anchor;
    const path = [this.title, ...this.headings.map((heading) => heading?.text)].filter(Boolean).join(' > ');
    if (text) this.sections.push({ text, headingPath: path, ...(anchor ? { anchor } : {}) });
    this.lines = [];
  }
}

const LIST_ITEMS = new Set(['bulleted_list_item', 'numbered_list_item', 'to_do']);

/** One table row; a cell's own line breaks and bars would split it. */
const tableLine = (cells: string[]) =>
  cells.map((cell) => cell.replace(/\s*[\n|]\s*/g, ' ').trim()).join(' | ');

const paging = (cursor: string | undefined) => ({
  page_size: PAGE_SIZE,
  ...(cursor ? { start_cursor: cursor } : {}),
});

const isNotFound = (error: unknown): boolean =>
  APIResponseError.isAPIResponseError(error) && error.status === 404;

function toRemotePage(page: PageObjectResponse, database: string | null): RemotePage {
  const inDatabase =
    database !== null || page.parent.type === 'data_source_id' || page.parent.type === 'database_id';
  return {
    pageId: page.id,
    title: pageTitle(page),
    url: page.url ?? null,
    lastEditedTime: page.last_edited_time,
    properties: inDatabase ? propertyLines(page) : [],
    database,
  };
}

/** True when Notion refused the token itself (401/403), as opposed to being unreachable. */
export const isAuthRefusal = (error: unknown): boolean =>
  APIResponseError.isAPIResponseError(error) && (error.status === 401 || error.status === 403);

export const isNotionError = (error: unknown): boolean => isNotionClientError(error);

const HEADING_LEVEL: Record<string, number> = { heading_1: 1, heading_2: 2, heading_3: 3 };

function pageTitle(page: PageObjectResponse): string {
  for (const property of Object.values(page.properties)) {
    if (property.type === 'title') {
      const title = property.title
        .map((t) => t.plain_text)
        .join('')
        .trim();
      if (title) return title;
    }
  }
  return 'Untitled';
}

/** The plain text of rich text (mentions and equations included, as Notion renders them). */
function plain(items: unknown): string {
  return Array.isArray(items)
    ? items.map((item) => (item as { plain_text?: string }).plain_text ?? '').join('')
    : '';
}

/** The plain text of one block, whatever its type (rich_text, a caption, a to-do's box, a link). */
function blockText(block: Record<string, unknown>, type: string, number: number): string {
  const value = block[type] as Record<string, unknown> | undefined;
  if (!value) return '';
  if ((type === 'child_page' || type === 'child_database') && typeof value.title === 'string') {
    return value.title;
  }
  if (type === 'equation' && typeof value.expression === 'string') return value.expression;
  const caption = plain(value.caption);
  const link = typeof value.url === 'string' ? value.url : '';
  const text = plain(value.rich_text) || [caption, link].filter(Boolean).join(' ');
  if (!text) return '';
  if (type === 'bulleted_list_item') return `- ${text}`;
  if (type === 'numbered_list_item') return `${number || 1}. ${text}`;
  if (type === 'to_do') return `- [${value.checked ? 'x' : ' '}] ${text}`;
  return text;
}

/** Longer property texts are paragraphs of their own, not cells: a row stays a short line of data. */
const CELL_CHARS = 100;

/**
 * A database row's properties as a table of one row (a header line, then the values, the title
 * first) and its long texts as "Name: value" paragraphs; empty properties left out.
 */
function propertyLines(page: PageObjectResponse): Line[] {
  const entries = Object.entries(page.properties)
    .map(([name, property]) => ({
      name,
      type: property.type,
      text: propertyText(property as unknown as Property),
    }))
    .filter((entry) => entry.text !== '')
    .sort((a, b) => Number(b.type === 'title') - Number(a.type === 'title'));
  const cells = entries.filter(
    (e) => e.type === 'title' || (e.text.length <= CELL_CHARS && !e.text.includes('\n')),
  );
  const long = entries.filter((e) => !cells.includes(e));
  return [
    ...(cells.length > 1
      ? [tableLine(cells.map((e) => e.name)), tableLine(cells.map((e) => e.text))].map((text) => ({
          text,
          kind: 'row' as const,
        }))
      : []),
    ...long.map((e) => ({ text: `${e.name}: ${e.text}`, kind: 'text' as const })),
  ];
}

type Property = { type: string } & Record<string, unknown>;

/** The readable value of one property (what a person sees in the cell); '' when empty or opaque. */
function propertyText(property: Property): string {
  const value = property[property.type] as unknown;
  if (value === null || value === undefined) return '';
  switch (property.type) {
    case 'title':
    case 'rich_text':
      return plain(value).trim();
    case 'number':
    case 'url':
    case 'email':
    case 'phone_number':
      return String(value);
    case 'checkbox':
      return value ? 'Yes' : 'No';
    case 'select':
    case 'status':
      return (value as { name?: string }).name ?? '';
    case 'multi_select':
      return (value as Array<{ name?: string }>).map((option) => option.name).join(', ');
    case 'date':
      return dateText(value as { start: string; end: string | null });
    case 'people':
      return (value as Array<{ name?: string }>)
        .map((person) => person.name ?? '')
        .filter(Boolean)
        .join(', ');
    case 'files':
      return (value as Array<{ name?: string }>).map((file) => file.name ?? '').join(', ');
    case 'unique_id': {
      const id = value as { prefix: string | null; number: number | null };
      return id.number === null ? '' : `${id.prefix ? `${id.prefix}-` : ''}${id.number}`;
    }
    case 'formula':
      return propertyText(value as Property);
    case 'rollup': {
      const rollup = value as Property;
      if (rollup.type !== 'array') return propertyText(rollup);
      return (rollup.array as Property[]).map(propertyText).filter(Boolean).join(', ');
    }
    case 'string':
      return String(value);
    case 'boolean':
      return value ? 'Yes' : 'No';
    default:
      // Relations (ids only), people who created or edited, buttons: nothing a visitor would ask about.
      return '';
  }
}

function dateText(date: { start: string; end: string | null }): string {
  return date.end ? `${date.start} to ${date.end}` : date.start;
}
