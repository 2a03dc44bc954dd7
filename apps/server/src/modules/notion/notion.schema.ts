import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';
import { syncScheduleColumns } from '../../core/jobs/schedule.js';

/** A connected Notion workspace; its token encrypted at rest (AES-256-GCM, key from APP_SECRET). */
export const notionWorkspaces = pgTable(
  'notion_workspaces',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    workspaceId: text('workspace_id').notNull(),
    workspaceName: text('workspace_name').notNull(),
    workspaceIcon: text('workspace_icon'),
    accessTokenSealed: text('access_token_sealed').notNull(),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    trained: boolean('trained').notNull().default(false),
    ...syncScheduleColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notion_workspaces_tenant_ws_key').on(t.tenantId, t.workspaceId),
    index('notion_workspaces_next_sync_idx').on(t.nextSyncAt),
  ],
);

/** A synced Notion page; its text lives in documents (source_type 'notion'). */
export const notionPages = pgTable(
  'notion_pages',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => notionWorkspaces.id, { onDelete: 'cascade' }),
    pageId: text('page_id').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    lastEditedTime: timestamp('last_edited_time', { withTimezone: true }),
    characterCount: integer('character_count').notNull().default(0),
    trained: boolean('trained').notNull().default(false),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notion_pages_ws_page_key').on(t.workspaceId, t.pageId),
    index('notion_pages_tenant_idx').on(t.tenantId),
  ],
);

/** Issued OAuth states, by nonce: a callback consumes its row, so a state works once. */
export const notionOauthStates = pgTable(
  'notion_oauth_states',
  {
    nonce: text('nonce').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notion_oauth_states_expires_idx').on(t.expiresAt)],
);
