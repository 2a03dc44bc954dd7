import type { HumanButtonMode, LeadSource, VisitorLanguage } from '@parley/contracts';
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
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { roles, tenants, users } from '../../core/db/schema.js';
import { webSources } from '../crawler/crawler.schema.js';
import { fileGroups } from '../files/files.schema.js';
import { notionWorkspaces } from '../notion/notion.schema.js';
import { stores } from '../stores/stores.schema.js';

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
    maxCitations: smallint('max_citations').notNull().default(3),
    humanButton: text('human_button').$type<HumanButtonMode>().notNull().default('after_miss'),
    /** The language the widget and the bot's own lines speak; `auto` follows its sources (bots/visitor-language.ts). */
    visitorLanguage: text('visitor_language').$type<VisitorLanguage | 'auto'>().notNull().default('auto'),
    handoffConfidence: real('handoff_confidence').notNull().default(0.34),
    analytics: boolean('analytics').notNull().default(false),
    /** Listed by GET /auth/public-bots and fetchable by numeric id without login; by uuid always. */
    isPublic: boolean('is_public').notNull().default(false),
    brandColor: text('brand_color').notNull().default('#ffffff'),
    welcomeMessage: text('welcome_message'),
    suggestionQuestions: jsonb('suggestion_questions').$type<string[]>().notNull().default([]),
    leadFormConfig: jsonb('lead_form_config'),
    /** Origins allowed to embed the widget; empty: any. */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    /** The stores it answers from (spec "Bot connection"); a deleted store clears them. */
    shopifyStoreId: integer('shopify_store_id').references(() => stores.id, { onDelete: 'set null' }),
    woocommerceStoreId: integer('woocommerce_store_id').references(() => stores.id, { onDelete: 'set null' }),
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

/** Roles a bot carries (POST /chat/bots/role lists the bots of a role). */
export const botRoles = pgTable(
  'bot_roles',
  {
    ...linkColumns(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.botId, t.roleId] }), index('bot_roles_role_idx').on(t.roleId)],
);

/** Bots assigned to users (agents who answer for them). A bot with assigned users cannot be deleted. */
export const botUsers = pgTable(
  'bot_users',
  {
    ...linkColumns(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.botId, t.userId] }), index('bot_users_user_idx').on(t.userId)],
);

/** Calendar booking configuration of a bot (console.md section 3 Calendar booking): at most one. */
export const calendarBookings = pgTable('calendar_bookings', {
  botId: integer('bot_id')
    .primaryKey()
    .references(() => bots.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  message: text('message').notNull(),
  provider: text('provider').notNull(),
  url: text('url').notNull(),
  title: text('title').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
/**
 * A booking a visitor may be offered: its link is http(s). A row saved before the check, or by
 * hand, is never offered (a messaging app shows the link as it is).
 */
export const offeredBooking = sql`${calendarBookings.url} ~* '^https?://'`;

/** A visitor's lead-form answers, kept per bot (and conversation when there is one). */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id'),
    name: text('name'),
    email: text('email'),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    /** The bot's lead form, or the contact form a visitor fills when nobody can come to the chat. */
    source: text('source').$type<LeadSource>().notNull().default('lead_form'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leads_bot_idx').on(t.botId, t.createdAt)],
);
