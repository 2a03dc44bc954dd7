import { randomInt } from 'node:crypto';
import {
  type EmbeddedSignupConfig,
  type OnboardBody,
  type OnboardResult,
  WHATSAPP_TEXTS,
  type WhatsAppAccount,
} from '@parley/contracts';
import { and, eq, ne } from 'drizzle-orm';
import { decryptSecret, deriveKey, encryptSecret } from '../../core/crypto.js';
import type { Db } from '../../core/db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { botNamesOf, requireBot } from '../bots/bots.queries.js';
import { GraphError } from '../social/meta.client.js';
import type { CloudClient } from './cloud.client.js';
import { whatsappAccounts } from './whatsapp.schema.js';

export type WhatsAppAccountRow = typeof whatsappAccounts.$inferSelect;

/**
 * WhatsApp numbers of a workspace: Meta's embedded signup hands the console a code and the ids of
 * the business account and number it created or chose; the server exchanges the code for a
 * business token (sealed at rest, never returned), checks the number belongs to that account,
 * registers it for the Cloud API and subscribes the app to the account's webhooks.
 */
export class WhatsAppAccountsService {
  private readonly tokenKey: Buffer;

  constructor(
    private readonly deps: ModuleDeps,
    private readonly cloud: CloudClient,
  ) {
    this.tokenKey = deriveKey(deps.config.appSecret, 'whatsapp-tokens');
  }

  private get db(): Db {
    return this.deps.db;
  }

  /** What the console opens: Facebook Login for Business with the WhatsApp signup configuration. */
  signupConfig(): EmbeddedSignupConfig {
    const { META_APP_ID, META_APP_SECRET, WHATSAPP_CONFIG_ID, META_LOGIN_URL } = this.deps.config;
    if (!META_APP_ID || !META_APP_SECRET || !WHATSAPP_CONFIG_ID)
      return { configured: false, app_id: META_APP_ID ?? null, config_id: null, dialog_url: null };
    const url = new URL(META_LOGIN_URL);
    url.searchParams.set('client_id', META_APP_ID);
    url.searchParams.set('config_id', WHATSAPP_CONFIG_ID);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('override_default_response_type', 'true');
    url.searchParams.set('redirect_uri', this.redirectUri());
    url.searchParams.set(
      'extras',
      JSON.stringify({ setup: {}, featureType: '', sessionInfoVersion: '3', version: 'v3' }),
    );
    return {
      configured: true,
      app_id: META_APP_ID,
      config_id: WHATSAPP_CONFIG_ID,
      dialog_url: url.toString(),
    };
  }

  async onboard(auth: AuthContext, body: OnboardBody): Promise<OnboardResult> {
    if (!this.signupConfig().configured) throw badRequest(WHATSAPP_TEXTS.notConfigured);
    if (!body.code) throw badRequest(WHATSAPP_TEXTS.codeMissing);
    await entitlementsOf(this.deps).requireFeature(auth.tenantId, 'whatsapp_integration');
    const botId = body.bot_id === undefined ? null : await this.requireBot(auth, body.bot_id);
    await this.refuseOtherTenants(auth, body.phone_number_id);
    const redirect = body.redirect_uri === this.redirectUri() ? body.redirect_uri : undefined;
    const token = await this.step(() => this.cloud.exchangeCode(body.code!, redirect));
    const numbers = await this.step(() => this.cloud.numbersOf(body.waba_id, token));
    if (!numbers.some((n) => n.id === body.phone_number_id))
      throw badRequest(WHATSAPP_TEXTS.numberNotInAccount);
    const number = await this.step(() => this.cloud.number(body.phone_number_id, token));
    await this.step(() =>
      this.cloud.register(body.phone_number_id, token, String(randomInt(100_000, 1_000_000))),
    );
    await this.step(() => this.cloud.subscribe(body.waba_id, token));
    const values = {
      wabaId: body.waba_id,
      displayPhoneNumber: number.display_phone_number ?? body.phone_number_id,
      verifiedName: number.verified_name ?? '',
      qualityRating: number.quality_rating ?? 'UNKNOWN',
      accessToken: encryptSecret(this.tokenKey, token),
      isActive: true,
      inactiveReason: null,
      ...(botId !== null ? { botId, lastBotId: botId } : {}),
    };
    const [row] = await this.db
      .insert(whatsappAccounts)
      .values({ tenantId: auth.tenantId, phoneNumberId: body.phone_number_id, ...values })
      .onConflictDoUpdate({
        target: whatsappAccounts.phoneNumberId,
        set: values,
        // Never across workspaces, even if one connected the number since the check above.
        setWhere: eq(whatsappAccounts.tenantId, auth.tenantId),
      })
      .returning();
    if (!row) throw conflict(WHATSAPP_TEXTS.takenByAnother);
    return { message: WHATSAPP_TEXTS.onboarded, account: (await this.views(auth, [row]))[0]! };
  }

  async list(auth: AuthContext): Promise<WhatsAppAccount[]> {
    const rows = await this.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.tenantId, auth.tenantId))
      .orderBy(whatsappAccounts.id);
    return this.views(auth, rows);
  }

  /** Unsubscribes the business account unless another of the workspace's numbers shares it (best effort). */
  async remove(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, id);
    const sharing = await this.db
      .select({ id: whatsappAccounts.id })
      .from(whatsappAccounts)
      .where(and(eq(whatsappAccounts.wabaId, row.wabaId), ne(whatsappAccounts.id, row.id)));
    if (sharing.length === 0)
      await this.cloud.unsubscribe(row.wabaId, this.tokenOf(row)).catch((error) => {
        this.deps.log.warn({ err: error, accountId: row.id }, 'whatsapp: could not unsubscribe');
      });
    await this.db.delete(whatsappAccounts).where(eq(whatsappAccounts.id, row.id));
    return { message: WHATSAPP_TEXTS.accountRemoved };
  }

  async link(auth: AuthContext, accountId: number, botId: number): Promise<{ message: string }> {
    const row = await this.require(auth, accountId);
    const bot = await this.requireBot(auth, botId);
    await this.db
      .update(whatsappAccounts)
      .set({ botId: bot, lastBotId: bot })
      .where(eq(whatsappAccounts.id, row.id));
    return { message: WHATSAPP_TEXTS.linked };
  }

  async unlink(auth: AuthContext, accountId: number): Promise<{ message: string }> {
    const row = await this.require(auth, accountId);
    await this.db.update(whatsappAccounts).set({ botId: null }).where(eq(whatsappAccounts.id, row.id));
    return { message: WHATSAPP_TEXTS.unlinked };
  }

  /** One of the caller's accounts, or 404 (another workspace's id answers the same). */
  async require(auth: AuthContext, id: number): Promise<WhatsAppAccountRow> {
    const [row] = await this.db
      .select()
      .from(whatsappAccounts)
      .where(and(eq(whatsappAccounts.id, id), eq(whatsappAccounts.tenantId, auth.tenantId)));
    if (!row) throw notFound(WHATSAPP_TEXTS.accountNotFound);
    return row;
  }

  async byPhoneNumberId(tenantId: number, phoneNumberId: string): Promise<WhatsAppAccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(whatsappAccounts)
      .where(and(eq(whatsappAccounts.tenantId, tenantId), eq(whatsappAccounts.phoneNumberId, phoneNumberId)));
    return row;
  }

  tokenOf(row: WhatsAppAccountRow): string {
    return decryptSecret(this.tokenKey, row.accessToken);
  }

  /** Meta refused the token: the number stops until it is connected again. True if this call stopped it. */
  async deactivate(row: WhatsAppAccountRow, reason: string): Promise<boolean> {
    const changed = await this.db
      .update(whatsappAccounts)
      .set({ isActive: false, inactiveReason: reason })
      .where(and(eq(whatsappAccounts.id, row.id), eq(whatsappAccounts.isActive, true)))
      .returning({ id: whatsappAccounts.id });
    return changed.length > 0;
  }

  private async views(auth: AuthContext, rows: WhatsAppAccountRow[]): Promise<WhatsAppAccount[]> {
    const nameOf = await botNamesOf(
      this.db,
      auth.tenantId,
      rows.map((row) => row.botId),
    );
    return rows.map((row) => ({
      id: row.id,
      tenant_id: row.tenantId,
      waba_id: row.wabaId,
      phone_number_id: row.phoneNumberId,
      display_phone_number: row.displayPhoneNumber,
      verified_name: row.verifiedName,
      quality_rating: row.qualityRating,
      bot_id: row.botId,
      bot_name: row.botId === null ? null : (nameOf.get(row.botId) ?? null),
      is_active: row.isActive,
      inactive_reason: row.inactiveReason,
      created_at: row.createdAt.toISOString(),
    }));
  }

  private async refuseOtherTenants(auth: AuthContext, phoneNumberId: string): Promise<void> {
    const [taken] = await this.db
      .select({ tenantId: whatsappAccounts.tenantId })
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.phoneNumberId, phoneNumberId));
    if (taken && taken.tenantId !== auth.tenantId) throw conflict(WHATSAPP_TEXTS.takenByAnother);
  }

  private async requireBot(auth: AuthContext, botId: number): Promise<number> {
    return (await requireBot(this.db, auth.tenantId, botId)).id;
  }

  /** A step of onboarding: Meta's refusal is the caller's (400, with Meta's reason); Meta down is a 502. */
  private async step<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw cloudFailure(error, WHATSAPP_TEXTS.onboardFailed);
    }
  }

  private redirectUri(): string {
    return `${this.deps.config.publicUrl}/whatsapp/callback`;
  }
}

/** A Cloud API failure as the API answers it: Meta's reason after ours; unavailable when Meta is down. */
export function cloudFailure(error: unknown, text: string): AppError {
  if (error instanceof GraphError && error.kind === 'transient')
    return new AppError('unavailable', WHATSAPP_TEXTS.metaUnavailable);
  if (error instanceof GraphError) return badRequest(`${text}: ${error.message}`);
  return badRequest(text);
}
