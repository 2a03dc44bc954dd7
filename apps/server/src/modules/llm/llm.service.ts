import {
  type CreateLlmBody,
  LLM_MESSAGES,
  type LlmProvider,
  type LlmSetting,
  type LlmTestResult,
  providerNeedsApiKey,
  type UpdateLlmBody,
} from '@parley/contracts';
import { APICallError, generateText, type LanguageModel } from 'ai';
import type { z } from 'zod';
import { decryptSecret, deriveKey, encryptSecret } from '../../core/crypto.js';
import type { Db } from '../../core/db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
import { languageModelOf } from './llm.models.js';
import * as q from './llm.queries.js';

export type ResolvedModel = {
  model: LanguageModel;
  setting: { id: number; name: string; provider: LlmProvider; model: string };
};

type CreateInput = z.output<typeof CreateLlmBody>;
type UpdateInput = z.output<typeof UpdateLlmBody>;

/** The purpose the key-encryption key is derived for (never reused for another secret). */
export const LLM_KEY_PURPOSE = 'llm-api-key';
const NOT_FOUND = 'LLM not found';
const NAME_TAKEN = 'An LLM with this name already exists';
const UNREADABLE_KEY =
  'The stored API key cannot be decrypted (the application secret changed?); enter the key again';
const TEST_TIMEOUT_MS = 20_000;
const MASK = '••••••••';

/** Last four characters for the masked display, only when the key is long enough to keep them safe. */
const hintOf = (key: string): string => (key.length >= 12 ? key.slice(-4) : '');
const blankToNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

function toSetting(row: q.LlmRow): LlmSetting {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    provider: row.provider as LlmProvider,
    base_url: row.baseUrl,
    model: row.model,
    api_key_masked: row.apiKeySealed ? `${MASK}${row.apiKeyHint ?? ''}` : null,
    embedding_model: row.embeddingModel,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A provider's failure as the user may read it: its own message, the key (if echoed) blanked out. */
function failureText(error: unknown, apiKey: string | null): string {
  let text: string;
  if (APICallError.isInstance(error)) {
    text = error.message || `The provider answered HTTP ${error.statusCode ?? 'error'}`;
    if (error.statusCode && !text.includes(String(error.statusCode)))
      text = `${text} (HTTP ${error.statusCode})`;
  } else if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    text = `The model did not answer within ${TEST_TIMEOUT_MS / 1000} seconds`;
  } else if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    text = cause instanceof Error && cause.message ? `${error.message}: ${cause.message}` : error.message;
  } else {
    text = 'The model could not be reached';
  }
  if (apiKey && apiKey.length >= 4) text = text.split(apiKey).join(MASK);
  return text.slice(0, 1000);
}

/**
 * LLM settings of a tenant (console.md section 7): the models its bots may answer with. Keys are
 * sealed with AES-256-GCM under a key derived from APP_SECRET and only ever leave masked.
 */
/** Models built from settings, by setting id and version, shared by this process's services. */
const built = new Map<string, ResolvedModel>();
const MAX_BUILT = 500;

export class LlmService {
  private readonly key: Buffer;
  private readonly fetch?: typeof fetch;
  /** Told after every edit, toggle or delete of one of a tenant's models (the bots' cached models). */
  private readonly changed: (tenantId: number) => Promise<void>;

  constructor(
    private readonly db: Db,
    secret: string,
    options: { fetch?: typeof fetch; changed?: (tenantId: number) => Promise<void> } = {},
  ) {
    this.key = deriveKey(secret, LLM_KEY_PURPOSE);
    this.fetch = options.fetch;
    this.changed = options.changed ?? (async () => {});
  }

  /** Every setting of the tenant, active or not (GET /settings/llm/company). */
  async list(tenantId: number): Promise<LlmSetting[]> {
    return (await q.listSettings(this.db, tenantId)).map(toSetting);
  }

  async get(tenantId: number, id: number): Promise<LlmSetting> {
    return toSetting(await this.row(tenantId, id));
  }

  async create(tenantId: number, input: CreateInput): Promise<LlmSetting> {
    const name = input.name;
    if (await q.nameTaken(this.db, tenantId, name)) throw conflict(NAME_TAKEN);
    const apiKey = blankToNull(input.api_key);
    const row = await q.insertSetting(this.db, tenantId, {
      name,
      provider: input.provider,
      baseUrl: blankToNull(input.base_url),
      model: input.model,
      embeddingModel: blankToNull(input.embedding_model),
      ...this.sealed(apiKey),
      isActive: true,
    });
    return toSetting(row);
  }

  /** Edits every field; an omitted or empty api_key keeps the stored one. */
  async update(tenantId: number, id: number, input: UpdateInput): Promise<LlmSetting> {
    const current = await this.row(tenantId, id);
    if (await q.nameTaken(this.db, tenantId, input.name, id)) throw conflict(NAME_TAKEN);
    const apiKey = blankToNull(input.api_key);
    if (!apiKey && !current.apiKeySealed && providerNeedsApiKey(input.provider)) {
      throw badRequest(LLM_MESSAGES.apiKeyRequired);
    }
    const row = await q.updateSetting(this.db, tenantId, id, {
      name: input.name,
      provider: input.provider,
      baseUrl: blankToNull(input.base_url),
      model: input.model,
      embeddingModel: blankToNull(input.embedding_model),
      ...(apiKey ? this.sealed(apiKey) : {}),
    });
    if (!row) throw notFound(NOT_FOUND);
    await this.changed(tenantId);
    return toSetting(row);
  }

  async setActive(tenantId: number, id: number, active: boolean): Promise<LlmSetting> {
    const row = await q.updateSetting(this.db, tenantId, id, { isActive: active });
    if (!row) throw notFound(NOT_FOUND);
    await this.changed(tenantId);
    return toSetting(row);
  }

  /** Deletes the setting; bots that answered with it lose their model (and fall back to the embedded answerer). */
  async remove(tenantId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await q.deleteSetting(tx, tenantId, id))) throw notFound(NOT_FOUND);
      await q.clearBotsModel(tx, tenantId, id);
    });
    // The bots' cached models, and the rows of those that lost theirs, are stale on every node.
    await this.changed(tenantId);
  }

  /**
   * A tiny real call to the model. A provider failure (wrong key, unknown model, unreachable URL,
   * timeout) is `ok: false` with the provider's message, never an error of ours.
   */
  async test(tenantId: number, id: number): Promise<LlmTestResult> {
    const row = await this.row(tenantId, id);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let apiKey: string | null;
    try {
      apiKey = this.keyOf(row);
    } catch {
      return { ok: false, detail: UNREADABLE_KEY, latency_ms: 0 };
    }
    try {
      const { text } = await generateText({
        model: this.modelOf(row, apiKey),
        prompt: 'Reply with the single word: OK',
        maxOutputTokens: 16,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      });
      const reply = text.trim().slice(0, 200);
      return {
        ok: true,
        detail: reply ? `The model answered: ${reply}` : 'The model answered with an empty reply',
        latency_ms: elapsed(),
      };
    } catch (error) {
      return { ok: false, detail: failureText(error, apiKey), latency_ms: elapsed() };
    }
  }

  /** The AI SDK model of the tenant's ACTIVE setting with this id (the bot's llm_model is the id as text); null when missing or inactive. */
  async resolve(tenantId: number, llmId: number): Promise<ResolvedModel | null> {
    if (!Number.isSafeInteger(llmId) || llmId <= 0) return null;
    const row = await q.findSetting(this.db, tenantId, llmId);
    if (!row?.isActive) return null;
    // Built once per version of the setting: an edit changes updated_at, so a stale model is never used.
    const version = `${row.id}:${row.updatedAt.getTime()}`;
    const cached = built.get(version);
    if (cached) return cached;
    let apiKey: string | null;
    try {
      apiKey = this.keyOf(row);
    } catch {
      throw new AppError('unavailable', `LLM "${row.name}": ${UNREADABLE_KEY}`);
    }
    const resolved: ResolvedModel = {
      model: this.modelOf(row, apiKey),
      setting: { id: row.id, name: row.name, provider: row.provider as LlmProvider, model: row.model },
    };
    if (built.size >= MAX_BUILT) built.delete(built.keys().next().value ?? '');
    built.set(version, resolved);
    return resolved;
  }

  private async row(tenantId: number, id: number): Promise<q.LlmRow> {
    const row = await q.findSetting(this.db, tenantId, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  private sealed(apiKey: string | null) {
    return apiKey
      ? { apiKeySealed: encryptSecret(this.key, apiKey), apiKeyHint: hintOf(apiKey) }
      : { apiKeySealed: null, apiKeyHint: null };
  }

  private keyOf(row: q.LlmRow): string | null {
    return row.apiKeySealed ? decryptSecret(this.key, row.apiKeySealed) : null;
  }

  private modelOf(row: q.LlmRow, apiKey: string | null): LanguageModel {
    return languageModelOf(
      { provider: row.provider as LlmProvider, model: row.model, baseUrl: row.baseUrl, apiKey },
      this.fetch,
    );
  }
}
