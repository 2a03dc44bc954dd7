import type { SocialChannel } from '@parley/contracts';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

/**
 * An Instagram professional account or a Facebook page connected to a workspace (console.md:
 * Instagram account, Messenger account). `external_id` is what Meta's webhooks name (the Instagram
 * account id or the page id): one row per channel and id across all workspaces, so a second
 * workspace cannot connect the same page.
 */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<SocialChannel>().notNull(),
    externalId: text('external_id').notNull(),
    pageId: text('page_id').notNull(),
    pageName: text('page_name').notNull(),
    instagramAccountId: text('instagram_account_id'),
    username: text('username'),
    /** The page access token, sealed with APP_SECRET (core/crypto.ts encryptSecret); never returned. */
    accessToken: text('access_token').notNull(),
    botId: integer('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    /** The bot it was last linked to: an unlinked account's conversations still land in that bot's inbox. */
    lastBotId: integer('last_bot_id').references(() => bots.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    inactiveReason: text('inactive_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('social_accounts_external_key').on(t.channel, t.externalId),
    index('social_accounts_tenant_idx').on(t.tenantId),
  ],
);

/** Facebook Login states: signed, and single use because the row is deleted by the first callback. */
export const socialOauthStates = pgTable(
  'social_oauth_states',
  {
    nonce: text('nonce').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<SocialChannel>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('social_oauth_states_expires_idx').on(t.expiresAt)],
);

/**
 * Webhook events already taken (Meta retries a delivery it thinks failed): the key is the channel
 * and the message id, so a replay is recognised in the statement that would queue it again.
 */
export const socialDeliveries = pgTable(
  'social_deliveries',
  {
    channel: text('channel').$type<SocialChannel>().notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('social_deliveries_key').on(t.channel, t.eventId),
    index('social_deliveries_received_idx').on(t.receivedAt),
  ],
);
