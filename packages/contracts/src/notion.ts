import { z } from 'zod';
import { inputText } from './common.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';
import { SyncState } from './sync.js';

/** Notion connection, sync and training (integrations-and-billing.md section 7 Notion): each route and what it needs. */
export const NOTION_ROUTE_RULES = {
  'GET /notion/status': need(BOTS_SUBJECT, 'read'),
  'GET /notion/content': need(BOTS_SUBJECT, 'read'),
  'GET /notion/authorize': need(BOTS_SUBJECT, 'create'),
  /** Notion sends the browser here; the signed single-use state names the tenant and user. */
  'GET /notion/callback': open,
  'POST /notion/connect': need(BOTS_SUBJECT, 'create'),
  'POST /notion/sync/:id': need(BOTS_SUBJECT, 'write'),
  'POST /training/train/notion/:botId/:workspaceId': need(BOTS_SUBJECT, 'write'),
  'DELETE /notion/workspaces/:id': need(BOTS_SUBJECT, 'write'),
  'PATCH /notion/workspaces/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /notion/pages/:id': need(BOTS_SUBJECT, 'write'),
} as const satisfies Record<string, RouteRule>;

/** Texts of the Notion area beyond MESSAGES.notion (server details and screen labels). */
export const NOTION_TEXTS = {
  notConfigured: 'Notion OAuth is not configured',
  invalidToken: 'The Notion token was refused by Notion',
  tokenChars: 'A Notion token holds only letters, digits and punctuation, without spaces',
  notionUnavailable: 'Notion could not be reached. Please try again.',
  stateInvalid: 'The Notion connection link is not valid. Please connect again.',
  stateExpired: 'The Notion connection link has expired. Please connect again.',
  stateUsed: 'The Notion connection link was already used. Please connect again.',
  accessDenied: 'Notion access was not granted',
  workspaceNotFound: 'Notion workspace not found',
  pageNotFound: 'Notion page not found',
  botNotFound: 'Bot not found',
  workspaceDeleted: 'Workspace deleted',
  pageDeleted: 'Page deleted',
  connected: 'Notion workspace connected',
  syncCompleted: 'Sync completed',
  /** On a workspace whose last sync or training failed; a refused token adds the way out. */
  lastSyncFailed: (error: string) => `Last sync failed: ${error}`,
  reconnectHint: 'Connect the workspace again to give Parley access.',
  /** The screen's failure texts (integrations-and-billing.md section 8 Notion). */
  fetchStatusFailed: 'Failed to fetch Notion status',
  fetchContentFailed: 'Failed to fetch Notion content',
  connectFailed: 'Failed to connect to Notion',
  syncFailed: 'Failed to sync workspace',
  trainFailed: 'Failed to train workspace',
  deleteWorkspaceFailed: 'Failed to delete workspace',
  deletePageFailed: 'Failed to delete page',
  progressFailed: 'Failed to get training progress',
} as const;

export const NotionPage = z.object({
  id: z.number().int(),
  page_id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  last_edited_time: z.string().nullable(),
  character_count: z.number().int(),
  trained: z.boolean(),
  synced_at: z.string(),
});
export type NotionPage = z.infer<typeof NotionPage>;

/** A connected workspace with its re-sync schedule and what its last sync changed. */
export const NotionWorkspace = SyncState.extend({
  id: z.number().int(),
  /** Notion's own id of the workspace. */
  workspace_id: z.string(),
  workspace_name: z.string(),
  last_synced_at: z.string().nullable(),
  trained: z.boolean(),
  page_count: z.number().int(),
  /**
   * Why the last sync or training failed (e.g. the token was refused: connect again), until the
   * next one starts or the workspace is connected again; null otherwise.
   */
  last_error: z.string().nullable(),
});
export type NotionWorkspace = z.infer<typeof NotionWorkspace>;

export const NotionStatus = z.object({
  connected: z.boolean(),
  /** Whether the "Connect with Notion" (OAuth) button can be offered. */
  oauth_configured: z.boolean(),
  workspaces: z.array(NotionWorkspace),
});
export type NotionStatus = z.infer<typeof NotionStatus>;

export const NotionWorkspaceWithPages = NotionWorkspace.extend({ pages: z.array(NotionPage) });
export type NotionWorkspaceWithPages = z.infer<typeof NotionWorkspaceWithPages>;

export const NotionContent = z.object({ workspaces: z.array(NotionWorkspaceWithPages) });
export type NotionContent = z.infer<typeof NotionContent>;

export const NotionAuthorizeResponse = z.object({ url: z.string() });
export type NotionAuthorizeResponse = z.infer<typeof NotionAuthorizeResponse>;

export const NotionCallbackQuery = z.object({
  code: inputText().max(2000).optional(),
  state: inputText().max(2000).optional(),
  error: inputText().max(500).optional(),
});
export type NotionCallbackQuery = z.infer<typeof NotionCallbackQuery>;

export const NotionConnectBody = z.object({
  token: z
    .string({ error: 'Token is required' })
    .trim()
    .min(1, 'Token is required')
    .max(500, 'Token must be at most 500 characters')
    // It travels in an Authorization header: Notion's tokens are visible ASCII, nothing else fits there.
    .regex(/^[\x21-\x7e]+$/, NOTION_TEXTS.tokenChars),
});
export type NotionConnectBody = z.infer<typeof NotionConnectBody>;

export const NotionConnectResponse = z.object({ message: z.string(), workspace: NotionWorkspace });
export type NotionConnectResponse = z.infer<typeof NotionConnectResponse>;

export const NotionTaskResponse = z.object({ task_id: z.string() });
export type NotionTaskResponse = z.infer<typeof NotionTaskResponse>;
