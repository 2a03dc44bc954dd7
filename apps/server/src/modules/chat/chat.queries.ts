import {
  BOT,
  type ChatMessage,
  type Conversation,
  type Delivery,
  type HandoffChange,
  type MessageAction,
  type VisitorLanguage,
} from '@parley/contracts';
import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared, queryRows, rowOf } from '../../core/db/database.js';
import { isoTime, jsonPick, jsonPickEach, jsonTruthy } from '../../core/db/json-sql.js';
import { notFound } from '../../core/errors.js';
import { JOBS_CHANNEL } from '../../core/jobs/queue.js';
import { conversations, messages, messageUsage } from './chat.schema.js';

export type ConversationRow = typeof conversations.$inferSelect;

/** Who a message to the conversation's other side is for: its visitor, or the signed-in user. */
export const recipientOf = (row: ConversationRow): string | null =>
  row.visitorId ?? (row.userId ? String(row.userId) : null);
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = Omit<
  typeof messages.$inferInsert,
  'id' | 'seq' | 'tenantId' | 'conversationId' | 'botId'
>;

export type AnswerMode = NonNullable<ChatMessage['answer_mode']>;

export function toMessage(row: MessageRow): ChatMessage {
  const metadata = (row.metadata ?? {}) as {
    answer_mode?: AnswerMode;
    user_id?: number;
    actions?: MessageAction[];
    handoff?: HandoffChange;
    message_metadata?: Record<string, unknown>;
    delivery?: Delivery;
    unverified?: string[];
    client_id?: string;
    edited?: { count: number; at: string };
    unsent_at?: string;
  };
  return {
    id: row.id,
    chat_id: row.id,
    conversation_id: row.conversationId,
    bot_id: row.botId,
    seq: row.seq,
    message: row.message,
    message_type: row.messageType as ChatMessage['message_type'],
    message_source: row.messageSource as ChatMessage['message_source'],
    sender_id: row.senderId,
    recipient_id: row.recipientId,
    user_id: metadata.user_id ?? null,
    timestamp: row.createdAt.toISOString(),
    sources: row.sources,
    qna_id: row.qnaId,
    attachments: row.attachments as ChatMessage['attachments'],
    answer_mode: metadata.answer_mode ?? null,
    actions: metadata.actions ?? [],
    handoff: metadata.handoff ?? null,
    // Channel messages only (Instagram, Messenger): what the channel gave, and how sending went.
    ...(metadata.message_metadata ? { message_metadata: metadata.message_metadata } : {}),
    ...(metadata.delivery ? { delivery: metadata.delivery } : {}),
    ...(metadata.unverified ? { unverified: metadata.unverified } : {}),
    ...(metadata.client_id ? { client_id: metadata.client_id } : {}),
    ...(metadata.edited ? { edited: metadata.edited } : {}),
    ...(metadata.unsent_at ? { unsent_at: metadata.unsent_at } : {}),
    usage:
      row.promptTokens === null && row.completionTokens === null
        ? null
        : { prompt_tokens: row.promptTokens ?? 0, completion_tokens: row.completionTokens ?? 0 },
  };
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    bot_id: row.botId,
    name: row.name,
    channel: row.channel,
    user_id: row.userId,
    visitor_id: row.visitorId,
    is_helpdesk_in_control: row.isHelpdeskInControl,
    admin_id: row.adminId,
    admin_name: row.adminName,
    handoff_state: row.handoffState,
    unread_count: row.unreadCount,
    last_seq: row.lastSeq,
    last_message_at: row.lastMessageAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    ...(row.userProfile ? { user_profile: row.userProfile } : {}),
    ...(row.whatsappPhoneNumberId ? { whatsapp_phone_number_id: row.whatsappPhoneNumberId } : {}),
    ...(row.visitorLanguage ? { visitor_language: row.visitorLanguage } : {}),
  };
}

/**
 * A conversation `c` as JSON, as toConversation maps it (user_profile, whatsapp_phone_number_id and
 * visitor_language only when set), for statements that build a list's reply in the database.
 */
export const CONVERSATION_JSON = `jsonb_build_object(
    'id', c.id, 'bot_id', c.bot_id, 'name', c.name, 'channel', c.channel, 'user_id', c.user_id,
    'visitor_id', c.visitor_id, 'is_helpdesk_in_control', c.is_helpdesk_in_control, 'admin_id', c.admin_id,
    'admin_name', c.admin_name, 'handoff_state', c.handoff_state, 'unread_count', c.unread_count,
    'last_seq', c.last_seq, 'last_message_at', ${isoTime('c.last_message_at')}, 'created_at', ${isoTime('c.created_at')})
  || case when ${jsonTruthy('c.user_profile')} then jsonb_build_object('user_profile', c.user_profile) else '{}'::jsonb end
  || case when coalesce(c.whatsapp_phone_number_id, '') = '' then '{}'::jsonb
     else jsonb_build_object('whatsapp_phone_number_id', c.whatsapp_phone_number_id) end
  || case when c.visitor_language IS NULL then '{}'::jsonb
     else jsonb_build_object('visitor_language', c.visitor_language) end`;

const SOURCE_KEYS = ['source_type', 'page_number', 'page_url', 'page_title', 'heading_path', 'synced_at'];
const ATTACHMENT_KEYS = ['name', 'url', 'content_type', 'size'];
const actions = `m.metadata->'actions'`;
/** Each action cut to its kind's fields: a booking's link, or an offer's title. */
const ACTIONS_JSON = `(case when jsonb_typeof(${actions}) = 'array' then (select coalesce(jsonb_agg(case
    when a->>'type' = 'booking' then ${jsonPick('a', ['type', 'title', 'url', 'provider'])}
    else ${jsonPick('a', ['type', 'title'])} end order by n), '[]'::jsonb)
  from jsonb_array_elements(${actions}) with ordinality as listed(a, n))
  else coalesce(nullif(${actions}, 'null'::jsonb), '[]'::jsonb) end)`;
const metadata = (key: string) => `m.metadata->'${key}'`;
/** An optional field of the message, present when its metadata holds a truthy value. */
const optional = (key: string, value: string) =>
  `case when ${jsonTruthy(metadata(key))} then jsonb_build_object('${key}', ${value}) else '{}'::jsonb end`;

/**
 * A message `m` as JSON, as toMessage maps it and ChatMessage lets it through (stored objects cut
 * to the fields the schema shows), for statements that build a reply in the database.
 */
export const MESSAGE_JSON = `jsonb_build_object(
    'id', m.id, 'chat_id', m.id, 'conversation_id', m.conversation_id, 'bot_id', m.bot_id, 'seq', m.seq,
    'message', m.message, 'message_type', m.message_type, 'message_source', m.message_source,
    'sender_id', m.sender_id, 'recipient_id', m.recipient_id, 'user_id', ${metadata('user_id')},
    'timestamp', ${isoTime('m.created_at')}, 'sources', ${jsonPickEach('m.sources', SOURCE_KEYS)},
    'qna_id', m.qna_id, 'attachments', ${jsonPickEach('m.attachments', ATTACHMENT_KEYS)},
    'answer_mode', ${metadata('answer_mode')}, 'actions', ${ACTIONS_JSON},
    'handoff', ${jsonPick(metadata('handoff'), ['from', 'to', 'reason', 'test'])},
    'usage', case when m.prompt_tokens is null and m.completion_tokens is null then null
      else jsonb_build_object('prompt_tokens', coalesce(m.prompt_tokens, 0),
        'completion_tokens', coalesce(m.completion_tokens, 0)) end)
  || ${optional('message_metadata', metadata('message_metadata'))}
  || ${optional('delivery', jsonPick(metadata('delivery'), ['status', 'error']))}
  || ${optional('unverified', metadata('unverified'))}
  || ${optional('edited', jsonPick(metadata('edited'), ['count', 'at']))}
  || ${optional('unsent_at', metadata('unsent_at'))}`;

export type ConversationFilter = {
  tenantId: number;
  botId?: number;
  userId?: number;
  skip: number;
  limit: number;
};

/** A page of the tenant's conversations, latest first, as the reply's JSON text (one statement). */
export async function conversationPage(db: DbOrTx, filter: ConversationFilter): Promise<string> {
  const bot = filter.botId ? sql` and c.bot_id = ${filter.botId}` : sql``;
  const user = filter.userId ? sql` and c.user_id = ${filter.userId}` : sql``;
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select coalesce(json_agg(${sql.raw(CONVERSATION_JSON)} order by c.last_message_at desc, c.id desc),
          '[]'::json)::text as body
        from (select * from conversations c where c.tenant_id = ${filter.tenantId}${bot}${user}
              order by c.last_message_at desc, c.id desc offset ${filter.skip} limit ${filter.limit}) c`,
  );
  return row!.body;
}

export async function requireConversation(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<ConversationRow> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.tenantId, tenantId)));
  if (!row) throw notFound('Conversation not found');
  return row;
}

export async function messagesAfter(db: DbOrTx, conversationId: number, afterSeq = 0): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq));
}

/**
 * Web visitors' questions asked between `from` and `until` that are still the last word of their
 * conversation, with the bot holding it: a server stopped while answering them (a crash leaves no
 * time to drain). Each is claimed once, whichever process asks (marked `left_over`), and its
 * conversation returned; at most `limit`.
 */
export async function claimLeftOverQuestions(
  db: DbOrTx,
  window: { from: Date; until: Date },
  limit: number,
): Promise<ConversationRow[]> {
  const claimed = await queryRows<{ conversation_id: number }>(
    db,
    sql`WITH due AS (
          SELECT m.id FROM conversations c
            JOIN messages m ON m.conversation_id = c.id AND m.seq = c.last_seq
           WHERE c.last_message_at >= ${window.from.toISOString()}::timestamptz
             AND c.last_message_at < ${window.until.toISOString()}::timestamptz
             AND c.channel = 'bot' AND NOT c.is_test AND NOT c.is_helpdesk_in_control
             AND c.handoff_state = 'bot'
             AND m.message_type = 'user' AND NOT coalesce(m.metadata ? 'left_over', false)
           ORDER BY m.id
           LIMIT ${limit}
           FOR UPDATE OF m SKIP LOCKED),
        claimed AS (
          UPDATE messages SET metadata = coalesce(metadata, '{}'::jsonb) || '{"left_over": true}'::jsonb
            FROM due WHERE messages.id = due.id
          RETURNING messages.conversation_id)
        SELECT conversation_id FROM claimed`,
  );
  if (claimed.length === 0) return [];
  return db
    .select()
    .from(conversations)
    .where(
      inArray(
        conversations.id,
        claimed.map((row) => Number(row.conversation_id)),
      ),
    );
}

/**
 * A message its sender sent before with this client id (a client sends again what the server did
 * not confirm before the socket dropped), with its conversation; null when it was never stored.
 */
export async function messageByClientId(
  db: DbOrTx,
  key: { tenantId: number; botId: number; senderId: string; clientId: string },
): Promise<{ message: MessageRow; conversation: ConversationRow } | null> {
  const [row] = await db
    .select({ message: messages, conversation: conversations })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(messages.botId, key.botId),
        eq(messages.senderId, key.senderId),
        sql`${messages.metadata}->>'client_id' = ${key.clientId}`,
        eq(messages.tenantId, key.tenantId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Who may write to a conversation, checked in the statement that stores the message. */
export type AppendGuard = {
  tenantId: number;
  botId?: number;
  /** A visitor's own conversation, or a signed-in user's. */
  visitorId?: string;
  userId?: number;
  /** An agent's reply: the conversation must be held by this user. */
  heldBy?: number;
};

export type AppendOptions = {
  /** Checked with the write: a conversation failing it is not written and the append answers null. */
  guard?: AppendGuard;
  /** A user's first question names a conversation still called 'New Chat' (the inbox shows it). */
  nameFromQuestion?: boolean;
  /**
   * The NOTIFY that announces the message to other processes, built from the stored row and the
   * conversation after the write (ChatHub.storedNotification): sent when the write commits.
   */
  announce?: (message: SQL, conversation: SQL) => SQL;
  /**
   * What answering the question needs, read by the same statement (a round trip fewer before the
   * model is asked): this month's bot answers and the last `history` messages before this one.
   */
  answerContext?: { history: number };
  /**
   * A bot's answer counts against this month's credits in the same statement, so the answer and its
   * count commit together without a transaction of several round trips holding the tenant's usage
   * row (every bot answer of the tenant queues on it).
   */
  countsAnswer?: boolean;
  /**
   * The language the message's words tell (a channel customer's), kept by a conversation that has
   * none yet: one who opened with "hi" is spoken to in the language of their first real question.
   */
  visitorLanguage?: VisitorLanguage | null;
};

export type AnswerContext = { used: number; history: MessageRow[] };

export type Appended = {
  message: MessageRow;
  /** The conversation after the write: its new last_seq, unread count, name and control state. */
  conversation: ConversationRow;
  /** The stored row in its raw form (what other processes get in the NOTIFY). */
  raw: Record<string, unknown>;
  /** When asked for with `answerContext`. */
  context: AnswerContext | null;
};

const NAME_CHARS = 60;

/**
 * Appends a message with the conversation's next sequence number, in one statement (one round
 * trip): the counter's UPDATE takes the conversation's row lock, which orders concurrent writers
 * until they commit, so sequence numbers never repeat or skip; messages from the other side stay
 * unread until an agent opens the conversation. The guard, the naming and the announcement ride on
 * the same statement. Null when the guard refuses the conversation (or it does not exist).
 */
export async function appendMessage(
  db: DbOrTx,
  conversationId: number,
  values: NewMessage,
  options: AppendOptions = {},
): Promise<Appended | null> {
  const unread = values.messageType === 'user' ? 1 : 0;
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const name = options.nameFromQuestion
    ? values.message.replace(/\s+/g, ' ').trim().slice(0, NAME_CHARS)
    : null;
  const announced = options.announce
    ? sql`, LATERAL (SELECT ${options.announce(sql`inserted`, sql`counter`)}) AS announced`
    : sql``;
  const [result] = await queryPrepared<{
    message: Record<string, unknown>;
    conversation: Record<string, unknown>;
    used?: number;
    history?: Record<string, unknown>[];
  }>(
    db,
    sql`WITH counter AS (
          UPDATE conversations
             SET last_seq = last_seq + 1, last_message_at = now(),
                 unread_count = unread_count + (CASE WHEN is_test THEN 0 ELSE ${unread} END),
                 name = CASE WHEN name = ${BOT.newConversationName} AND ${name}::text <> '' THEN ${name}::text ELSE name END${
                   options.visitorLanguage
                     ? sql`, visitor_language = coalesce(visitor_language, ${options.visitorLanguage}::text)`
                     : sql``
                 }
           WHERE id = ${conversationId}${guardOf(options.guard)}
       RETURNING *),
        inserted AS (
        INSERT INTO messages (tenant_id, conversation_id, bot_id, seq, message_type, message_source, sender_id,
                              recipient_id, message, sources, qna_id, attachments, metadata, prompt_tokens,
                              completion_tokens)
        SELECT counter.tenant_id, counter.id, counter.bot_id, counter.last_seq, ${values.messageType},
               ${values.messageSource ?? 'bot'}, ${values.senderId ?? null}, ${values.recipientId ?? null},
               ${values.message}, ${json(values.sources ?? [])}::jsonb, ${values.qnaId ?? null},
               ${json(values.attachments ?? [])}::jsonb, ${json(values.metadata)}::jsonb,
               ${values.promptTokens ?? null}, ${values.completionTokens ?? null}
          FROM counter
        RETURNING *)${counted(options.countsAnswer)}${OUTBOX}
        SELECT row_to_json(inserted.*) AS message, row_to_json(counter.*) AS conversation${contextColumns(options.answerContext)},
               (SELECT count(*) FROM (SELECT pg_notify(${JOBS_CHANNEL}, outbox.name) FROM outbox) woke) AS queued
          FROM inserted, counter${announced}`,
  );
  if (!result) return null;
  return {
    message: rowOf(messages, result.message),
    conversation: rowOf(conversations, result.conversation),
    raw: result.message,
    context: options.answerContext
      ? { used: result.used ?? 0, history: (result.history ?? []).map((row) => rowOf(messages, row)) }
      : null,
  };
}

/** The job that sends a stored message to its channel (Instagram, Messenger; modules/social). */
export const CHANNEL_SEND_JOB = 'channel.send';
/** WhatsApp's own send job (modules/whatsapp): the Cloud API, not the Messenger Platform. */
export const WHATSAPP_SEND_JOB = 'whatsapp.send';
/** Channels whose conversations are answered through a send API rather than a socket. */
export const OUTBOX_CHANNELS = ['instagram', 'messenger', 'whatsapp'] as const;

/**
 * An outbox: a message for a channel user (the bot's answer, an agent's reply, a hand-off notice) is
 * queued for sending by the very statement that stores it, so a stored message is sent, or shown as
 * failed, and never silently lost. Messages that came from the channel (`from_channel`) and the
 * welcome (a web greeting) are not sent.
 */
const OUTBOX = sql`,
        outbox AS (
        INSERT INTO jobs (name, data, tenant_id, max_attempts)
        SELECT CASE WHEN counter.channel = 'whatsapp' THEN ${WHATSAPP_SEND_JOB} ELSE ${CHANNEL_SEND_JOB} END,
               json_build_object('messageId', inserted.id)::jsonb, inserted.tenant_id, 6
          FROM inserted, counter
         WHERE counter.channel IN (${sql.join(
           OUTBOX_CHANNELS.map((channel) => sql`${channel}`),
           sql`, `,
         )})
           AND inserted.message_type <> 'user'
           AND coalesce(inserted.metadata->>'from_channel', inserted.metadata->>'welcome') IS NULL
        RETURNING id, name)`;

/** One bot answer counted against this month's credits, as a step of the append that stores it. */
function counted(countsAnswer: boolean | undefined): SQL {
  if (!countsAnswer) return sql``;
  return sql`,
        counted AS (
        INSERT INTO message_usage (tenant_id, month, bot_messages)
        SELECT inserted.tenant_id, ${monthOf(new Date())}, 1 FROM inserted
            ON CONFLICT (tenant_id, month) DO UPDATE SET bot_messages = message_usage.bot_messages + 1)`;
}

/** The answer's context as columns of the append: it reads the snapshot before this message. */
function contextColumns(context: AppendOptions['answerContext']): SQL {
  if (!context) return sql``;
  return sql`,
    coalesce((SELECT u.bot_messages FROM message_usage u
               WHERE u.tenant_id = counter.tenant_id AND u.month = ${monthOf(new Date())}), 0) AS used,
    (SELECT coalesce(json_agg(h.* ORDER BY h.seq), '[]'::json) FROM (
       SELECT * FROM messages m WHERE m.conversation_id = counter.id AND m.seq < counter.last_seq
        ORDER BY m.seq DESC LIMIT ${context.history}) h) AS history`;
}

function guardOf(guard: AppendGuard | undefined): SQL {
  if (!guard) return sql``;
  const conditions = [sql`tenant_id = ${guard.tenantId}`];
  if (guard.botId !== undefined) conditions.push(sql`bot_id = ${guard.botId}`);
  if (guard.visitorId !== undefined) conditions.push(sql`visitor_id = ${guard.visitorId}`);
  if (guard.userId !== undefined) conditions.push(sql`user_id = ${guard.userId}`);
  if (guard.heldBy !== undefined) conditions.push(sql`is_helpdesk_in_control AND admin_id = ${guard.heldBy}`);
  return sql` AND ${sql.join(conditions, sql` AND `)}`;
}

/** appendMessage to a conversation known to exist and be writable (checked before, in the same transaction). */
export async function appendTo(
  db: DbOrTx,
  conversationId: number,
  values: NewMessage,
  options: Omit<AppendOptions, 'guard'> = {},
): Promise<Appended> {
  const appended = await appendMessage(db, conversationId, values, options);
  if (!appended) throw new Error(`conversation ${conversationId} vanished while a message was stored`);
  return appended;
}

/** The NOTIFYs of a new conversation and of its welcome message (ChatHub.startAnnouncements). */
export type StartAnnouncements = {
  conversation: (conversation: ConversationRow) => SQL;
  message: AppendOptions['announce'];
};

type NewConversation = Pick<
  typeof conversations.$inferInsert,
  | 'tenantId'
  | 'botId'
  | 'userId'
  | 'visitorId'
  | 'channel'
  | 'isTest'
  | 'pageUrl'
  | 'visitorLanguage'
  | 'instagramAccountId'
  | 'messengerAccountId'
  | 'userProfile'
>;
type Started = { conversation: ConversationRow; welcome: Appended };

/** A new conversation, seeded with the bot's welcome message (console.md section 4 New chat). */
export async function startConversation(
  db: DbOrTx,
  values: NewConversation,
  /** The bot's greeting (welcomeOf in the contracts). */
  welcome: string,
  announce?: StartAnnouncements,
): Promise<Started> {
  return db.transaction((tx) => seedConversation(tx, values, welcome, announce));
}

/**
 * A new conversation, its welcome message and its first question, in one transaction: a question
 * that cannot be stored leaves no empty conversation behind.
 */
export async function startConversationWith(
  db: DbOrTx,
  values: NewConversation,
  /** The bot's greeting (welcomeOf in the contracts). */
  welcome: string,
  announce: StartAnnouncements | undefined,
  question: NewMessage,
  options: Omit<AppendOptions, 'guard'>,
): Promise<Started & { question: Appended }> {
  return db.transaction(async (tx) => {
    const started = await seedConversation(tx, values, welcome, announce);
    return { ...started, question: await appendTo(tx, started.conversation.id, question, options) };
  });
}

async function seedConversation(
  tx: DbOrTx,
  values: NewConversation,
  /** The bot's greeting (welcomeOf in the contracts). */
  welcome: string,
  announce?: StartAnnouncements,
): Promise<Started> {
  const [conversation] = await tx
    .insert(conversations)
    .values({ ...values, name: BOT.newConversationName })
    .returning();
  // Announced before its first message: both NOTIFYs go out, in this order, at the commit.
  if (announce) await tx.execute(sql`SELECT ${announce.conversation(conversation!)}`);
  const seeded = await appendTo(
    tx,
    conversation!.id,
    { messageType: 'bot', message: welcome, metadata: { welcome: true } },
    { announce: announce?.message },
  );
  return { conversation: seeded.conversation, welcome: seeded };
}

/** First day of the month in UTC, as message_usage keys it. */
export const monthOf = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);

/** Bot answers of the tenant this calendar month (UTC): what the plan's credits count. */
export async function botMessagesThisMonth(db: DbOrTx, tenantId: number, now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const [row] = await db
    .select({ n: messageUsage.botMessages })
    .from(messageUsage)
    .where(and(eq(messageUsage.tenantId, tenantId), eq(messageUsage.month, monthOf(now))));
  return { used: row?.n ?? 0, start, end };
}

/** The last `limit` messages before a sequence number, oldest first (the model's history). */
export async function messagesBefore(db: DbOrTx, conversationId: number, beforeSeq: number, limit: number) {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), lt(messages.seq, beforeSeq)))
    .orderBy(desc(messages.seq))
    .limit(limit);
  return rows.reverse();
}
