import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

/** A question-and-answer pair of a bot (console.md section 3 QnA). */
export const qna = pgTable(
  'qna',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** Other wordings of the question, from visitors the owner said it answers (the unanswered queue). */
    alternateQuestions: text('alternate_questions').array().notNull().default(sql`'{}'::text[]`),
    chatId: integer('chat_id'),
    trained: boolean('trained').notNull().default(false),
    characterCount: integer('character_count'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('qna_bot_idx').on(t.botId), index('qna_tenant_idx').on(t.tenantId)],
);
