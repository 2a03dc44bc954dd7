import { z } from 'zod';
import { BodyId, Id, inputText } from './common.js';
import { BOT, VISITOR_LANGUAGES } from './constants.js';
import { HUMAN_BUTTON_MODES } from './handoff.js';
import { MESSAGES } from './messages.js';
import { BOTS_SUBJECT, need, open, type RouteRule, signedIn } from './rules.js';
import { WIDGET_TEXTS_ENGLISH, type WidgetTexts } from './widget-texts.js';

/** Bots (console.md section 7 Bots), their assignment to users and the public view (section 6). */
export const BOT_ROUTE_RULES = {
  'POST /chat/bots': need(BOTS_SUBJECT, 'create'),
  'GET /chat/bots/:id': need(BOTS_SUBJECT, 'read'),
  'GET /chat/bots/user/:id': need(BOTS_SUBJECT, 'read'),
  'POST /chat/bots/role': need(BOTS_SUBJECT, 'read'),
  'PUT /chat/bots/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /chat/bots/:id': need(BOTS_SUBJECT, 'write'),
  'GET /chat/bots/images/:name': open,
  // A user reads their own assignments; reading another user's needs Roles read (checked in the handler).
  'GET /auth/bots-assigned/:userId/tenant/:tenantId': signedIn,
  'PUT /auth/bots-assigned/:userId': need('Roles', 'write'),
  'GET /auth/public-bots': open,
  'GET /auth/bot/:id': open,
  'GET /auth/bot/uuid/:uuid': open,
} as const satisfies Record<string, RouteRule>;

/** Profile images: kinds judged from the content, and the size limit. */
export const BOT_IMAGE_KINDS = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const BOT_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const BOT_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

/**
 * console.md section 5 Bot: required, at most 50 characters, letters, digits, underscore and space.
 * Letters of every script ("Panadería", "Пекарня"): the bot speaks its visitors' languages.
 */
export const BotName = inputText({ error: MESSAGES.bots.nameRequired })
  .trim()
  .min(1, MESSAGES.bots.nameRequired)
  .max(50, 'Bot name must be at most 50 characters')
  .regex(/^[\p{L}\p{M}\p{N}_ ]+$/u, MESSAGES.bots.nameChars);

export const LeadFormField = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Field name is required')
    .max(40)
    .regex(/^[a-z][a-z0-9_]*$/, 'Field names use lowercase letters, digits and underscores'),
  label: inputText().trim().min(1, 'Field label is required').max(80),
  type: z.enum(['text', 'email', 'tel']),
  required: z.boolean(),
});
export type LeadFormField = z.infer<typeof LeadFormField>;

/** The visitor form a bot can show (playground and widget) before or during a chat. */
/** When the widget shows the form: before the first message, after N visitor messages, or when the bot cannot answer. */
export const LEAD_FORM_TRIGGERS = ['before_chat', 'after_messages', 'no_answer'] as const;
export type LeadFormTrigger = (typeof LEAD_FORM_TRIGGERS)[number];

export const LeadFormConfig = z.object({
  enabled: z.boolean(),
  title: inputText().trim().max(120).default('Leave your details'),
  fields: z.array(LeadFormField).max(10, 'At most 10 fields'),
  show_when: z.enum(LEAD_FORM_TRIGGERS).default('no_answer'),
  after_messages: z.number().int().min(1, 'At least 1 message').max(50, 'At most 50 messages').default(3),
});
export type LeadFormConfig = z.infer<typeof LeadFormConfig>;

export const DEFAULT_LEAD_FORM: LeadFormConfig = {
  enabled: false,
  title: 'Leave your details',
  show_when: 'no_answer',
  after_messages: 3,
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
  ],
};

const ids = (label: string) => z.array(BodyId(label)).max(200).default([]);

/**
 * An allowed origin as a browser sends it in its Origin header, so a pasted one matches: lower case,
 * punycode, no default port (:443, :80), no trailing slash. A leading `*.` (https://*.shop.example)
 * stands for every subdomain. Null: not an http(s) origin (a path, a query, credentials, no host).
 */
export function normaliseOrigin(value: string): string | null {
  const match = /^(https?:\/\/)(\*\.)?([^/\s?#@*\\]+)\/?$/i.exec(value.trim());
  if (!match) return null;
  try {
    const url = new URL(`${match[1]}${match[3]}`);
    return `${url.protocol}//${match[2] ?? ''}${url.host}`;
  } catch {
    return null;
  }
}

/** Everything a bot's owner sets (create and update). Multipart sends it as fields; see BotFormFields. */
export const BotInput = z.object({
  bot_name: BotName,
  description: inputText()
    .trim()
    .max(500, 'Description must be at most 500 characters')
    .nullable()
    .default(null),
  temperature: z
    .number({ error: 'Temperature must be a number' })
    .min(0, 'Temperature must be between 0 and 2')
    .max(2, 'Temperature must be between 0 and 2')
    .default(BOT.defaultTemperature),
  prompt: inputText().max(8000, 'Instructions must be at most 8000 characters').nullable().default(null),
  /** The id (as text) of one of the tenant's active LLM settings; null: the embedded extractive answerer. */
  llm_model: inputText().trim().max(100).nullable().default(null),
  internet: z.boolean().default(false),
  /** How many sources (distinct pages) an answer lists at most. */
  max_citations: z
    .number({ error: 'Sources per answer must be a number' })
    .int('Sources per answer must be a whole number')
    .min(1, `Sources per answer must be between 1 and ${BOT.maxCitations}`)
    .max(BOT.maxCitations, `Sources per answer must be between 1 and ${BOT.maxCitations}`)
    .default(BOT.defaultCitations),
  /** When visitors see "Talk to a person". */
  human_button: z
    .enum(HUMAN_BUTTON_MODES, { error: 'Talk to a person must be always, after_miss or never' })
    .default('after_miss'),
  /** The language the widget and the bot's own lines speak: `auto` follows the bot's sources. */
  visitor_language: z
    .enum(['auto', ...VISITOR_LANGUAGES], {
      error: `Visitor language must be auto or one of ${VISITOR_LANGUAGES.join(', ')}`,
    })
    .default('auto'),
  /**
   * An answer whose sources cover less than this share of the question offers a person instead of
   * guessing (0: never).
   */
  handoff_confidence: z
    .number({ error: 'Confidence threshold must be a number' })
    .min(0, 'Confidence threshold must be between 0 and 1')
    .max(1, 'Confidence threshold must be between 0 and 1')
    .default(BOT.defaultHandoffConfidence),
  analytics: z.boolean().default(false),
  is_public: z.boolean().default(false),
  brand_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Brand colour must be a colour like #1a2b3c')
    .default(BOT.defaultBrandColor),
  /** Left out on create: a sentence naming the business (defaultWelcome), written by the server. */
  welcome_message: inputText().trim().max(500, 'Welcome message must be at most 500 characters').optional(),
  suggestion_questions: z
    .array(inputText().trim().min(1).max(200, 'A suggested question is at most 200 characters'))
    .max(10, 'At most 10 suggested questions')
    .default([]),
  lead_form_config: LeadFormConfig.nullable().default(null),
  /** Sites allowed to embed the widget (origins like https://shop.example); empty: any site. */
  allowed_origins: z
    .array(
      inputText().transform((origin, ctx) => {
        const normalised = normaliseOrigin(origin);
        if (normalised !== null) return normalised;
        ctx.addIssue({
          code: 'custom',
          message: 'An allowed origin looks like https://shop.example (no path)',
        });
        return z.NEVER;
      }),
    )
    .max(20, 'At most 20 allowed origins')
    .transform((origins) => [...new Set(origins)])
    .default([]),
  file_group_ids: ids('File group'),
  web_source_ids: ids('Web source'),
  notion_workspace_ids: ids('Notion workspace'),
  role_ids: ids('Role'),
});
export type BotInput = z.infer<typeof BotInput>;
export type BotInputDraft = z.input<typeof BotInput>;

/** Fields that are lists or objects travel in multipart as JSON text. */
const JSON_FIELDS = [
  'suggestion_questions',
  'lead_form_config',
  'allowed_origins',
  'file_group_ids',
  'web_source_ids',
  'notion_workspace_ids',
  'role_ids',
] as const;
const BOOLEAN_FIELDS = ['internet', 'analytics', 'is_public'] as const;

/**
 * Multipart text fields to the typed shape BotInput checks. A malformed JSON field is left as text,
 * so the schema names the field in its error instead of this function throwing.
 */
export function parseBotFields(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const key of JSON_FIELDS) {
    const raw = fields[key];
    if (raw === undefined || raw === '') {
      delete out[key];
      continue;
    }
    try {
      out[key] = JSON.parse(raw);
    } catch {
      out[key] = raw;
    }
  }
  for (const key of BOOLEAN_FIELDS) {
    if (fields[key] !== undefined)
      out[key] = fields[key] === 'true' ? true : fields[key] === 'false' ? false : fields[key];
  }
  for (const key of ['temperature', 'max_citations', 'handoff_confidence'] as const) {
    const raw = fields[key];
    if (raw === undefined) continue;
    const value = Number(raw);
    out[key] = raw.trim() === '' || Number.isNaN(value) ? raw : value;
  }
  for (const key of ['description', 'prompt', 'llm_model'] as const) {
    if (fields[key] === '') out[key] = null;
  }
  return out;
}

/** The browser's side of parseBotFields: a BotInput (partial on update) as multipart fields. */
export function botFormData(input: Partial<BotInput>, image?: Blob | null): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if ((JSON_FIELDS as readonly string[]).includes(key)) form.append(key, JSON.stringify(value));
    else form.append(key, value === null ? '' : String(value));
  }
  if (image) form.append('profile_image', image);
  return form;
}

const SourceRef = z.object({ id: z.number().int(), name: z.string() });

/** A bot as the console sees it (console.md section 3 Bot). */
export const Bot = z.object({
  bot_id: z.number().int(),
  uuid: z.string(),
  tenant_id: z.number().int(),
  user_id: z.number().int().nullable(),
  bot_name: z.string(),
  description: z.string().nullable(),
  /** URL of the stored image (served without login, for the widget), or null. */
  profile_image: z.string().nullable(),
  temperature: z.number(),
  prompt: z.string().nullable(),
  llm_model: z.string().nullable(),
  internet: z.boolean(),
  max_citations: z.number().int(),
  human_button: z.enum(HUMAN_BUTTON_MODES),
  visitor_language: z.enum(['auto', ...VISITOR_LANGUAGES]),
  handoff_confidence: z.number(),
  analytics: z.boolean(),
  is_public: z.boolean(),
  brand_color: z.string(),
  welcome_message: z.string(),
  suggestion_questions: z.array(z.string()),
  lead_form_config: LeadFormConfig.nullable(),
  allowed_origins: z.array(z.string()),
  shopify_store_id: z.number().int().nullable(),
  woocommerce_store_id: z.number().int().nullable(),
  file_group_ids: z.array(z.number().int()),
  web_source_ids: z.array(z.number().int()),
  notion_workspace_ids: z.array(z.number().int()),
  file_groups: z.array(SourceRef),
  web_sources: z.array(
    z.object({
      source_id: z.number().int(),
      base_url: z.string(),
      name: z.string(),
      description: z.string().nullable(),
    }),
  ),
  notion_workspaces: z.array(SourceRef),
  roles: z.array(SourceRef),
  instagram_accounts: z.array(z.object({ id: z.number().int(), username: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Bot = z.infer<typeof Bot>;

export const BotsByRoleBody = z.object({ role_id: BodyId('Role') });
export const AssignBotsBody = z.object({
  bot_ids: z.array(BodyId('Bot')).max(500),
  /**
   * true: the person works with every bot, new ones included (the default of a new teammate);
   * false or left out: only with `bot_ids` (the owner restricts them).
   */
  all_bots: z.boolean().optional(),
});
export type AssignBotsBody = z.infer<typeof AssignBotsBody>;
export const BotImageParams = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$/, 'is not an image name'),
});
export const BotUuidParams = z.object({ uuid: z.uuid('is not a bot id') });
export const AssignedParams = z.object({
  userId: Id,
  tenantId: Id,
});

/** Every key of WidgetTexts as a string: taken from the English texts, so the two cannot drift. */
const WidgetTextsSchema = z.object(
  Object.fromEntries(Object.keys(WIDGET_TEXTS_ENGLISH).map((key) => [key, z.string()])) as Record<
    keyof WidgetTexts,
    z.ZodString
  >,
);

/** What a visitor's widget needs of a bot, and nothing more: no prompt, keys, settings or tenant data. */
export const PublicBot = z.object({
  bot_id: z.number().int(),
  uuid: z.string(),
  bot_name: z.string(),
  description: z.string().nullable(),
  profile_image: z.string().nullable(),
  brand_color: z.string(),
  welcome_message: z.string(),
  suggestion_questions: z.array(z.string()),
  lead_form_config: LeadFormConfig.nullable(),
  /** When the widget shows "Talk to a person". */
  human_button: z.enum(HUMAN_BUTTON_MODES),
  /** The language the widget speaks (the bot's `visitor_language`, `auto` resolved from its sources). */
  language: z.enum(VISITOR_LANGUAGES),
  /** The widget's own words in `language` (WidgetTexts: templates such as `{name}` filled by fillText). */
  texts: WidgetTextsSchema,
  booking: z
    .object({ title: z.string(), message: z.string(), url: z.string(), provider: z.string() })
    .nullable(),
  /** "Powered by Parley" under the chat: shown unless the workspace's plan allows custom branding. */
  show_branding: z.boolean(),
});
export type PublicBot = z.infer<typeof PublicBot>;

/** 409 body when a bot still has conversations or assigned users. */
export const DeleteBotConflict = z.object({
  detail: z.string(),
  conversations: z.number().int(),
  assigned_users: z.number().int(),
});
