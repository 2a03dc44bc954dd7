import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';

/** A named group of uploaded files (integrations-and-billing.md section 3 File group). */
export const fileGroups = pgTable(
  'file_groups',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    groupName: text('group_name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('file_groups_tenant_name_key').on(t.tenantId, sql`lower(${t.groupName})`)],
);

/** An uploaded file: the original on disk under DATA_DIR (generated name), its text in documents. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    fileGroupId: integer('file_group_id')
      .notNull()
      .references(() => fileGroups.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    storageName: text('storage_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    characterCount: integer('character_count'),
    /** pending → trained, or failed with `error`. */
    status: text('status', { enum: ['pending', 'trained', 'failed'] })
      .notNull()
      .default('pending'),
    trained: boolean('trained').notNull().default(false),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_group_idx').on(t.fileGroupId), index('files_tenant_idx').on(t.tenantId)],
);
