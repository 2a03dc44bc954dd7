import type { CampaignStatus, RecipientStatus } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

/**
 * A WhatsApp Business number connected by Meta's embedded signup. `phone_number_id` is what the
 * Cloud API and its webhooks name: one row across all workspaces.
 */
export const whatsappAccounts = pgTable(
  'whatsapp_accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    wabaId: text('waba_id').notNull(),
    phoneNumberId: text('phone_number_id').notNull(),
    displayPhoneNumber: text('display_phone_number').notNull(),
    verifiedName: text('verified_name').notNull(),
    qualityRating: text('quality_rating').notNull().default('UNKNOWN'),
    /** The business token, sealed with APP_SECRET (core/crypto.ts encryptSecret); never returned. */
    accessToken: text('access_token').notNull(),
    botId: integer('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    /** The bot it was last linked to: an unlinked number's conversations still land in that bot's inbox. */
    lastBotId: integer('last_bot_id').references(() => bots.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    inactiveReason: text('inactive_reason'),
    /** When Meta's template list was last read (GET /templates/meta answers from here until stale). */
    templatesSyncedAt: timestamp('templates_synced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_accounts_number_key').on(t.phoneNumberId),
    index('whatsapp_accounts_tenant_idx').on(t.tenantId),
    index('whatsapp_accounts_waba_idx').on(t.wabaId),
  ],
);

/** A message template: written here, submitted to Meta, its review status kept by the status webhook. */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => whatsappAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    header: jsonb('header').$type<{
      format: string;
      text?: string;
      example?: string;
      media_handle?: string;
    } | null>(),
    body: text('body').notNull(),
    bodyExamples: jsonb('body_examples').$type<string[]>().notNull().default([]),
    footer: text('footer'),
    buttons: jsonb('buttons').$type<Record<string, unknown>[]>().notNull().default([]),
    status: text('status').notNull().default('DRAFT'),
    metaTemplateId: text('meta_template_id'),
    rejectedReason: text('rejected_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_templates_name_key').on(t.accountId, t.name, t.language),
    index('whatsapp_templates_meta_idx').on(t.metaTemplateId),
  ],
);

/** A person campaigns may write to: a number in E.164, unique per account; opted out for good once they say STOP. */
export const whatsappContacts = pgTable(
  'whatsapp_contacts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => whatsappAccounts.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    name: text('name'),
    email: text('email'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_contacts_phone_key').on(t.accountId, t.phone),
    index('whatsapp_contacts_tenant_idx').on(t.tenantId),
  ],
);

export const whatsappCampaigns = pgTable(
  'whatsapp_campaigns',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => whatsappAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    templateId: integer('template_id').references(() => whatsappTemplates.id, { onDelete: 'set null' }),
    /** The template as it was sent (name, language, components): a later edit or delete changes nothing. */
    template: jsonb('template').$type<Record<string, unknown>>().notNull(),
    audienceTags: text('audience_tags').array().notNull().default(sql`'{}'::text[]`),
    variables: jsonb('variables').$type<Record<string, unknown>[]>().notNull().default([]),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The run that sends it now: a newer run (resume, a retry after a crash) takes over from it. */
    runId: text('run_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('whatsapp_campaigns_account_idx').on(t.accountId, t.id)],
);

/**
 * One recipient of a campaign (its log row). Unique per campaign and number: a recipient is sent
 * at most once, because a row is claimed ('sending') in a committed statement before the send and
 * never claimed again.
 */
export const whatsappRecipients = pgTable(
  'whatsapp_campaign_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => whatsappCampaigns.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => whatsappContacts.id, { onDelete: 'set null' }),
    phone: text('phone').notNull(),
    name: text('name'),
    /** The contact's fields when the campaign started, for its variables. */
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    status: text('status').$type<RecipientStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    retryAfter: timestamp('retry_after', { withTimezone: true }),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    waMessageId: text('wa_message_id'),
    errorCode: integer('error_code'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_recipients_key').on(t.campaignId, t.phone),
    uniqueIndex('whatsapp_recipients_wamid_key').on(t.waMessageId),
    index('whatsapp_recipients_status_idx').on(t.campaignId, t.status, t.id),
    index('whatsapp_recipients_phone_idx').on(t.tenantId, t.phone),
  ],
);
