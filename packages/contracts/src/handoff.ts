import { z } from 'zod';
import { ChatMessage, HANDOFF_REASONS, HANDOFF_STATES } from './chat.js';
import { BodyId, Id, inputText } from './common.js';
import { PERSON_BUTTON } from './constants.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';

/**
 * A human when the bot can't (issue 15): visitors ask for a person, agents take over, close, reopen,
 * assign and keep notes; every transition is stored with who, when and why. docs/realtime.md.
 */
export const HANDOFF_ROUTE_RULES = {
  // The playground's "Talk to a person" (visitors send the request_human socket frame).
  'POST /chat/chats/:id/request-human': need(BOTS_SUBJECT, 'read'),
  // The contact form of a visitor nobody could come to: their visitor token (or the playground's
  // session) proves the conversation is theirs; limited per IP.
  'POST /chat/conversations/:id/contact': open,
  'GET /chat/helpdesk/inbox/:tenantId': need('Inbox', 'read'),
  'POST /chat/helpdesk/conversations/:id/close': need('Inbox', 'write'),
  'POST /chat/helpdesk/conversations/:id/reopen': need('Inbox', 'write'),
  'PUT /chat/helpdesk/conversations/:id/assignee': need('Inbox', 'write'),
  'GET /chat/helpdesk/conversations/:id/notes': need('Inbox', 'read'),
  'POST /chat/helpdesk/conversations/:id/notes': need('Inbox', 'write'),
  'GET /chat/helpdesk/conversations/:id/events': need('Inbox', 'read'),
} as const satisfies Record<string, RouteRule>;

/** What the visitor and the agents read as each transition happens (system messages). */
export const HANDOFF_TEXTS = {
  button: PERSON_BUTTON,
  requested: (position: number) =>
    position <= 1
      ? 'You asked to talk to a person. Someone from our team will join you shortly; you are next in line.'
      : `You asked to talk to a person. Someone from our team will join you shortly; you are number ${position} in line.`,
  nobodyOnline:
    'Nobody from our team is online right now. Leave your name, email and question, and we will get back to you as soon as we can.',
  noAnswer:
    'Sorry, nobody from our team could join in time. Leave your name, email and question, and we will get back to you; the bot is answering again meanwhile.',
  noAnswerContactLeft:
    'Sorry, nobody from our team could join in time. We have your details and will get back to you; the bot is answering again meanwhile.',
  /** The system message both sides read once the visitor sent the contact form. */
  contactLeft: (name: string, email: string) =>
    `Thanks, ${name}. Someone from our team will write to ${email} about your question as soon as they can.`,
  contactNotOffered:
    'The contact form is offered once you ask for a person and nobody from our team is online',
  contactFailed: 'Your details could not be sent. Please try again.',
  /** Channels without a form (Instagram, Messenger, WhatsApp): the channel already says who they are. */
  nobodyOnlineNoForm:
    'Nobody from our team is online right now. Please come back later; the bot can still help meanwhile.',
  noAnswerNoForm:
    'Sorry, nobody from our team could join in time. Please come back later; the bot is answering again meanwhile.',
  alreadyWaiting: 'You are already waiting for a person; someone from our team will join you shortly.',
  alreadyWithAgent: 'You are already talking to a person from our team.',
  closed: 'This conversation was closed. Write again any time to reopen it.',
  closedIdle:
    'This conversation was closed after a while without messages. Write again any time to reopen it.',
  reopened: 'The conversation is open again.',
  leaveContact: 'Leave your contact details',
  notClosed: 'This conversation is not closed',
  alreadyClosed: 'This conversation is already closed',
  assigneeNotFound: 'Assign the conversation to a teammate of this workspace',
  assigneeNoBot: 'That teammate does not work with this bot; give them access to it first',
  noteRequired: 'Write a note first',
} as const;

/** When the widget shows "Talk to a person": always, once the bot could not answer, or never. */
export const HUMAN_BUTTON_MODES = ['always', 'after_miss', 'never'] as const;
export type HumanButtonMode = (typeof HUMAN_BUTTON_MODES)[number];

/** The inbox's filters (issue 15 item 3). */
export const INBOX_FILTERS = ['needs_human', 'mine', 'with_agent', 'bot', 'closed'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const InboxQuery = z.object({
  filter: z.enum(INBOX_FILTERS).default('needs_human'),
  /** Visitor name, email or message text. */
  search: inputText().trim().max(200).optional(),
  bot_id: Id.optional(),
  /** Playground conversations are tests: left out unless asked for. */
  include_tests: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One conversation as an agent's inbox lists it. */
export const InboxConversation = z.object({
  conversation_id: z.number().int(),
  bot_id: z.number().int(),
  bot_name: z.string(),
  channel: z.string(),
  handoff_state: z.enum(HANDOFF_STATES),
  /** From the lead form or the channel's profile; null when the visitor gave none. */
  visitor_name: z.string().nullable(),
  visitor_email: z.string().nullable(),
  /** The page the visitor was on when they started the chat. */
  page_url: z.string().nullable(),
  is_test: z.boolean(),
  first_seen_at: z.string(),
  last_message_at: z.string(),
  last_message: ChatMessage.nullable(),
  /** When the visitor asked for a person (needs_human: waiting since, oldest first). */
  human_requested_at: z.string().nullable(),
  /** When the visitor last sent the contact form (nobody could come): the inbox says "left contact details". */
  contact_left_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  admin_id: z.number().int().nullable(),
  admin_name: z.string().nullable(),
  assignee_id: z.number().int().nullable(),
  assignee_name: z.string().nullable(),
  unread_count: z.number().int(),
});
export type InboxConversation = z.infer<typeof InboxConversation>;

const FilterCounts = z.object(
  Object.fromEntries(
    INBOX_FILTERS.map((filter) => [filter, z.object({ total: z.number().int(), unread: z.number().int() })]),
  ) as Record<InboxFilter, z.ZodObject<{ total: z.ZodNumber; unread: z.ZodNumber }>>,
);

export const InboxList = z.object({
  conversations: z.array(InboxConversation),
  /** Per filter: how many conversations, and how many of them have unread messages. */
  counts: FilterCounts,
});
export type InboxList = z.infer<typeof InboxList>;

/** The contact form (CONTACT_FORM): who the visitor is, how to reach them, and what they asked. */
export const LeftContactBody = z.object({
  /** The widget's visitor: their token. The playground and hosted chat page send their session instead. */
  visitor_token: z.string().max(2000).optional(),
  name: inputText({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200, 'Name is at most 200 characters'),
  email: inputText({ error: 'Email is required' })
    .trim()
    .max(254, 'Email is at most 254 characters')
    .pipe(z.email('Enter a valid email address')),
  question: inputText({ error: 'Your question is required' })
    .trim()
    .min(1, 'Your question is required')
    .max(2000, 'Your question is at most 2000 characters'),
});
export type LeftContactBody = z.infer<typeof LeftContactBody>;

export const AssigneeBody = z.object({
  /** A teammate of the workspace with Inbox access, or null to unassign. */
  user_id: BodyId('User').nullable(),
});

export const NoteBody = z.object({
  body: inputText({ error: HANDOFF_TEXTS.noteRequired })
    .trim()
    .min(1, HANDOFF_TEXTS.noteRequired)
    .max(4000, 'A note is at most 4000 characters'),
});

/** An internal note on a conversation: agents only, never sent to the visitor. */
export const ConversationNote = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  author_id: z.number().int().nullable(),
  author_name: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type ConversationNote = z.infer<typeof ConversationNote>;

/** A stored transition: from, to, why, who and when. */
export const HandoffEvent = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  from: z.enum(HANDOFF_STATES),
  to: z.enum(HANDOFF_STATES),
  reason: z.enum(HANDOFF_REASONS),
  actor: z.enum(['visitor', 'agent', 'system']),
  actor_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  created_at: z.string(),
});
export type HandoffEvent = z.infer<typeof HandoffEvent>;
