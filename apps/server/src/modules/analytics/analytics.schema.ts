import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';

/**
 * A thumbs up (1) or down (-1) on one bot answer, once per message per rater (changeable).
 * `rater_key` is a keyed hash of the visitor id (or the user's id in the playground): it keeps one
 * rating per person without storing who they are; `visitor_id` is kept only when the bot's
 * `analytics` flag collects visitor-level details.
 */
export const messageRatings = pgTable(
  'message_ratings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id').notNull(),
    conversationId: integer('conversation_id').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    raterKey: text('rater_key').notNull(),
    visitorId: text('visitor_id'),
    rating: smallint('rating').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('message_ratings_rater_key').on(t.messageId, t.raterKey),
    index('message_ratings_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);

/** A click on a bot's booking button in the widget; visitor details only with the `analytics` flag. */
export const bookingClicks = pgTable(
  'booking_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id').notNull(),
    conversationId: integer('conversation_id'),
    channel: text('channel').notNull().default('web'),
    visitorId: text('visitor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_clicks_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Daily figures per workspace, bot and channel, rolled up by a job from messages, conversations and
 * hand-off events of days that are over (analytics.rollup.ts). `metric` names the figure and `key`
 * its breakdown (an answer mode, a cited source, a question). The page reads these rows for closed
 * days and counts the last days live, so a workspace with a million messages reads thousands of
 * rows, not a million.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    botId: integer('bot_id').notNull(),
    channel: text('channel').notNull(),
    metric: text('metric').notNull(),
    key: text('key').notNull().default(''),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.botId, t.channel, t.metric, t.key] })],
);

/** Per workspace: days before `rolled_until` are in analytics_daily; from it on, counted live. */
export const analyticsRollupState = pgTable('analytics_rollup_state', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  rolledUntil: date('rolled_until', { mode: 'string' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
