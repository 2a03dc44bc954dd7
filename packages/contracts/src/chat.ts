import { z } from 'zod';
import { BodyId, FrameId, Id, inputText, MAX_ID } from './common.js';
import { VISITOR_LANGUAGES } from './constants.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';
import { Delivery, ReplyWindow } from './social.js';

/**
 * Chat (console.md section 7 Chat and inbox). The playground and the console chat as a signed-in
 * user; visitors chat over the WebSocket /api/chat/stream (docs/realtime.md) with a signed
 * anonymous identity from POST /chat/visitor.
 */
export const CHAT_ROUTE_RULES = {
  'POST /chat/chats': need(BOTS_SUBJECT, 'read'),
  'POST /chat/chats/stream': need(BOTS_SUBJECT, 'read'),
  'GET /chat/chats': need(BOTS_SUBJECT, 'read'),
  'GET /chat/chats/:id': need(BOTS_SUBJECT, 'read'),
  'GET /chat/chats/user/:userId/bot/:botId': need(BOTS_SUBJECT, 'read'),
  'GET /chat/chats/user/:id': need(BOTS_SUBJECT, 'read'),
  'GET /chat/chats/conversation/:id': need(BOTS_SUBJECT, 'read'),
  'DELETE /chat/chats/conversation/:id': need(BOTS_SUBJECT, 'write'),
  'POST /chat/upload-file': need(BOTS_SUBJECT, 'read'),
  'GET /chat/attachments/:name': open,
  'GET /chat/message-limit/:tenantId': need(BOTS_SUBJECT, 'read'),
  // Visitors: a signed anonymous identity for a bot's widget, then the WebSocket.
  'POST /chat/visitor': open,
  'GET /chat/stream': open,
} as const satisfies Record<string, RouteRule>;

/** `system`: a hand-off notice (an agent joined, the conversation closed...), shown to both sides. */
export const MESSAGE_TYPES = ['user', 'bot', 'helpdesk', 'system'] as const;

/**
 * Who answers a conversation (issue 15): the bot; the bot still, while the visitor waits for a person
 * (`human_requested`); an agent (`human`, the bot silent); nobody (`closed`, until the visitor writes).
 */
export const HANDOFF_STATES = ['bot', 'human_requested', 'human', 'closed'] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];
/** Why a conversation changed hands; stored with each transition. */
export const HANDOFF_REASONS = [
  'visitor_asked',
  'low_confidence',
  'agent_took_over',
  'agent_handed_back',
  'agent_away',
  'no_agent_answered',
  'agent_closed',
  'idle',
  'visitor_wrote',
  'agent_reopened',
] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];
export const HandoffChange = z.object({
  from: z.enum(HANDOFF_STATES),
  to: z.enum(HANDOFF_STATES),
  reason: z.enum(HANDOFF_REASONS),
  /** In a test chat (the playground): no bell, no alert. */
  test: z.boolean().optional(),
});
export type HandoffChange = z.infer<typeof HandoffChange>;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MESSAGE_SOURCES = ['bot', 'instagram', 'messenger', 'whatsapp'] as const;

/** Where an answer came from; a bot never cites a source it did not retrieve. */
export const MessageSourceRef = z.object({
  source_type: z.string(),
  page_number: z.number().int().nullable(),
  page_url: z.string().nullable(),
  page_title: z.string().nullable(),
  /** The section cited (Title › Section); absent on messages stored before sections were kept. */
  heading_path: z.string().nullish(),
  /** When the source was last synced (ISO time); absent on older messages and Q&A pairs. */
  synced_at: z.string().nullish(),
});
export type MessageSourceRef = z.infer<typeof MessageSourceRef>;

export const Attachment = z.object({
  name: inputText(),
  url: inputText(),
  content_type: inputText(),
  size: z.number().int(),
});
export type Attachment = z.infer<typeof Attachment>;

/** The name POST /chat/upload-file gives a stored attachment: `<tenant id>_<random>.<extension>`. */
export const CHAT_ATTACHMENT_NAME = /^\d+_[0-9a-f]{32}\.(png|jpg|webp|gif|pdf)$/;
const UPLOADED_ATTACHMENT_PATH = '/api/chat/attachments/';

/** An absolute http(s) address, or the path of a file uploaded with POST /chat/upload-file. */
function isAttachmentUrl(value: string): boolean {
  if (value.startsWith(UPLOADED_ATTACHMENT_PATH))
    return CHAT_ATTACHMENT_NAME.test(value.slice(UPLOADED_ATTACHMENT_PATH.length));
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * An attachment a client sends with a message. Its url is shown as a link to whoever reads the
 * conversation, so only http(s) addresses and Parley's own uploads are taken (javascript:, data:
 * and paths into the console are a 400, before anything is stored).
 */
export const AttachmentInput = z.object({
  name: inputText().trim().min(1, 'Attachment name is required').max(200),
  url: inputText()
    .trim()
    .max(2048)
    .refine(
      isAttachmentUrl,
      'Attachment url must be an http(s) address or a file uploaded with /chat/upload-file',
    ),
  content_type: inputText().trim().max(200),
  size: z.number().int().min(0),
});
export type AttachmentInput = z.infer<typeof AttachmentInput>;

export const BookingAction = z.object({
  type: z.literal('booking'),
  title: z.string(),
  url: z.string(),
  provider: z.string(),
});
export type BookingAction = z.infer<typeof BookingAction>;

/**
 * An offer under a message: the contact form (nobody can join; leave your name, email and
 * question), the bot's lead form (older conversations), or a button to ask for a person (the bot
 * was not sure of its answer).
 */
export const OfferAction = z.object({
  type: z.enum(['contact_form', 'lead_form', 'human']),
  title: z.string(),
});
export type OfferAction = z.infer<typeof OfferAction>;
export const MessageAction = z.union([BookingAction, OfferAction]);
export type MessageAction = z.infer<typeof MessageAction>;

/** One message (console.md section 3 Chat message). `seq` numbers a conversation 1, 2, 3... without gaps. */
export const ChatMessage = z.object({
  id: z.number().int(),
  chat_id: z.number().int(),
  conversation_id: z.number().int(),
  bot_id: z.number().int(),
  seq: z.number().int(),
  message: z.string(),
  message_type: z.enum(MESSAGE_TYPES),
  message_source: z.enum(MESSAGE_SOURCES),
  sender_id: z.string().nullable(),
  recipient_id: z.string().nullable(),
  user_id: z.number().int().nullable(),
  timestamp: z.string(),
  sources: z.array(MessageSourceRef),
  qna_id: z.number().int().nullable(),
  attachments: z.array(Attachment),
  /**
   * How the answer was made: a matching Q&A pair, a language model, sentences of the sources
   * (extractive; `unsure` when they hold only part of the question, said so, with a person offered), nothing found, Parley's own order check (order), or the short reply to a greeting,
   * thanks or goodbye (small_talk), which asks nothing of the sources. On a system message,
   * `contact`: the visitor left their contact details through the contact form.
   */
  answer_mode: z
    .enum([
      'qna',
      'llm',
      'extractive',
      'unsure',
      'not_found',
      'limit',
      'booking',
      'helpdesk',
      'order',
      'contact',
      'small_talk',
    ])
    .nullable(),
  /** Buttons under the message: the bot's calendar booking, the lead form, a person. */
  actions: z.array(MessageAction),
  /** On a system message: the hand-off it announces. */
  handoff: HandoffChange.nullable(),
  /** Instagram and Messenger: the message as the channel gave it (console.md, message_metadata). */
  message_metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  /** A message sent to a channel: queued, sent, or failed with its reason. */
  delivery: Delivery.nullable().optional(),
  /**
   * The figures (prices, times, numbers, phone numbers, addresses, links) the bot's language model
   * stated that none of its sources holds: that answer was not given, and this one, from the
   * sources' own words, was given instead. Absent when the model's answer stood.
   */
  unverified: z.array(z.string()).optional(),
  /** A visitor's message sent with a client id (ClientFrame `client_id`): the sender's client knows its copy by it. */
  client_id: z.string().optional(),
  /** Instagram and Messenger: the user edited this message in the app (`message` is the new text). */
  edited: z.object({ count: z.number().int(), at: z.string() }).optional(),
  /** Instagram: the user unsent this message; its text and attachments were wiped when it happened. */
  unsent_at: z.string().optional(),
  usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() }).nullable(),
  /**
   * On a bot message read back as history (a conversation's messages, the socket's resume): the
   * reader's own thumbs on it (the visitor's, or the signed-in user's), null when they gave none.
   * Absent on messages as they are sent live.
   */
  rating: z.enum(['up', 'down']).nullable().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const Conversation = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  name: z.string(),
  channel: z.string(),
  user_id: z.number().int().nullable(),
  visitor_id: z.string().nullable(),
  is_helpdesk_in_control: z.boolean(),
  admin_id: z.number().int().nullable(),
  admin_name: z.string().nullable(),
  handoff_state: z.enum(HANDOFF_STATES),
  unread_count: z.number().int(),
  last_seq: z.number().int(),
  last_message_at: z.string(),
  created_at: z.string(),
  /** Instagram and Messenger: whether an agent may reply now, and why not (absent on the web). */
  reply_window: ReplyWindow.nullable().optional(),
  /** The channel user's profile (name, picture), when the channel gives one. */
  user_profile: z.record(z.string(), z.unknown()).nullable().optional(),
  /** WhatsApp: the number the customer writes to. */
  whatsapp_phone_number_id: z.string().nullable().optional(),
  /**
   * The language the visitor is spoken to in, when it was told: the widget's, or that of a channel
   * customer's first message (absent otherwise: the bot's visitor language).
   */
  visitor_language: z.enum(VISITOR_LANGUAGES).optional(),
});
export type Conversation = z.infer<typeof Conversation>;

export const ConversationWithMessages = Conversation.extend({ messages: z.array(ChatMessage) });
export type ConversationWithMessages = z.infer<typeof ConversationWithMessages>;

export const ChatRequest = z.object({
  bot_id: BodyId('Bot'),
  message: inputText({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(4000, 'A message is at most 4000 characters'),
  /** Omitted: a new conversation named 'New Chat'. */
  conversation_id: BodyId('Conversation').optional(),
  attachments: z.array(AttachmentInput).max(5).default([]),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** POST /chat/chats: the user's message and the bot's answer (null while a human holds the conversation). */
export const ChatExchange = z.object({
  conversation_id: z.number().int(),
  user_message: ChatMessage,
  bot_message: ChatMessage.nullable(),
});
export type ChatExchange = z.infer<typeof ChatExchange>;

/**
 * Events of POST /chat/chats/stream (Server-Sent Events, one JSON object per `data:` line):
 * start (the stored user message), chunk (text as it comes), final (the stored answer with its
 * sources), error.
 */
export const StreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), conversation_id: z.number().int(), user_message: ChatMessage }),
  z.object({ type: z.literal('chunk'), data: z.string() }),
  z.object({ type: z.literal('final'), final_result_object: ChatMessage.nullable() }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type StreamEvent = z.infer<typeof StreamEvent>;

export const ConversationListQuery = z.object({
  bot_id: Id.optional(),
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const AfterSeqQuery = z.object({ after_seq: z.coerce.number().int().min(0).max(MAX_ID).default(0) });
export const UserBotParams = z.object({
  userId: Id,
  botId: Id,
});

export const MessageLimit = z.object({
  used: z.number().int(),
  limit: z.number().int(),
  remaining: z.number().int(),
  period_start: z.string(),
  period_end: z.string(),
});
export type MessageLimit = z.infer<typeof MessageLimit>;

/** Attachments a conversation accepts, judged from content. */
export const CHAT_ATTACHMENT_KINDS = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'application/pdf',
] as const;
export const CHAT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

export const VisitorRequest = z.object({
  bot_uuid: z.uuid('is not a bot id'),
  visitor_token: inputText().max(2000).optional(),
});
export const VisitorIdentity = z.object({
  visitor_id: z.string(),
  visitor_token: z.string(),
  expires_at: z.string(),
});
export type VisitorIdentity = z.infer<typeof VisitorIdentity>;

export const PingFrame = z.object({ type: z.literal('ping') });
/** Ask for every message of a conversation after a sequence number (after a reconnect). */
export const ResumeFrame = z.object({
  type: z.literal('resume'),
  conversation_id: BodyId('Conversation'),
  after_seq: FrameId,
});

/** A visitor asks for a person (the "Talk to a person" button); conversation 0 starts one. */
export const RequestHumanFrame = z.object({
  type: z.literal('request_human'),
  bot_id: FrameId,
  conversation_id: FrameId,
});

/** WebSocket frames (console.md sections 7 Real-time and 9): what a client sends. */
export const ClientFrame = z.union([
  PingFrame,
  ResumeFrame,
  RequestHumanFrame,
  z.object({
    content: z.object({
      bot_id: FrameId,
      user_id: z.union([z.number(), z.string()]).nullable().optional(),
      tenant_id: z.union([z.number(), z.string()]).nullable().optional(),
      conversation_id: FrameId,
      message: inputText().max(4000),
      message_type: z.enum(['user', 'helpdesk']),
      /**
       * The client's own id for this message, kept while it waits for the server's copy: a message
       * sent again with the same id (after a reconnect) is stored and answered once.
       */
      client_id: z
        .string()
        .regex(/^[A-Za-z0-9_-]{8,64}$/, 'is not a client message id')
        .optional(),
    }),
    elements: z.array(z.unknown()).max(20).default([]),
  }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** A refusal a visitor may meet: sending faster than the rate limit, or a send that failed. */
export type ServerFrameCode = 'too_fast' | 'send_failed';

/** What the server sends: any of these keys (section 7 Real-time). */
export type ServerFrame = {
  type?: 'warning' | 'confirmation' | 'helpdesk_control' | 'pong' | 'connected' | 'message';
  error?: string;
  message?: string;
  /**
   * What a warning or error is, for a client that words it in the visitor's language (the widget):
   * `message` and `error` keep the English words for any other.
   */
  code?: ServerFrameCode;
  conversation_id?: number;
  /** A streamed chunk of the answer being written. */
  data?: string;
  /** A stored message (user, bot or helpdesk), with its seq: clients keep each seq once. */
  final_result_object?: ChatMessage;
  content?: unknown;
};

export const DEFAULT_MONTHLY_MESSAGES = 10_000;
