import type { NotificationKind } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mailOutbox, tenants, users } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

/**
 * The bell's notifications, one row per recipient. `dedupe_key` names the effect (a conversation's
 * hand-off request, a lead, a training run...), unique per user, so a job that runs twice notifies
 * once. `seen_at` is set when the bell is opened (the count resets, spec section 4); `read_at` when
 * the person opens or marks the notification itself.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** A console path (conversation, lead, source, subscription). */
    link: text('link'),
    dedupeKey: text('dedupe_key').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notifications_user_dedupe_idx').on(t.userId, t.dedupeKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The bell's count reads only this small partial index.
    index('notifications_user_unseen_idx').on(t.userId).where(sql`${t.seenAt} IS NULL`),
  ],
);

/**
 * Mail sent through POST /notification/send-email: the outbox row plus who sent it and about which
 * bot, so the mail log can filter by bot and the send rate can be counted per workspace.
 */
export const notificationEmails = pgTable(
  'notification_emails',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    outboxId: integer('outbox_id')
      .notNull()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    botId: integer('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_emails_outbox_idx').on(t.outboxId),
    index('notification_emails_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);
