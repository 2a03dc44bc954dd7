import {
  type CreateLlmBody,
  LLM_MESSAGES,
  LLM_TEST_MESSAGES,
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
import { notify } from '../notifications/notifications.service.js';
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
const TEST_TIMEOUT_MS = 20_000;
const MASK = '••••••••';

/** Last four characters for the masked display, only when the key is long enough to keep them safe. */
const hintOf = (key: string): string => (key.length >= 12 ? key.slice(-4) : '');
const blankToNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

function toSetting(row: q.LlmRow, usedBy: string[]): LlmSetting {
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
    last_test:
      row.lastTestOk === null || row.lastTestedAt === null
        ? null
        : {
            ok: row.lastTestOk,
            detail: row.lastTestDetail ?? '',
            latency_ms: row.lastTestLatencyMs ?? 0,
            tested_at: row.lastTestedAt.toISOString(),
          },
    used_by: usedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const NETWORK_REASONS: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN)$/, 'host name not found'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, 'connection timed out'],
  [/^(EHOSTUNREACH|ENETUNREACH)$/, 'host unreachable'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'connection closed'],
  [/CERT|TLS|SSL/, 'TLS handshake or certificate refused'],
];

/** The errors an error was caused by, outermost first (the AI SDK wraps fetch's, which wraps the socket's). */
function* causes(error: unknown): Generator<unknown> {
  for (let depth = 0; error && depth < 5; depth++) {
    yield error;
    error = (error as { cause?: unknown }).cause;
  }
}

function httpFailure(status: number): string {
  if (status >= 300 && status < 400) return LLM_TEST_MESSAGES.redirected(status);
  if (status === 401 || status === 403) return LLM_TEST_MESSAGES.keyRefused(status);
  if (status === 404) return LLM_TEST_MESSAGES.notFound;
  if (status === 429) return LLM_TEST_MESSAGES.rateLimited;
  if (status >= 400 && status < 500) return LLM_TEST_MESSAGES.refused(status);
  if (status >= 500) return LLM_TEST_MESSAGES.providerFailed(status);
  return LLM_TEST_MESSAGES.notAModelServer;
}

/**
 * Why a test call failed, in Parley's words only: the base URL may point at any service the server
 * reaches, so its error text is never passed on; its HTTP status and the kind of network failure are.
 */
/** A model's answer that came, but not whole: its reason is one of Parley's sentences. */
export class ModelAnswerError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'ModelAnswerError';
  }
}

function testFailure(error: unknown, timeoutMs = TEST_TIMEOUT_MS): string {
  if (error instanceof ModelAnswerError) return error.detail;
  if (APICallError.isInstance(error) && error.statusCode !== undefined) return httpFailure(error.statusCode);
  for (const cause of causes(error)) {
    if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError'))
      return LLM_TEST_MESSAGES.timedOut(Math.round(timeoutMs / 1000));
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      const reason = NETWORK_REASONS.find(([pattern]) => pattern.test(code))?.[1];
      if (reason) return LLM_TEST_MESSAGES.unreachable(reason);
    }
  }
  if (APICallError.isInstance(error)) return LLM_TEST_MESSAGES.unreachable('network error');
  return LLM_TEST_MESSAGES.notAModelServer;
}

/**
 * LLM settings of a tenant (console.md section 7): the models its bots may answer with. Keys are
 * sealed with AES-256-GCM under a key derived from APP_SECRET and only ever leave masked.
 */
/** Models built from settings, by setting id and version, shared by this process's services. */
const built = new Map<string, ResolvedModel>();
const MAX_BUILT = 500;
/**
 * Settings whose answers failed last, as this process saw (or read from the row): only their next
 * success is written back, so a working model costs no write per answer.
 */
const failing = new Set<number>();

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
    const [rows, usedBy] = await Promise.all([
      q.listSettings(this.db, tenantId),
      q.botNamesBySetting(this.db, tenantId),
    ]);
    return rows.map((row) => toSetting(row, usedBy.get(row.id) ?? []));
  }

  async get(tenantId: number, id: number): Promise<LlmSetting> {
    return this.withBots(await this.row(tenantId, id));
  }

  /**
   * Saves a new model, then tests it: it is active only when the test passed (issue 31: a model
   * saved as active without a test). A failed test keeps it, inactive, with the reason in last_test.
   */
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
      isActive: false,
    });
    const result = await this.probe(row);
    return this.withBots(await this.record(tenantId, row.id, result, { isActive: result.ok }));
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
    // Tested as saved: an active model that fails now is switched off (its bots quote their sources
    // meanwhile), one the owner had switched off stays off.
    const result = await this.probe(row);
    const tested = await this.record(tenantId, id, result, { isActive: row.isActive && result.ok });
    await this.changed(tenantId);
    return this.withBots(tested);
  }

  /** Switching a model on tests it first: one that fails its test stays off, and the 400 says why. */
  async setActive(tenantId: number, id: number, active: boolean): Promise<LlmSetting> {
    if (active) {
      const result = await this.probe(await this.row(tenantId, id));
      if (!result.ok) {
        await this.record(tenantId, id, result, {});
        throw badRequest(LLM_MESSAGES.notActivated(result.detail));
      }
      const row = await this.record(tenantId, id, result, { isActive: true });
      await this.changed(tenantId);
      return this.withBots(row);
    }
    const row = await q.updateSetting(this.db, tenantId, id, { isActive: false });
    if (!row) throw notFound(NOT_FOUND);
    await this.changed(tenantId);
    return this.withBots(row);
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
   * A tiny real call to the model, redirects not followed. A failure (wrong key, unknown model,
   * unreachable URL, redirect, timeout) is `ok: false` with a reason of Parley's, never an error of
   * ours and never the called server's own text.
   */
  async test(tenantId: number, id: number): Promise<LlmTestResult> {
    const result = await this.probe(await this.row(tenantId, id));
    await this.record(tenantId, id, result, {});
    return result;
  }

  /** Stores a test's result on the setting, with any other change made with it (activation). */
  private async record(
    tenantId: number,
    id: number,
    result: LlmTestResult,
    values: Partial<q.LlmValues>,
  ): Promise<q.LlmRow> {
    const row = await q.updateSetting(this.db, tenantId, id, {
      ...values,
      lastTestOk: result.ok,
      lastTestDetail: result.detail,
      lastTestLatencyMs: result.latency_ms,
      lastTestedAt: new Date(),
    });
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** The test call itself (see test). */
  private async probe(row: q.LlmRow): Promise<LlmTestResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let apiKey: string | null;
    try {
      apiKey = this.keyOf(row);
    } catch {
      return { ok: false, detail: LLM_TEST_MESSAGES.unreadableKey, latency_ms: 0 };
    }
    try {
      await generateText({
        model: this.modelOf(row, apiKey),
        prompt: 'Reply with the single word: OK',
        maxOutputTokens: 16,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      });
      return { ok: true, detail: LLM_TEST_MESSAGES.answered, latency_ms: elapsed() };
    } catch (error) {
      return { ok: false, detail: testFailure(error), latency_ms: elapsed() };
    }
  }

  /**
   * A visitor's answer could not come from this model (an error, a timeout, a stream that broke): the
   * setting's state says why in Parley's words (the LLM settings page's Status), and, when it was
   * working until now, its managers are told once that day. The setting stays on: its bots quote
   * their sources meanwhile, and the next answer tries the model again.
   */
  async answerFailed(tenantId: number, id: number, error: unknown, timeoutMs: number): Promise<void> {
    failing.add(id);
    const detail = testFailure(error, timeoutMs);
    const row = await q.recordAnswerCall(this.db, tenantId, id, { ok: false, detail, latencyMs: 0 });
    if (!row) return;
    await notify(this.db, {
      tenantId,
      kind: 'model_failed',
      title: `${row.name} failed to answer: bots answer from their sources meanwhile`,
      body: detail,
      link: '/bot/llm-settings',
      dedupeKey: `model_failed:${id}:${new Date().toISOString().slice(0, 10)}`,
    });
  }

  /** A model that had failed answered again: its state says it works. */
  async answerWorked(tenantId: number, id: number, latencyMs: number): Promise<void> {
    if (!failing.delete(id)) return;
    await q.recordAnswerCall(this.db, tenantId, id, {
      ok: true,
      detail: LLM_TEST_MESSAGES.answered,
      latencyMs,
    });
  }

  /** The AI SDK model of the tenant's ACTIVE setting with this id (the bot's llm_model is the id as text); null when missing or inactive. */
  async resolve(tenantId: number, llmId: number): Promise<ResolvedModel | null> {
    if (!Number.isSafeInteger(llmId) || llmId <= 0) return null;
    const row = await q.findSetting(this.db, tenantId, llmId);
    if (!row?.isActive) return null;
    // Failing as another process saw: a success here says it works again.
    if (row.lastTestOk === false) failing.add(row.id);
    // Built once per version of the setting: an edit changes updated_at, so a stale model is never used.
    const version = `${row.id}:${row.updatedAt.getTime()}`;
    const cached = built.get(version);
    if (cached) return cached;
    let apiKey: string | null;
    try {
      apiKey = this.keyOf(row);
    } catch {
      throw new AppError('unavailable', `LLM "${row.name}": ${LLM_TEST_MESSAGES.unreadableKey}`);
    }
    const resolved: ResolvedModel = {
      model: this.modelOf(row, apiKey),
      setting: { id: row.id, name: row.name, provider: row.provider as LlmProvider, model: row.model },
    };
    if (built.size >= MAX_BUILT) built.delete(built.keys().next().value ?? '');
    built.set(version, resolved);
    return resolved;
  }

  /** The setting as the API shows it, with the bots that answer with it. */
  private async withBots(row: q.LlmRow): Promise<LlmSetting> {
    const usedBy = await q.botNamesBySetting(this.db, row.tenantId);
    return toSetting(row, usedBy.get(row.id) ?? []);
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
