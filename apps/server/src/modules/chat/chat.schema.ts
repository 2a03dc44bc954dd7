import type { HandoffReason, HandoffState, VisitorLanguage } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';
import { bots } from '../bots/bots.schema.js';

export type MessageSource = {
  source_type: string;
  page_number: number | null;
  page_url: string | null;
  page_title: string | null;
  heading_path?: string | null;
  synced_at?: string | null;
};

/**
 * A conversation between a visitor (or a signed-in user) and a bot, on one channel. RESTRICT on the
 * bot: a bot with conversations cannot be deleted (console.md section 8 Bots).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'restrict' }),
    /** The signed-in user who chats (playground), or null for a visitor. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** A visitor's signed anonymous identity, or a channel user's id (Instagram, Messenger, WhatsApp). */
    visitorId: text('visitor_id'),
    name: text('name').notNull().default('New Chat'),
    channel: text('channel').notNull().default('bot'),
    instagramAccountId: text('instagram_account_id'),
    messengerAccountId: text('messenger_account_id'),
    whatsappPhoneNumberId: text('whatsapp_phone_number_id'),
    userProfile: jsonb('user_profile').$type<Record<string, unknown>>(),
    isHelpdeskInControl: boolean('is_helpdesk_in_control').notNull().default(false),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    adminName: text('admin_name'),
    controlTakenAt: timestamp('control_taken_at', { withTimezone: true }),
    /** Who answers (HANDOFF_STATES); every change is a row of conversation_events. */
    handoffState: text('handoff_state').$type<HandoffState>().notNull().default('bot'),
    humanRequestedAt: timestamp('human_requested_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The teammate the conversation is assigned to (who should follow it up), apart from who holds it. */
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** A signed-in user's chat (the playground): a test, kept out of the inbox, its counts and the bell. */
    isTest: boolean('is_test').notNull().default(false),
    /** The page the visitor was on when the chat started (the widget's address). */
    pageUrl: text('page_url'),
    /** The language the widget spoke to the visitor in (bots/visitor-language.ts); null elsewhere. */
    visitorLanguage: text('visitor_language').$type<VisitorLanguage>(),
    unreadCount: integer('unread_count').notNull().default(0),
    /** The sequence number of the last message (messages are numbered 1, 2, ... per conversation). */
    lastSeq: integer('last_seq').notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_bot_idx').on(t.botId, t.lastMessageAt),
    index('conversations_tenant_idx').on(t.tenantId, t.lastMessageAt),
    index('conversations_visitor_idx').on(t.botId, t.visitorId),
    index('conversations_handoff_idx').on(t.tenantId, t.handoffState, t.humanRequestedAt),
    /** Analytics counts the conversations started in a period (analytics.queries.ts). */
    index('conversations_tenant_created_idx').on(t.tenantId, t.createdAt),
    /**
     * The playground's test chats, which analytics leaves out of every figure: a few rows per
     * workspace, read without touching its visitors' conversations (testConversations).
     */
    index('conversations_test_idx').on(t.tenantId, t.lastMessageAt).where(sql`${t.isTest}`),
    /**
     * One conversation per WhatsApp customer, number and bot: two messages handled at once by two
     * workers cannot both start one (the second fails, and its job, run again, finds the first).
     * Instagram and Messenger rely on each process handling a user's events in order: an index on
     * their existing rows could meet duplicates made before, and fail the migration.
     */
    uniqueIndex('conversations_whatsapp_customer_key')
      .on(t.whatsappPhoneNumberId, t.visitorId, t.botId)
      .where(sql`${t.channel} = 'whatsapp'`),
  ],
);

/** Every hand-off transition of a conversation: from, to, why, who and when (issue 15). */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    fromState: text('from_state').$type<HandoffState>().notNull(),
    toState: text('to_state').$type<HandoffState>().notNull(),
    reason: text('reason').$type<HandoffReason>().notNull(),
    actor: text('actor').$type<'visitor' | 'agent' | 'system'>().notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversation_events_conversation_idx').on(t.conversationId, t.id),
    /** Analytics counts hand-off requests in a period. */
    index('conversation_events_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

/** Agents' internal notes on a conversation; never sent to the visitor. */
export const conversationNotes = pgTable(
  'conversation_notes',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversation_notes_conversation_idx').on(t.conversationId, t.id)],
);

/** One message; `seq` orders a conversation without gaps, so a reconnecting client asks for seq > n. */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    botId: integer('bot_id').notNull(),
    seq: integer('seq').notNull(),
    messageType: text('message_type').notNull(),
    messageSource: text('message_source').notNull().default('bot'),
    senderId: text('sender_id'),
    recipientId: text('recipient_id'),
    message: text('message').notNull(),
    sources: jsonb('sources').$type<MessageSource[]>().notNull().default([]),
    qnaId: integer('qna_id'),
    attachments: jsonb('attachments').$type<Array<Record<string, unknown>>>().notNull().default([]),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_conversation_seq_key').on(t.conversationId, t.seq),
    index('messages_tenant_month_idx').on(t.tenantId, t.createdAt),
    /** WhatsApp's status webhooks name a sent message by its wamid. */
    index('messages_wamid_idx')
      .on(sql`(${t.metadata}->'delivery'->>'wamid')`)
      .where(sql`${t.metadata}->'delivery'->>'wamid' IS NOT NULL`),
    /** A message a client sent again after a reconnect (its client_id) is stored once per sender. */
    uniqueIndex('messages_client_id_key')
      .on(t.botId, t.senderId, sql`(${t.metadata}->>'client_id')`)
      .where(sql`${t.metadata}->>'client_id' IS NOT NULL`),
  ],
);

/**
 * Bot answers per workspace per calendar month (UTC), bumped with each answer: the plan's credits
 * are checked with one row read instead of counting the month's messages on every message.
 */
export const messageUsage = pgTable(
  'message_usage',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** First day of the month, 'YYYY-MM-01'. */
    month: text('month').notNull(),
    botMessages: integer('bot_messages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.month] })],
);
