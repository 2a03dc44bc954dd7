import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';
import { webSources } from '../crawler/crawler.schema.js';
import { fileGroups } from '../files/files.schema.js';
import { notionWorkspaces } from '../notion/notion.schema.js';

/** A bot (spec console.md section 3 Bot). Its knowledge is the sources attached to it. */
export const bots = pgTable(
  'bots',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    uuid: uuid('uuid').notNull().defaultRandom(),
    botName: text('bot_name').notNull(),
    description: text('description'),
    profileImage: text('profile_image'),
    temperature: real('temperature').notNull().default(1),
    prompt: text('prompt'),
    llmModel: text('llm_model'),
    internet: boolean('internet').notNull().default(false),
    analytics: boolean('analytics').notNull().default(false),
    brandColor: text('brand_color').notNull().default('#ffffff'),
    welcomeMessage: text('welcome_message'),
    suggestionQuestions: jsonb('suggestion_questions').$type<string[]>().notNull().default([]),
    leadFormConfig: jsonb('lead_form_config'),
    shopifyStoreId: integer('shopify_store_id'),
    woocommerceStoreId: integer('woocommerce_store_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bots_uuid_key').on(t.uuid),
    uniqueIndex('bots_tenant_name_key').on(t.tenantId, sql`lower(${t.botName})`),
    index('bots_tenant_idx').on(t.tenantId),
  ],
);

/** Which sources a bot answers from: one link table per kind of source. */
const linkColumns = () => ({
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  botId: integer('bot_id')
    .notNull()
    .references(() => bots.id, { onDelete: 'cascade' }),
});

/** RESTRICT: a file group that bots use cannot be deleted (the service names the bots first). */
export const botFileGroups = pgTable(
  'bot_file_groups',
  {
    ...linkColumns(),
    fileGroupId: integer('file_group_id')
      .notNull()
      .references(() => fileGroups.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.fileGroupId] }),
    index('bot_file_groups_source_idx').on(t.fileGroupId),
  ],
);

export const botWebSources = pgTable(
  'bot_web_sources',
  {
    ...linkColumns(),
    webSourceId: integer('web_source_id')
      .notNull()
      .references(() => webSources.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.webSourceId] }),
    index('bot_web_sources_source_idx').on(t.webSourceId),
  ],
);

export const botNotionWorkspaces = pgTable(
  'bot_notion_workspaces',
  {
    ...linkColumns(),
    notionWorkspaceId: integer('notion_workspace_id')
      .notNull()
      .references(() => notionWorkspaces.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.notionWorkspaceId] }),
    index('bot_notion_workspaces_source_idx').on(t.notionWorkspaceId),
  ],
);
