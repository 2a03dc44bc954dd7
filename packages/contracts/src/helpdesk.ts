import { z } from 'zod';
import { ChatMessage, ConversationWithMessages, PingFrame, ResumeFrame } from './chat.js';
import { BodyId, FrameId, Id, inputText, MAX_ID } from './common.js';
import { need, open, type RouteRule, signedIn } from './rules.js';

/**
 * The support inbox (console.md sections 3 Grouped chat, Help-desk control, Inbox state; 4; 7 Chat
 * and inbox; issue "Support inbox"): each route and what it needs. Agents hold the Inbox feature.
 */
export const HELPDESK_ROUTE_RULES = {
  'PATCH /chat/conversations/:id/helpdesk-control': need('Inbox', 'write'),
  'GET /chat/conversations/:id/helpdesk-control-status': need('Inbox', 'read'),
  'POST /chat/conversations/bulk-helpdesk-control-status': need('Inbox', 'read'),
  'GET /chat/helpdesk/unread-conversations/:tenantId': need('Inbox', 'read'),
  'POST /chat/helpdesk/mark-conversation-read/:id': need('Inbox', 'read'),
  'GET /chat/helpdesk/grouped/:tenantId': need('Inbox', 'read'),
  'GET /chat/helpdesk/conversations/:id': need('Inbox', 'read'),
  'POST /chat/helpdesk/conversations/:id/reply': need('Inbox', 'write'),
  'DELETE /chat/helpdesk/conversations/:id': need('Inbox', 'write'),
  'POST /chat/helpdesk/new-chat': need('Inbox', 'write'),
  'POST /chat/websocket/disconnect': signedIn,
  'GET /chat/helpdesk/presence/:tenantId': signedIn,
  'GET /auth/bot/uuid/:uuid/presence': open,
  // WebSocket: the admin (help-desk) channel; the token, tenant_id and user_id travel in the query.
  'GET /chat/helpdesk': open,
} as const satisfies Record<string, RouteRule>;

export const HELPDESK_TEXTS = {
  agentJoined: (name: string) => `${name} from our team has joined the conversation.`,
  botBack: 'You are chatting with the bot again.',
  agentAway: 'Our team member had to leave; the bot is answering again.',
  heldBy: (name: string) => `This conversation is being handled by ${name}`,
  notHolding: 'Take over the conversation before replying',
  /** In the inbox, in place of an Instagram message its sender unsent (its text is gone). */
  unsent: 'The visitor unsent this message.',
  /** Beside a message its sender edited in Instagram or Messenger. */
  edited: 'edited',
} as const;

/** console.md section 3 Help-desk control status. */
export const HelpdeskControlStatus = z.object({
  conversation_id: z.number().int(),
  is_helpdesk_in_control: z.boolean(),
  admin_id: z.number().int().nullable(),
  admin_name: z.string().nullable(),
});
export type HelpdeskControlStatus = z.infer<typeof HelpdeskControlStatus>;

export const HelpdeskControlBody = z.object({
  tenant_id: BodyId('Tenant'),
  is_helpdesk_in_control: z.boolean({ error: 'is_helpdesk_in_control must be true or false' }),
  instagram_account_id: inputText().max(200).nullable().optional(),
  messenger_account_id: inputText().max(200).nullable().optional(),
  whatsapp_phone_number_id: inputText().max(200).nullable().optional(),
});
export type HelpdeskControlBody = z.infer<typeof HelpdeskControlBody>;

/** 409 when another agent already holds the conversation: who does. */
export const HelpdeskConflict = z.object({
  detail: z.string(),
  admin_id: z.number().int().nullable(),
  admin_name: z.string().nullable(),
});

export const TenantQuery = z.object({ tenant_id: Id });
export const BulkControlBody = z.object({
  tenant_id: BodyId('Tenant'),
  conversation_ids: z.array(BodyId('Conversation')).max(500),
});

/** Unread state (section 3 Inbox state): per conversation, per bot, and the total. */
export const UnreadConversations = z.object({
  conversations: z.array(
    z.object({ conversation_id: z.number().int(), bot_id: z.number().int(), unread_count: z.number().int() }),
  ),
  bots: z.array(z.object({ bot_id: z.number().int(), unread: z.boolean(), unread_count: z.number().int() })),
  total: z.number().int(),
});
export type UnreadConversations = z.infer<typeof UnreadConversations>;

/** Section 3 Grouped chat: user_profile of a conversation's visitor. */
export const UserProfile = z.object({
  name: z.string().nullable(),
  profilePicture: z.string().nullable(),
  platform: z.string(),
  phoneNumber: z.string().nullable(),
  userId: z.string().nullable(),
  lastUpdated: z.string(),
  source: z.string(),
});
export type UserProfile = z.infer<typeof UserProfile>;

export const GroupedConversation = z.object({
  conversation_id: z.number().int(),
  /** The first message, or the second if the first is the default welcome. */
  convName: z.string(),
  channel: z.string(),
  instagram_account_id: z.string().nullable(),
  messenger_account_id: z.string().nullable(),
  whatsapp_phone_number_id: z.string().nullable(),
  user_profile: UserProfile,
  last_message: ChatMessage.nullable(),
  last_message_at: z.string(),
  unread_count: z.number().int(),
  is_helpdesk_in_control: z.boolean(),
  admin_id: z.number().int().nullable(),
  admin_name: z.string().nullable(),
});
export type GroupedConversation = z.infer<typeof GroupedConversation>;

/** Per bot, its conversations, most recent first; bots ordered by their latest message. */
export const GroupedChat = z.object({
  bot_id: z.number().int(),
  bot_name: z.string(),
  unread: z.boolean(),
  conversations: z.array(GroupedConversation),
});
export type GroupedChat = z.infer<typeof GroupedChat>;

export const GroupedQuery = z.object({
  channel: z.enum(['bot', 'instagram', 'messenger', 'whatsapp']).optional(),
  holder: z.enum(['bot', 'human']).optional(),
  search: inputText().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * GET /chat/helpdesk/conversations/:id: without either, every message (as before); with `limit`, the
 * newest `limit` messages (before `before_seq` when given), oldest first, and `has_earlier`.
 */
export const HELPDESK_THREAD_PAGE = 50;
export const HelpdeskConversationQuery = z.object({
  before_seq: z.coerce
    .number({ error: 'before_seq must be a whole number' })
    .int('before_seq must be a whole number')
    .min(1, 'before_seq must be at least 1')
    // A sequence number is a 32-bit integer in the database: a larger one would fail there.
    .max(MAX_ID, `before_seq must be at most ${MAX_ID}`)
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .optional(),
});
export type HelpdeskConversationQuery = z.infer<typeof HelpdeskConversationQuery>;
/** A page of the thread says whether older messages remain (absent: every message is there). */
export const HelpdeskConversation = ConversationWithMessages.extend({ has_earlier: z.boolean().optional() });
export type HelpdeskConversation = z.infer<typeof HelpdeskConversation>;
export const ReplyBody = z.object({
  message: inputText({ error: 'Message is required' }).trim().min(1, 'Message is required').max(4000),
});
export const NewChatBody = z.object({ bot_id: BodyId('Bot') });

/** The help-desk socket's query: the access token and both ids (section 5: without them, nothing). */
export const HelpdeskSocketQuery = z.object({
  token: inputText().max(4000).optional(),
  tenant_id: inputText().max(20).optional(),
  user_id: inputText().max(20).optional(),
});

/** Frames an agent sends on the help-desk socket: ping, resume, the opening frame, a reply. */
export const HelpdeskClientFrame = z.union([
  PingFrame,
  ResumeFrame,
  z.object({
    content: z.object({
      bot_id: FrameId.optional(),
      user_id: z.union([z.number(), z.string()]).nullable().optional(),
      tenant_id: z.union([z.number(), z.string()]).nullable().optional(),
      /** 0 with message 'connection': the opening frame; otherwise a reply in that conversation. */
      conversation_id: FrameId,
      message: inputText().max(4000),
      message_type: z.enum(['helpdesk', 'user']),
    }),
    elements: z.array(z.unknown()).max(20).default([]),
  }),
]);
export type HelpdeskClientFrame = z.infer<typeof HelpdeskClientFrame>;

export const DisconnectBody = z.object({
  user_id: BodyId('User'),
  tenant_id: BodyId('Tenant'),
  is_admin: z.boolean(),
});

/** Whether a human agent of the workspace is online (the top bar's Helpdesk Online / Offline). */
export const Presence = z.object({ agents_online: z.boolean(), count: z.number().int() });
export type Presence = z.infer<typeof Presence>;

/** Frames of the help-desk WebSocket from the server (besides pong and error). */
export type HelpdeskFrame =
  | { type: 'connected'; message: string }
  | { type: 'message'; conversation_id: number; bot_id: number; final_result_object: ChatMessage }
  | {
      type: 'helpdesk_control';
      conversation_id: number;
      bot_id: number;
      content: HelpdeskControlStatus;
      message?: string;
    }
  | { type: 'unread'; conversation_id: number; bot_id: number; unread_count: number }
  | { type: 'presence'; agents_online: boolean; count: number }
  | { type: 'conversation'; conversation_id: number; bot_id: number; deleted?: boolean }
  | { type: 'pong' }
  /** A notification was stored for this user: fetch the bell's count (notifications.ts). */
  | { type: 'notification'; user_id: number; tenant_id: number }
  /** This agent's user changed (roles, grants, profile): read GET /auth/user again (SESSION_VERSION_HEADER). */
  | { type: 'session'; version: string }
  | { error: string };

/** The presence frame visitors' chat sockets get (the widget shows whether a human is available). */
export type VisitorPresenceFrame = { type: 'presence'; agents_online: boolean };
