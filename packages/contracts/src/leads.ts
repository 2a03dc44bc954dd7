import { z } from 'zod';
import { BodyId, Id } from './common.js';
import { need, open, type RouteRule } from './rules.js';

/** Leads: what visitors leave through a bot's lead form, and the owner's list and CSV export. */
export const LEAD_ROUTE_RULES = {
  // Visitors are not signed in; the bot's uuid (not its numeric id) names it, and submissions are rate-limited per IP.
  'POST /auth/bot/uuid/:uuid/lead': open,
  // Their own feature, so an agent reads leads without managing bots (roles reading Create Bot got it in 0025).
  'GET /chat/bots/:id/leads': need('Leads', 'read'),
  'GET /chat/bots/:id/leads.csv': need('Leads', 'read'),
  // Erasing a person's details (GDPR) is a change: Owner by default, or a role granted Leads write.
  'DELETE /chat/bots/:id/leads/:leadId': need('Leads', 'write'),
} as const satisfies Record<string, RouteRule>;

export const LEAD_LIMITS = {
  /** Longest accepted value of one field. */
  valueMax: 500,
  /** Most keys a submission may carry (a form has at most 10 fields). */
  fieldsMax: 20,
  /** Submissions one IP address may send per window. */
  perIp: 10,
  windowSeconds: 600,
  /** Rows per page of the list: default and most. */
  pageDefault: 10,
  pageMax: 100,
} as const;

/** What a visitor's widget sends: the form's answers by field name, and the conversation if any. */
export const LeadSubmission = z.object({
  fields: z
    .record(z.string().max(60, 'Unknown field'), z.string({ error: 'Field values must be text' }), {
      error: 'fields must be an object of field names to text',
    })
    .refine((fields) => Object.keys(fields).length <= LEAD_LIMITS.fieldsMax, 'Too many fields'),
  conversation_id: BodyId('Conversation').optional(),
  /** The widget's visitor identity: proves the conversation is the visitor's own, so the lead links to it. */
  visitor_token: z.string().max(4096).optional(),
});
export type LeadSubmission = z.infer<typeof LeadSubmission>;

export const LeadSubmissionParams = z.object({ uuid: z.uuid('is not a bot id') });

/** Where a lead came from: the bot's lead form, or the contact form of a visitor nobody could come to. */
export const LEAD_SOURCES = ['lead_form', 'contact_form'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

/** A lead as the console lists it. `name` and `email` are copied from the fields so named. */
export const Lead = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  conversation_id: z.number().int().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  source: z.enum(LEAD_SOURCES),
  created_at: z.string(),
});
export type Lead = z.infer<typeof Lead>;

export const LeadCreated = z.object({ id: z.number().int(), message: z.string() });
export type LeadCreated = z.infer<typeof LeadCreated>;

const Count = (label: string, fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((n) => n <= max, `${label} must be at most ${max}`)
    .default(fallback);

/** `?skip=&limit=`: digits only; the newest leads first. */
export const LeadListQuery = z.object({
  skip: Count('skip', 0, 1_000_000_000),
  limit: Count('limit', LEAD_LIMITS.pageDefault, LEAD_LIMITS.pageMax).refine(
    (n) => n >= 1,
    'limit must be at least 1',
  ),
});
export type LeadListQuery = z.input<typeof LeadListQuery>;

export const LeadList = z.object({ items: z.array(Lead), total: z.number().int() });
export type LeadList = z.infer<typeof LeadList>;

export const LeadBotParams = z.object({ id: Id });
export const LeadParams = z.object({ id: Id, leadId: Id });

export const LEAD_TEXTS = {
  received: 'Thank you! Your details have been received.',
  formUnavailable: 'This bot does not collect details',
  conversationNotFound: 'Conversation not found',
  downloadFailed: 'Failed to download leads',
  downloadTimedOut: 'The download timed out. Please try again.',
  loadFailed: 'Failed to load leads',
  notFound: 'Lead not found',
  deleted: 'Lead deleted',
  deleteFailed: 'Failed to delete lead',
} as const;
