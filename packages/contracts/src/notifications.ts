import { z } from 'zod';
import { BodyId, IdText, inputText } from './common.js';
import { need, type RouteRule, signedIn } from './rules.js';

/**
 * The bell (console.md sections 4 and 7) and email notifications. Every signed-in user has a bell
 * (partners get nothing in it); the count and list are the caller's own. The mail log and sending
 * belong to those who work the inbox.
 */
export const NOTIFICATION_ROUTE_RULES = {
  'GET /notification/count': signedIn,
  'GET /notification/list': signedIn,
  'POST /notification/seen': signedIn,
  'POST /notification/:id/read': signedIn,
  'POST /notification/read-all': signedIn,
  'POST /notification/send-email': need('Inbox', 'write'),
  'GET /notification/emails/': need('Inbox', 'read'),
} as const satisfies Record<string, RouteRule>;

/** What a notification is about; each names who receives it (docs/notifications.md). */
export const NOTIFICATION_KINDS = [
  'handoff_requested',
  'contact_left',
  'lead_created',
  'training_finished',
  'training_failed',
  'sync_failed',
  'payment_failed',
  'limit_reached',
  'question_repeated',
  // A bot's language model failed while answering (key revoked, rate limit, outage): once per spell.
  'model_failed',
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** Sizes and rates. */
export const NOTIFICATION_LIMITS = {
  /** A page of the bell's list. */
  pageSize: 20,
  maxPageSize: 100,
  /** Mails a workspace may send through POST /notification/send-email per hour. */
  emailsPerHour: 30,
  /** Recipients of one mail. */
  maxRecipients: 20,
  subjectMax: 200,
  messageMax: 5000,
} as const;

/** The spec's fetch carries numeric user_id and tenant_id; both must be the caller's own. */
export const NotificationCountQuery = z.object({
  user_id: IdText(),
  tenant_id: IdText(),
});
export const NotificationCount = z.object({ count: z.number().int() });
export type NotificationCount = z.infer<typeof NotificationCount>;

export const Notification = z.object({
  id: z.number().int(),
  kind: NotificationKind,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof Notification>;

const limitText = z
  .string()
  .regex(/^[1-9]\d*$/, 'must be a positive whole number')
  .transform(Number)
  .refine((n) => n <= NOTIFICATION_LIMITS.maxPageSize, `must be at most ${NOTIFICATION_LIMITS.maxPageSize}`);

/** Newest first; `before` (an id) pages back; `unread=true` lists only unread ones. */
export const NotificationListQuery = z.object({
  limit: limitText.optional(),
  before: IdText().optional(),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationListQuery = z.input<typeof NotificationListQuery>;

export const NotificationList = z.object({
  notifications: z.array(Notification),
  /** Unread in all (not only on this page). */
  unread: z.number().int(),
  /** Not yet seen: the bell's count. */
  count: z.number().int(),
});
export type NotificationList = z.infer<typeof NotificationList>;

export const SendEmailBody = z.object({
  /** Teammates of the caller's workspace. */
  user_ids: z
    .array(BodyId('user_ids'))
    .min(1, 'Choose at least one recipient')
    .max(NOTIFICATION_LIMITS.maxRecipients, `At most ${NOTIFICATION_LIMITS.maxRecipients} recipients`),
  subject: inputText({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(
      NOTIFICATION_LIMITS.subjectMax,
      `Subject must be at most ${NOTIFICATION_LIMITS.subjectMax} characters`,
    ),
  message: inputText({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(
      NOTIFICATION_LIMITS.messageMax,
      `Message must be at most ${NOTIFICATION_LIMITS.messageMax} characters`,
    ),
  /** The bot the mail is about, for the log's bot filter. */
  bot_id: BodyId('bot_id').optional(),
});
export type SendEmailBody = z.infer<typeof SendEmailBody>;

export const SendEmailResponse = z.object({ message: z.string(), email_ids: z.array(z.number().int()) });
export type SendEmailResponse = z.infer<typeof SendEmailResponse>;

/** A calendar day, YYYY-MM-DD (UTC). */
const DateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'must be a date (YYYY-MM-DD)');

/** Days are inclusive; tenant_id other than the caller's is for platform admins only. */
export const EmailLogQuery = z.object({
  start_date: DateText.optional(),
  end_date: DateText.optional(),
  tenant_id: IdText().optional(),
  bot_id: IdText().optional(),
});
export type EmailLogQuery = z.input<typeof EmailLogQuery>;

export const EmailLogEntry = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  bot_id: z.number().int().nullable(),
  sent_by: z.number().int().nullable(),
  to: z.string(),
  subject: z.string(),
  /** dropped: not sent, because the teammate was removed from the workspace before delivery. */
  status: z.enum(['queued', 'sent', 'kept', 'failed', 'dropped']),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type EmailLogEntry = z.infer<typeof EmailLogEntry>;
export const EmailLog = z.object({ emails: z.array(EmailLogEntry) });
export type EmailLog = z.infer<typeof EmailLog>;

/** The admin channel's frame that tells a user to fetch the count again (spec section 7). */
export const NotificationFrame = z.object({
  type: z.literal('notification'),
  user_id: z.number().int(),
  tenant_id: z.number().int(),
});
export type NotificationFrame = z.infer<typeof NotificationFrame>;
