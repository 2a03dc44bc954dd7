import {
  APIResponseError,
  Client,
  isFullBlock,
  isFullPage,
  isNotionClientError,
  LogLevel,
  type PageObjectResponse,
} from '@notionhq/client';
import type { Section } from '../knowledge/chunker.js';

/** A page shared with the integration, as Parley keeps it. */
export type RemotePage = { pageId: string; title: string; url: string | null; lastEditedTime: string };

export type NotionIdentity = { workspaceId: string; workspaceName: string; workspaceIcon: string | null };

/** How deep nested blocks are followed (toggles, lists, columns); deeper content is skipped. */
export const MAX_BLOCK_DEPTH = 5;
const PAGE_SIZE = 100;

/** A typed Notion API client on the configured base URL (the official SDK, retries kept short). */
export class NotionApi {
  private readonly client: Client;

  constructor(baseUrl: string, token?: string) {
    this.client = new Client({
      auth: token,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      timeoutMs: 30_000,
      retry: { maxRetries: 2 },
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

  /** Every page shared with the integration, following search's cursors. */
  async listPages(): Promise<RemotePage[]> {
    const pages: RemotePage[] = [];
    let cursor: string | undefined;
    do {
      const reply = await this.client.search({
        filter: { property: 'object', value: 'page' },
        page_size: PAGE_SIZE,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      for (const result of reply.results) {
        if (result.object !== 'page' || !isFullPage(result) || result.in_trash) continue;
        pages.push({
          pageId: result.id,
          title: pageTitle(result),
          url: result.url ?? null,
          lastEditedTime: result.last_edited_time,
        });
      }
      cursor = reply.has_more ? (reply.next_cursor ?? undefined) : undefined;
    } while (cursor);
    return pages;
  }

  /** A page's blocks as text sections, each under the path of headings above it. */
  async pageSections(pageId: string, title: string): Promise<Section[]> {
    const sections: Section[] = [];
    const headings: Array<{ text: string; anchor: string }> = [];
    let lines: string[] = [];
    const flush = () => {
      const text = lines.join('\n').trim();
      // Notion links to a block as the page's address + '#' + the block id without dashes.
      const anchor = headings.findLast((heading) => heading?.anchor)?.anchor;
      const path = [title, ...headings.map((heading) => heading?.text)].filter(Boolean).join(' > ');
      if (text) sections.push({ text, headingPath: path, ...(anchor ? { anchor } : {}) });
      lines = [];
    };
    const walk = async (blockId: string, depth: number): Promise<void> => {
      let cursor: string | undefined;
      do {
        const reply = await this.client.blocks.children.list({
          block_id: blockId,
          page_size: PAGE_SIZE,
          ...(cursor ? { start_cursor: cursor } : {}),
        });
        for (const block of reply.results) {
          if (!isFullBlock(block)) continue;
          const level = HEADING_LEVEL[block.type];
          const text = blockText(block as unknown as Record<string, unknown>, block.type);
          if (level) {
            flush();
            headings.length = level - 1;
            headings[level - 1] = { text, anchor: block.id.replace(/-/g, '') };
          } else if (text) {
            lines.push(text);
          }
          if (block.has_children && depth < MAX_BLOCK_DEPTH && block.type !== 'child_page') {
            await walk(block.id, depth + 1);
          }
        }
        cursor = reply.has_more ? (reply.next_cursor ?? undefined) : undefined;
      } while (cursor);
    };
    await walk(pageId, 1);
    flush();
    return sections;
  }
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

/** The plain text of one block, whatever its type (rich_text, a caption, a to-do's box, a cell row). */
function blockText(block: Record<string, unknown>, type: string): string {
  const value = block[type] as Record<string, unknown> | undefined;
  if (!value) return '';
  const plain = (items: unknown): string =>
    Array.isArray(items)
      ? items.map((item) => (item as { plain_text?: string }).plain_text ?? '').join('')
      : '';
  if (type === 'table_row' && Array.isArray(value.cells)) {
    return (value.cells as unknown[]).map(plain).join(' | ');
  }
  if (type === 'child_page' && typeof value.title === 'string') return value.title;
  let text = plain(value.rich_text) || plain(value.caption);
  if (type === 'equation' && typeof value.expression === 'string') text = value.expression;
  if (!text) return '';
  if (type === 'bulleted_list_item') return `- ${text}`;
  if (type === 'numbered_list_item') return `1. ${text}`;
  if (type === 'to_do') return `${value.checked ? '[x]' : '[ ]'} ${text}`;
  return text;
}
