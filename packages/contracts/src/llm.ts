import { z } from 'zod';
import { Id, inputText } from './common.js';
import { BOTS_SUBJECT, need, type RouteRule } from './rules.js';

/** LLM settings (console.md section 7 LLM settings): each route and what it needs. */
export const LLM_ROUTE_RULES = {
  'POST /settings/llm': need(BOTS_SUBJECT, 'create'),
  'GET /settings/llm/company': need(BOTS_SUBJECT, 'read'),
  'GET /settings/llm/:id': need(BOTS_SUBJECT, 'read'),
  'PUT /settings/llm/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /settings/llm/:id': need(BOTS_SUBJECT, 'write'),
  'PATCH /settings/llm/:llm_id/toggle/:is_active': need(BOTS_SUBJECT, 'write'),
  'POST /settings/llm/:id/test': need(BOTS_SUBJECT, 'write'),
} as const satisfies Record<string, RouteRule>;

/** Providers reached through the Vercel AI SDK; openai-compatible covers Ollama, vLLM, LM Studio, OpenRouter... */
export const LLM_PROVIDERS = ['openai', 'openai-compatible', 'azure', 'anthropic', 'google'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** How each provider is shown in the console. */
export const LLM_PROVIDER_LABELS: Record<LlmProvider, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter…)',
  azure: 'Azure OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
};

/** Providers that are reached only through the base URL the user gives. */
export const providerNeedsBaseUrl = (provider: LlmProvider): boolean =>
  provider === 'openai-compatible' || provider === 'azure';
/** Hosted providers that refuse every call without a key (a local server may need none). */
export const providerNeedsApiKey = (provider: LlmProvider): boolean =>
  provider === 'openai' || provider === 'anthropic' || provider === 'google';

/** A configured model as the API returns it: the key only ever masked. */
export const LlmSetting = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  name: z.string(),
  provider: z.enum(LLM_PROVIDERS),
  base_url: z.string().nullable(),
  model: z.string(),
  /** e.g. "••••••••abcd", or null when no key is stored. */
  api_key_masked: z.string().nullable(),
  embedding_model: z.string().nullable(),
  /** Active only after a passing test: saving and activating test the model first. */
  is_active: z.boolean(),
  /** The last connection test (on save, on activation, or asked for); null until one ran. */
  last_test: z
    .object({ ok: z.boolean(), detail: z.string(), latency_ms: z.number().int(), tested_at: z.string() })
    .nullable(),
  /** The names of the bots that answer with it: deleting it, or switching it off, changes how they answer. */
  used_by: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LlmSetting = z.infer<typeof LlmSetting>;

/** Create, edit and toggle answer the setting with the spec's text, or why it was saved but not made active. */
export const LlmSettingResponse = LlmSetting.extend({ message: z.string() });
export type LlmSettingResponse = z.infer<typeof LlmSettingResponse>;

export const LLM_MESSAGES = {
  deleted: 'LLM deleted successfully',
  nameRequired: 'Name is required',
  modelRequired: 'Model is required',
  providerInvalid: `Provider must be one of: ${LLM_PROVIDERS.join(', ')}`,
  baseUrlInvalid: 'Base URL must be a valid http(s) URL',
  baseUrlRequired: 'Base URL is required for this provider',
  apiKeyRequired: 'API key is required for this provider',
  /** Saved, but its test failed: it stays inactive, so no bot answers with a model that does not work. */
  savedInactive: (why: string) => `Saved, but not active: the model failed its test (${why})`,
  /** Activation refused: the model failed its test. */
  notActivated: (why: string) => `Not activated: the model failed its test (${why})`,
} as const;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const requiredText = (message: string, label: string, max: number) =>
  inputText({ error: message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);
const optionalText = (label: string, max: number) =>
  inputText({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .optional();

/** The fields of the add and edit forms; empty optional texts count as absent. */
const LlmFields = z.object({
  name: requiredText(LLM_MESSAGES.nameRequired, 'Name', 100),
  provider: z.enum(LLM_PROVIDERS, { error: LLM_MESSAGES.providerInvalid }),
  /** Where the provider's API lives (ends in /v1 for OpenAI-compatible servers). */
  base_url: optionalText('Base URL', 2000).refine(
    (v) => v === undefined || v === null || v === '' || isHttpUrl(v),
    LLM_MESSAGES.baseUrlInvalid,
  ),
  /** The provider's model name (for Azure: the deployment name). */
  model: requiredText(LLM_MESSAGES.modelRequired, 'Model', 200),
  /** Sent once, stored encrypted, never returned. On edit, empty or absent keeps the stored key. */
  api_key: optionalText('API key', 4000),
  embedding_model: optionalText('Embedding model', 200),
});

const present = (v: string | null | undefined): boolean => v !== undefined && v !== null && v !== '';

function baseUrlRule(value: { provider: LlmProvider; base_url?: string | null }, ctx: z.RefinementCtx) {
  if (providerNeedsBaseUrl(value.provider) && !present(value.base_url)) {
    ctx.addIssue({ code: 'custom', path: ['base_url'], message: LLM_MESSAGES.baseUrlRequired });
  }
}

/** `POST /settings/llm`: a base URL for openai-compatible and azure, a key for the hosted providers. */
export const CreateLlmBody = LlmFields.superRefine((value, ctx) => {
  baseUrlRule(value, ctx);
  if (providerNeedsApiKey(value.provider) && !present(value.api_key)) {
    ctx.addIssue({ code: 'custom', path: ['api_key'], message: LLM_MESSAGES.apiKeyRequired });
  }
});
export type CreateLlmBody = z.input<typeof CreateLlmBody>;

/** `PUT /settings/llm/{id}`: every field again; an omitted or empty api_key keeps the stored one. */
export const UpdateLlmBody = LlmFields.superRefine(baseUrlRule);
export type UpdateLlmBody = z.input<typeof UpdateLlmBody>;

export const LlmIdParams = z.object({ id: Id });

/** `PATCH /settings/llm/{llm_id}/toggle/{is_active}`: is_active is "true" or "false". */
export const LlmToggleParams = z.object({
  llm_id: Id,
  is_active: z
    .enum(['true', 'false'], { error: 'The active flag must be true or false' })
    .transform((v) => v === 'true'),
});

/**
 * The connection test's reasons, all written by Parley: nothing the called server answers (its error
 * text, its reply) is passed on, since the base URL may point anywhere the server can reach.
 */
export const LLM_TEST_MESSAGES = {
  answered: 'The model answered',
  unreadableKey:
    'The stored API key cannot be decrypted (the application secret changed?); enter the key again',
  redirected: (status: number) =>
    `The server answered with a redirect (HTTP ${status}), which Parley does not follow: enter the address the model is served at as the base URL`,
  keyRefused: (status: number) => `The provider refused the API key (HTTP ${status})`,
  notFound: 'The provider answered HTTP 404: check the base URL and the model name',
  rateLimited: 'The provider is limiting requests (HTTP 429); try again later',
  refused: (status: number) =>
    `The provider refused the request (HTTP ${status}): check the model name and settings`,
  providerFailed: (status: number) => `The provider failed (HTTP ${status}); try again later`,
  notAModelServer: 'The server answered, but not as this provider does: check the provider and the base URL',
  timedOut: (seconds: number) => `The model did not answer within ${seconds} seconds`,
  unreachable: (why: string) => `Could not connect to the base URL (${why})`,
  /** Said of a visitor's answer (the LLM settings Status), never of the connection test. */
  streamBroke: "The model's answer stopped half-way (the stream stalled or closed before it ended)",
  cutShort: (why: string) => `The model's answer was cut short (${why})`,
} as const;

/** `POST /settings/llm/{id}/test`: a tiny real call to the model. A provider failure is ok: false, never a 5xx. */
export const LlmTestResult = z.object({
  ok: z.boolean(),
  /** One of LLM_TEST_MESSAGES: Parley's own words, never the called server's text. */
  detail: z.string(),
  latency_ms: z.number().int(),
});
export type LlmTestResult = z.infer<typeof LlmTestResult>;
