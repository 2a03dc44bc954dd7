import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

/**
 * The Capability Demos' bots (console.md /capability): one row per demo kind, in the demo workspace
 * made on demand. The kind is the key, so seeding twice, or by two admins at once, finds the row
 * instead of making a second bot.
 */
export const demoBots = pgTable('demo_bots', {
  kind: text('kind').primaryKey(),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  botId: integer('bot_id')
    .notNull()
    .references(() => bots.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
