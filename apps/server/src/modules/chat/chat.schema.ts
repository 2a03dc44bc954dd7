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
  ],
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
