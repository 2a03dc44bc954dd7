import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';
import { qna } from '../qna/qna.schema.js';

/**
 * Questions a bot could not answer, grouped when they ask the same thing in other words (issue 15
 * item 4). A group stays `open` until an owner answers it (it becomes a Q&A pair, `qna_id`) or
 * dismisses it. `terms` are the question's stemmed words (PostgreSQL's English text search), which
 * later questions are compared with.
 */
export const unansweredGroups = pgTable(
  'unanswered_groups',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    terms: text('terms').array().notNull(),
    askedCount: integer('asked_count').notNull().default(1),
    status: text('status', { enum: ['open', 'answered', 'dismissed'] })
      .notNull()
      .default('open'),
    qnaId: integer('qna_id').references(() => qna.id, { onDelete: 'set null' }),
    firstAskedAt: timestamp('first_asked_at', { withTimezone: true }).notNull().defaultNow(),
    lastAskedAt: timestamp('last_asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('unanswered_groups_bot_idx').on(t.tenantId, t.botId, t.status, t.lastAskedAt)],
);

/** Each time a visitor asked one of a group's questions, in their words. */
export const unansweredQuestions = pgTable(
  'unanswered_questions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => unansweredGroups.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    conversationId: integer('conversation_id'),
    /**
     * Why it is queued: nothing found, found below confidence, a person asked for, a visitor's thumbs
     * down on the answer, or a language model's answer not given since it stated figures no source holds.
     */
    reason: text('reason', {
      enum: ['not_found', 'low_confidence', 'unsure', 'handoff', 'disliked', 'unverified'],
    }).notNull(),
    /**
     * Reason `unsure`: the sentences the bot quoted, without its lines around them. Reason
     * `unverified`: the model's answer that was not given.
     */
    botAnswer: text('bot_answer'),
    /** Reason `unverified`: the figures of that answer that the sources do not back. */
    unverified: jsonb('unverified').$type<string[]>(),
    /** Reason `unsure`: the visitor rated that answer up (the quote helped them). */
    ratedHelpful: boolean('rated_helpful').notNull().default(false),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('unanswered_questions_group_idx').on(t.groupId, t.askedAt)],
);
