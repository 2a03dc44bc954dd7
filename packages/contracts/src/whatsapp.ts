import { z } from 'zod';
import { BodyId, IdText, inputText } from './common.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';

/**
 * WhatsApp (integrations-and-billing.md: WhatsApp accounts, templates, contacts, campaigns). Every
 * call lives under /social/whatsapp; Meta's webhook is the shared one of the Meta channels.
 */
export const WHATSAPP_ROUTE_RULES = {
  'GET /social/whatsapp/embedded-signup/config': need(BOTS_SUBJECT, 'read'),
  'POST /social/whatsapp/embedded-signup/onboard': need(BOTS_SUBJECT, 'create'),
  'GET /social/whatsapp/accounts': need(BOTS_SUBJECT, 'read'),
  'DELETE /social/whatsapp/accounts/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/accounts/link-bot': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/accounts/unlink-bot': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/templates': need(BOTS_SUBJECT, 'create'),
  'GET /social/whatsapp/templates': need(BOTS_SUBJECT, 'read'),
  'GET /social/whatsapp/templates/meta': need(BOTS_SUBJECT, 'read'),
  'POST /social/whatsapp/templates/media-upload': need(BOTS_SUBJECT, 'create'),
  'GET /social/whatsapp/templates/:id': need(BOTS_SUBJECT, 'read'),
  'PUT /social/whatsapp/templates/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /social/whatsapp/templates/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/templates/:id/submit': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/contacts': need(BOTS_SUBJECT, 'create'),
  'GET /social/whatsapp/contacts': need(BOTS_SUBJECT, 'read'),
  'GET /social/whatsapp/contacts/export': need(BOTS_SUBJECT, 'read'),
  'POST /social/whatsapp/contacts/import/preview': need(BOTS_SUBJECT, 'create'),
  'POST /social/whatsapp/contacts/import': need(BOTS_SUBJECT, 'create'),
  'PATCH /social/whatsapp/contacts/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /social/whatsapp/contacts/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/campaigns': need(BOTS_SUBJECT, 'create'),
  'GET /social/whatsapp/campaigns': need(BOTS_SUBJECT, 'read'),
  'DELETE /social/whatsapp/campaigns/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/campaigns/:id/send': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/campaigns/:id/pause': need(BOTS_SUBJECT, 'write'),
  'POST /social/whatsapp/campaigns/:id/resume': need(BOTS_SUBJECT, 'write'),
  'GET /social/whatsapp/campaigns/:id/logs': need(BOTS_SUBJECT, 'read'),
  'GET /social/whatsapp/campaigns/:id/analytics': need(BOTS_SUBJECT, 'read'),
  /** An agent's template message in a conversation whose 24-hour window has closed. */
  'POST /social/whatsapp/conversations/:id/template': need(BOTS_SUBJECT, 'read'),
  /** Meta calls these: the verify token (GET) and the app secret's signature (POST) stand for a login. */
  'GET /social/whatsapp/webhook': open,
  'POST /social/whatsapp/webhook': open,
  /** A file a customer sent, kept under an unguessable name (the name is the capability). */
  'GET /social/whatsapp/media/:name': open,
} as const satisfies Record<string, RouteRule>;

/** The spec's texts (integrations-and-billing.md, WhatsApp) and the server's details. */
export const WHATSAPP_TEXTS = {
  notConfigured: 'WhatsApp signup is not configured: set META_APP_ID, META_APP_SECRET and WHATSAPP_CONFIG_ID',
  onboarded: 'WhatsApp number connected successfully',
  onboardFailed: 'Failed to connect the WhatsApp number',
  codeMissing: 'The signup did not return an authorization code. Please try again.',
  numberNotInAccount: 'This phone number does not belong to the WhatsApp Business Account that was shared',
  takenByAnother: 'This WhatsApp number is already connected to another workspace',
  accountNotFound: 'WhatsApp account not found',
  accountRemoved: 'WhatsApp account removed successfully',
  botNotFound: 'Bot not found',
  linked: 'Bot linked to WhatsApp account successfully',
  unlinked: 'Bot unlinked from WhatsApp account successfully',
  metaUnavailable: 'WhatsApp could not be reached. Please try again.',
  tokenExpired: 'Meta no longer accepts this WhatsApp account’s access token. Connect the number again.',
  /** The inbox's reply box once the customer-service window has closed. */
  windowClosed:
    'More than 24 hours since this customer last wrote: WhatsApp allows only an approved template until they write again.',
  templateCreateFailed: 'Failed to create template',
  templateUpdateFailed: 'Failed to update template',
  templateSubmitFailed: 'Failed to submit template',
  templatesMetaFailed: 'Failed to fetch templates from Meta',
  templatesFetchFailed: 'Failed to fetch templates',
  templateFetchFailed: 'Failed to fetch template',
  templateDeleteFailed: 'Failed to delete template',
  mediaUploadFailed: 'Failed to upload media',
  templateNotFound: 'Template not found',
  templateCreated: 'Template created successfully',
  templateUpdated: 'Template updated successfully',
  templateDeleted: 'Template deleted successfully',
  templateSubmitted: 'Template submitted to Meta for review',
  templateNameTaken: 'A template with this name and language already exists',
  templateLocked:
    'A submitted template cannot be edited here; create a new one or edit it in WhatsApp Manager',
  templateNotApproved: 'Only an approved template can be sent',
  contactCreated: 'Contact created successfully',
  contactDeleted: 'Contact deleted successfully',
  contactUpdated: 'Contact updated successfully',
  contactNotFound: 'Contact not found',
  contactExists: 'A contact with this number already exists',
  phoneInvalid: 'Enter the number with its country code, for example +14155550123',
  importNoPhoneColumn: 'No column holds phone numbers: name one "phone" or choose it in the mapping',
  importNotCsv: 'The file must be a CSV file',
  importTooLarge: 'The file is larger than 20 MB',
  campaignCreated: 'Campaign created successfully',
  campaignDeleted: 'Campaign deleted successfully',
  campaignStarted: 'Campaign started',
  campaignScheduled: 'Campaign scheduled',
  campaignPaused: 'Campaign paused',
  campaignResumed: 'Campaign resumed',
  campaignNotFound: 'Campaign not found',
  campaignNoRecipients: 'No contact matches this audience (opted-out contacts are never sent campaigns)',
  campaignNotSendable: 'This campaign has already been sent',
  campaignNotRunning: 'Only a sending campaign can be paused',
  campaignNotPaused: 'Only a paused campaign can be resumed',
  campaignRunning: 'A sending campaign cannot be deleted; pause it first',
  interrupted: 'Interrupted before Meta confirmed the send; not sent again, to avoid a duplicate',
  optedOut: 'You will no longer receive messages from us. Reply START to subscribe again.',
  optedIn: 'You are subscribed again.',
} as const;

/** Words a customer writes to stop (or restart) campaign messages, compared case-insensitively. */
export const OPT_OUT_WORDS = ['stop', 'unsubscribe', 'stop all', 'opt out', 'optout'] as const;
export const OPT_IN_WORDS = ['start', 'subscribe', 'unstop'] as const;

export const WhatsAppAccount = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  waba_id: z.string(),
  phone_number_id: z.string(),
  display_phone_number: z.string(),
  verified_name: z.string(),
  /** GREEN, YELLOW, RED or UNKNOWN, as Meta rates the number. */
  quality_rating: z.string(),
  bot_id: z.number().int().nullable(),
  bot_name: z.string().nullable(),
  is_active: z.boolean(),
  inactive_reason: z.string().nullable(),
  created_at: z.string(),
});
export type WhatsAppAccount = z.infer<typeof WhatsAppAccount>;

/** What the console needs to open Meta's embedded signup. */
export const EmbeddedSignupConfig = z.object({
  configured: z.boolean(),
  app_id: z.string().nullable(),
  config_id: z.string().nullable(),
  /** The signup dialog (Facebook Login for Business with the WhatsApp configuration). */
  dialog_url: z.string().nullable(),
});
export type EmbeddedSignupConfig = z.infer<typeof EmbeddedSignupConfig>;

/** What Meta's embedded signup hands back: the code (FB.login) and the session info event's ids. */
export const OnboardBody = z.object({
  code: inputText().trim().max(2000).optional(),
  waba_id: inputText({ error: 'WhatsApp Business Account id is required' })
    .trim()
    .regex(/^\d{1,30}$/, 'WhatsApp Business Account id must be digits'),
  phone_number_id: inputText({ error: 'Phone number id is required' })
    .trim()
    .regex(/^\d{1,30}$/, 'Phone number id must be digits'),
  /** The redirect address the code was issued for, when the dialog redirected rather than the SDK. */
  redirect_uri: inputText().trim().max(500).optional(),
  bot_id: BodyId('Bot').optional(),
});
export type OnboardBody = z.infer<typeof OnboardBody>;

export const OnboardResult = z.object({ message: z.string(), account: WhatsAppAccount });
export type OnboardResult = z.infer<typeof OnboardResult>;

export const WhatsAppLinkBody = z.object({ account_id: BodyId('Account'), bot_id: BodyId('Bot') });
export const WhatsAppUnlinkBody = z.object({ account_id: BodyId('Account') });

export const AccountQuery = z.object({ account_id: IdText('account_id must be a positive whole number') });

// ---- Templates -------------------------------------------------------------------------------

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const TEMPLATE_STATUSES = [
  'DRAFT',
  'PENDING',
  'APPROVED',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
/** Meta's limits: a body of 1,024 characters, a header and a footer of 60, up to 10 buttons. */
export const TEMPLATE_LIMITS = { name: 512, body: 1024, header: 60, footer: 60, buttons: 10, buttonText: 25 };

export const TemplateButton = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('QUICK_REPLY'),
    text: inputText().trim().min(1).max(TEMPLATE_LIMITS.buttonText),
  }),
  z.object({
    type: z.literal('URL'),
    text: inputText().trim().min(1).max(TEMPLATE_LIMITS.buttonText),
    url: inputText().trim().url().max(2000),
  }),
  z.object({
    type: z.literal('PHONE_NUMBER'),
    text: inputText().trim().min(1).max(TEMPLATE_LIMITS.buttonText),
    phone_number: inputText()
      .trim()
      .regex(/^\+?\d{6,20}$/, 'must be a phone number with its country code'),
  }),
]);
export type TemplateButton = z.infer<typeof TemplateButton>;

/**
 * A template as Parley keeps it; checked as Meta checks it (whatsapp.ts templateProblems) before
 * anything is sent. `body_examples` holds one example per numbered variable ({{1}}, {{2}}...).
 */
const TemplateFields = z.object({
  name: inputText({ error: 'Name is required' }).trim().min(1, 'Name is required').max(TEMPLATE_LIMITS.name),
  language: inputText({ error: 'Language is required' })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'Language must be a code such as en or en_US'),
  category: z.enum(TEMPLATE_CATEGORIES, { error: 'Category must be MARKETING, UTILITY or AUTHENTICATION' }),
  header: z
    .object({
      format: z.enum(HEADER_FORMATS),
      text: inputText()
        .max(TEMPLATE_LIMITS.header + 20)
        .optional(),
      /** A header text's {{1}} example. */
      example: inputText().max(200).optional(),
      /** An uploaded media handle (POST /templates/media-upload) for an image, video or document. */
      media_handle: inputText().max(4000).optional(),
    })
    .nullable()
    .optional(),
  body: inputText({ error: 'Body is required' })
    .min(1, 'Body is required')
    .max(TEMPLATE_LIMITS.body + 100),
  body_examples: z.array(inputText().max(200)).max(50),
  footer: inputText()
    .max(TEMPLATE_LIMITS.footer + 20)
    .nullable()
    .optional(),
  buttons: z.array(TemplateButton).max(TEMPLATE_LIMITS.buttons + 5),
});
export const TemplateInput = TemplateFields.extend({
  account_id: BodyId('Account'),
  body_examples: TemplateFields.shape.body_examples.default([]),
  buttons: TemplateFields.shape.buttons.default([]),
});
export type TemplateInput = z.infer<typeof TemplateInput>;
/** Only the fields given change. */
export const TemplateUpdate = TemplateFields.partial();
export type TemplateUpdate = z.infer<typeof TemplateUpdate>;

export const WhatsAppTemplate = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  header: z
    .object({
      format: z.string(),
      text: z.string().optional(),
      example: z.string().optional(),
      media_handle: z.string().optional(),
    })
    .nullable(),
  body: z.string(),
  body_examples: z.array(z.string()),
  footer: z.string().nullable(),
  buttons: z.array(z.record(z.string(), z.unknown())),
  status: z.string(),
  /** Meta's id once submitted. */
  meta_template_id: z.string().nullable(),
  rejected_reason: z.string().nullable(),
  /** How many numbered variables the body has. */
  variable_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WhatsAppTemplate = z.infer<typeof WhatsAppTemplate>;

export const MetaTemplatesQuery = z.object({
  account_id: IdText('account_id must be a positive whole number'),
  status: z.enum(TEMPLATE_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  force_refresh: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
/** A template as Meta lists it. */
export const MetaTemplate = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  status: z.string(),
  rejected_reason: z.string().nullable(),
  components: z.array(z.record(z.string(), z.unknown())),
});
export const MetaTemplateList = z.object({ templates: z.array(MetaTemplate), synced_at: z.string() });
export type MetaTemplateList = z.infer<typeof MetaTemplateList>;

export const MEDIA_TYPES = ['image', 'video', 'document'] as const;
export const MediaUploadResult = z.object({ handle: z.string(), media_type: z.enum(MEDIA_TYPES) });
export type MediaUploadResult = z.infer<typeof MediaUploadResult>;

// ---- Contacts --------------------------------------------------------------------------------

export const ContactInput = z.object({
  account_id: BodyId('Account'),
  phone: inputText({ error: 'Phone is required' }).trim().min(1, 'Phone is required').max(40),
  name: inputText().trim().max(200).optional(),
  email: inputText().trim().max(320).optional(),
  tags: z.array(inputText().trim().min(1).max(50)).max(20).default([]),
  attributes: z.record(z.string().max(50), inputText().max(500)).default({}),
});
export type ContactInput = z.infer<typeof ContactInput>;
export const ContactUpdate = z.object({
  name: inputText().trim().max(200).optional(),
  email: inputText().trim().max(320).optional(),
  tags: z.array(inputText().trim().min(1).max(50)).max(20).optional(),
  opted_out: z.boolean().optional(),
});

export const WhatsAppContact = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  phone: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  tags: z.array(z.string()),
  attributes: z.record(z.string(), z.string()),
  opted_out: z.boolean(),
  opted_out_at: z.string().nullable(),
  created_at: z.string(),
});
export type WhatsAppContact = z.infer<typeof WhatsAppContact>;

export const ContactsQuery = z.object({
  account_id: IdText('account_id must be a positive whole number'),
  search: inputText().trim().max(100).optional(),
  tag: inputText().trim().max(50).optional(),
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ContactList = z.object({
  contacts: z.array(WhatsAppContact),
  total: z.number().int(),
  tags: z.array(z.string()),
});
export type ContactList = z.infer<typeof ContactList>;

/** Which CSV column fills which contact field; other columns become attributes. */
export const ContactMapping = z.object({
  phone: z.string().max(200),
  name: z.string().max(200).nullable().optional(),
  email: z.string().max(200).nullable().optional(),
  tags: z.string().max(200).nullable().optional(),
});
export type ContactMapping = z.infer<typeof ContactMapping>;

export const ImportPreview = z.object({
  columns: z.array(z.string()),
  mapping: ContactMapping.nullable(),
  rows: z.array(z.array(z.string())),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const ImportResult = z.object({
  message: z.string(),
  imported_contacts: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  rows: z.number().int(),
  rejected_count: z.number().int(),
  /** Up to the first 1,000 rejected rows, with their line in the file and why. */
  rejected: z.array(z.object({ line: z.number().int(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof ImportResult>;

export const ImportQuery = z.object({
  whatsapp_account_id: IdText('whatsapp_account_id must be a positive whole number'),
  tenant_id: IdText().optional(),
});

// ---- Campaigns -------------------------------------------------------------------------------

/** Where a template variable's value comes from: a contact field or attribute, or fixed text. */
export const VariableSource = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('field'),
    field: inputText().trim().min(1).max(50),
    fallback: inputText().max(200).optional(),
  }),
  z.object({ type: z.literal('text'), text: inputText().min(1).max(200) }),
]);
export type VariableSource = z.infer<typeof VariableSource>;

export const CampaignInput = z.object({
  account_id: BodyId('Account'),
  name: inputText({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  template_id: BodyId('Template'),
  /** Contacts with any of these tags; every contact when empty. Opted-out contacts never. */
  audience_tags: z.array(inputText().trim().min(1).max(50)).max(20).default([]),
  variables: z.array(VariableSource).max(50).default([]),
  /** The header's value: its {{1}} text, or the https link of its image, video or document. */
  header_value: inputText().trim().max(2000).optional(),
  /** ISO time to send at; now when absent. */
  scheduled_at: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type CampaignInput = z.infer<typeof CampaignInput>;

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'completed', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const CampaignCounts = z.object({
  recipients: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  replied: z.number().int(),
  opted_out: z.number().int(),
});
export type CampaignCounts = z.infer<typeof CampaignCounts>;

export const WhatsAppCampaign = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string(),
  template_id: z.number().int().nullable(),
  template_name: z.string().nullable(),
  audience_tags: z.array(z.string()),
  variables: z.array(z.record(z.string(), z.unknown())),
  status: z.enum(CAMPAIGN_STATUSES),
  scheduled_at: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  error: z.string().nullable(),
  counts: CampaignCounts,
  created_at: z.string(),
});
export type WhatsAppCampaign = z.infer<typeof WhatsAppCampaign>;

export const CampaignLogsQuery = z.object({
  status: z.enum(RECIPIENT_STATUSES).optional(),
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const CampaignLog = z.object({
  contact_id: z.number().int().nullable(),
  phone: z.string(),
  name: z.string().nullable(),
  status: z.enum(RECIPIENT_STATUSES),
  error_code: z.number().int().nullable(),
  error: z.string().nullable(),
  wa_message_id: z.string().nullable(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  read_at: z.string().nullable(),
  replied_at: z.string().nullable(),
});
export const CampaignLogList = z.object({ logs: z.array(CampaignLog), total: z.number().int() });
export type CampaignLogList = z.infer<typeof CampaignLogList>;

export const CampaignAnalytics = z.object({
  counts: CampaignCounts,
  /** Shares of the recipients sent to: delivered, read and replied, each 0..1. */
  rates: z.object({ delivery: z.number(), read: z.number(), reply: z.number(), failure: z.number() }),
  /** Per minute (per hour past a day): how many were sent, delivered, read and failed. */
  timeline: z.array(
    z.object({
      at: z.string(),
      sent: z.number().int(),
      delivered: z.number().int(),
      read: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  errors: z.array(
    z.object({ code: z.number().int().nullable(), error: z.string(), count: z.number().int() }),
  ),
});
export type CampaignAnalytics = z.infer<typeof CampaignAnalytics>;

/** An agent's template in a conversation: values for its numbered variables, in order. */
export const ConversationTemplateBody = z.object({
  template_id: BodyId('Template'),
  variables: z.array(inputText().max(1000)).max(50).default([]),
  /** The header's value: its {{1}} text, or the https link of its image, video or document. */
  header_value: inputText().trim().max(2000).optional(),
});
export type ConversationTemplateBody = z.infer<typeof ConversationTemplateBody>;
