import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';

/**
 * A language model a tenant configured (console.md section 7 LLM settings). The API key is sealed
 * with the application secret (AES-256-GCM) and only ever returned masked.
 */
export const llmSettings = pgTable(
  'llm_settings',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    provider: text('provider').notNull(),
    baseUrl: text('base_url'),
    model: text('model').notNull(),
    apiKeySealed: text('api_key_sealed'),
    /** Last four characters of the key, for the masked display. */
    apiKeyHint: text('api_key_hint'),
    embeddingModel: text('embedding_model'),
    isActive: boolean('is_active').notNull().default(true),
    /** The last connection test (on save, on activation, or asked for): null until one ran. */
    lastTestOk: boolean('last_test_ok'),
    /** Its reason, in Parley's words (LLM_TEST_MESSAGES). */
    lastTestDetail: text('last_test_detail'),
    lastTestLatencyMs: integer('last_test_latency_ms'),
    lastTestedAt: timestamp('last_tested_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('llm_settings_tenant_idx').on(t.tenantId)],
);
