import { randomBytes } from 'node:crypto';
import {
  type CreateSocialAccountBody,
  type ExchangeTokenBody,
  type ExchangeTokenResult,
  type LinkBotBody,
  SOCIAL_TEXTS,
  type SocialAccount,
  type SocialChannel,
  type UnlinkBotBody,
} from '@parley/contracts';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { decryptSecret, deriveKey, encryptSecret, signPayload, verifyPayload } from '../../core/crypto.js';
import type { Db } from '../../core/db/database.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { botNamesOf, requireBot } from '../bots/bots.queries.js';
import { GraphError, type GraphPage, type MetaClient } from './meta.client.js';
import { socialAccounts, socialOauthStates } from './social.schema.js';

export type AccountRow = typeof socialAccounts.$inferSelect;

/** The webhook fields every connected page is subscribed to (issue 16). */
export const WEBHOOK_FIELDS = [
  'messages',
  'messaging_postbacks',
  'message_echoes',
  'message_reads',
  'message_edits',
] as const;

/** Facebook Login permissions per channel: pages and messaging, plus Instagram's own. */
const SCOPES: Record<SocialChannel, string> = {
  messenger: 'pages_show_list,pages_manage_metadata,pages_messaging',
  instagram:
    'pages_show_list,pages_manage_metadata,pages_messaging,instagram_basic,instagram_manage_messages,business_management',
};
const STATE_MINUTES = 10;

type StatePayload = { t: number; u: number; c: SocialChannel; n: string; e: number };
/** A page as the channel connects it: the page, and for Instagram its professional account. */
type Connectable = { page: GraphPage; externalId: string; username: string | null };

/**
 * Connected Instagram and Messenger accounts of a workspace: Facebook Login's code exchanged for
 * page tokens (sealed at rest, never returned), the app subscribed to each page's messages, bots
 * linked and unlinked. One page belongs to one workspace.
 */
export class AccountsService {
  private readonly tokenKey: Buffer;
  private readonly stateKey: Buffer;

  constructor(
    private readonly deps: ModuleDeps,
    private readonly meta: MetaClient,
  ) {
    this.tokenKey = deriveKey(deps.config.appSecret, 'social-page-tokens');
    this.stateKey = deriveKey(deps.config.appSecret, 'social-oauth-state');
  }

  private get db(): Db {
    return this.deps.db;
  }

  /** The Facebook Login dialog, with a signed state that names the caller and works once. */
  async authorizeUrl(auth: AuthContext, channel: SocialChannel): Promise<{ url: string }> {
    const appId = this.requireApp();
    const nonce = randomBytes(16).toString('base64url');
    const expiresAt = new Date(Date.now() + STATE_MINUTES * 60_000);
    await this.db.delete(socialOauthStates).where(lt(socialOauthStates.expiresAt, new Date()));
    await this.db
      .insert(socialOauthStates)
      .values({ nonce, tenantId: auth.tenantId, userId: auth.userId, channel, expiresAt });
    const state = this.sign({
      t: auth.tenantId,
      u: auth.userId,
      c: channel,
      n: nonce,
      e: expiresAt.getTime(),
    });
    const url = new URL(this.deps.config.META_LOGIN_URL);
    url.searchParams.set('client_id', appId);
    url.searchParams.set('redirect_uri', this.redirectUri(channel));
    url.searchParams.set('state', state);
    url.searchParams.set('scope', SCOPES[channel]);
    url.searchParams.set('response_type', 'code');
    return { url: url.toString() };
  }

  /** The callback's code → page tokens → the pages connected (all or nothing) and subscribed. */
  async exchange(
    auth: AuthContext,
    channel: SocialChannel,
    body: ExchangeTokenBody,
  ): Promise<ExchangeTokenResult> {
    if (!body.code) throw badRequest(SOCIAL_TEXTS.codeMissing);
    this.requireApp();
    await this.takeState(auth, channel, body.state);
    const botId = body.bot_id === undefined ? null : await this.requireBot(auth, body.bot_id);
    let pages: GraphPage[];
    try {
      pages = await this.meta.pages(await this.meta.userTokenFor(body.code, this.redirectUri(channel)));
    } catch (error) {
      this.deps.log.warn({ err: error, channel }, 'social: token exchange refused');
      throw badRequest(exchangeFailed(channel));
    }
    // Messenger needs a page token for every page; a page without one is a failed exchange.
    if (pages.some((page) => !page.access_token)) throw badRequest(exchangeFailed(channel));
    if (pages.length === 0) throw badRequest(SOCIAL_TEXTS.noPages);
    const connectable = connectableOf(channel, pages);
    if (connectable.length === 0) throw badRequest(SOCIAL_TEXTS.noInstagram);
    const rows = await this.connect(auth, channel, connectable, botId);
    return { message: SOCIAL_TEXTS.exchanged[channel], accounts: await this.views(auth, rows) };
  }

  /** One page connected with a page token someone pasted; the token must be that page's. */
  async create(
    auth: AuthContext,
    channel: SocialChannel,
    body: CreateSocialAccountBody,
  ): Promise<SocialAccount> {
    const botId = body.bot_id === undefined ? null : await this.requireBot(auth, body.bot_id);
    let page: Omit<GraphPage, 'access_token'>;
    try {
      page = await this.meta.page(body.page_id, body.access_token);
    } catch (error) {
      throw graphFailure(error, SOCIAL_TEXTS.pageTokenRefused);
    }
    const [connectable] = connectableOf(channel, [{ ...page, access_token: body.access_token }]);
    if (!connectable) throw badRequest(SOCIAL_TEXTS.noInstagram);
    const [row] = await this.connect(auth, channel, [connectable], botId);
    return (await this.views(auth, [row!]))[0]!;
  }

  async list(auth: AuthContext, channel: SocialChannel): Promise<SocialAccount[]> {
    const rows = await this.db
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.tenantId, auth.tenantId), eq(socialAccounts.channel, channel)))
      .orderBy(socialAccounts.id);
    return this.views(auth, rows);
  }

  async get(auth: AuthContext, channel: SocialChannel, id: number): Promise<SocialAccount> {
    return (await this.views(auth, [await this.require(auth, channel, id)]))[0]!;
  }

  /** Unsubscribes the page (best effort: a dead token cannot), then forgets the account. */
  async remove(auth: AuthContext, channel: SocialChannel, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, channel, id);
    // Another account of the workspace may share the page (Messenger and Instagram): keep its subscription.
    const sharing = await this.db
      .select({ id: socialAccounts.id })
      .from(socialAccounts)
      .where(and(eq(socialAccounts.pageId, row.pageId), eq(socialAccounts.tenantId, auth.tenantId)));
    if (sharing.length === 1) {
      await this.meta.unsubscribe(row.pageId, this.tokenOf(row)).catch((error) => {
        this.deps.log.warn({ err: error, accountId: row.id }, 'social: could not unsubscribe a page');
      });
    }
    await this.db.delete(socialAccounts).where(eq(socialAccounts.id, row.id));
    return { message: SOCIAL_TEXTS.disconnected[channel] };
  }

  async link(auth: AuthContext, channel: SocialChannel, body: LinkBotBody): Promise<{ message: string }> {
    const row = await this.require(auth, channel, body.account_id);
    const botId = await this.requireBot(auth, body.bot_id);
    await this.db
      .update(socialAccounts)
      .set({ botId, lastBotId: botId })
      .where(eq(socialAccounts.id, row.id));
    return { message: SOCIAL_TEXTS.linked[channel] };
  }

  async unlink(auth: AuthContext, channel: SocialChannel, body: UnlinkBotBody): Promise<{ message: string }> {
    const row = await this.require(auth, channel, body.account_id);
    if (body.bot_id !== undefined && row.botId !== body.bot_id) throw notFound(SOCIAL_TEXTS.botNotFound);
    await this.db.update(socialAccounts).set({ botId: null }).where(eq(socialAccounts.id, row.id));
    return { message: SOCIAL_TEXTS.unlinked[channel] };
  }

  /** The page token of an account (for the Send API and profiles). */
  tokenOf(row: AccountRow): string {
    return decryptSecret(this.tokenKey, row.accessToken);
  }

  /** Facebook refused the token (expired, revoked): the account stops until it is connected again. */
  async deactivate(row: AccountRow, reason: string): Promise<boolean> {
    const changed = await this.db
      .update(socialAccounts)
      .set({ isActive: false, inactiveReason: reason })
      .where(and(eq(socialAccounts.id, row.id), eq(socialAccounts.isActive, true)))
      .returning({ id: socialAccounts.id });
    return changed.length > 0;
  }

  /**
   * Subscribes each page, then stores the accounts in one transaction; a page another workspace
   * holds refuses the whole request before anything changes.
   */
  private async connect(
    auth: AuthContext,
    channel: SocialChannel,
    pages: Connectable[],
    botId: number | null,
  ): Promise<AccountRow[]> {
    await entitlementsOf(this.deps).requireFeature(
      auth.tenantId,
      channel === 'instagram' ? 'instagram_integration' : 'facebook_integration',
    );
    const existing = await this.db
      .select({ externalId: socialAccounts.externalId, tenantId: socialAccounts.tenantId })
      .from(socialAccounts)
      .where(
        and(
          eq(socialAccounts.channel, channel),
          inArray(
            socialAccounts.externalId,
            pages.map((p) => p.externalId),
          ),
        ),
      );
    if (existing.some((row) => row.tenantId !== auth.tenantId)) throw conflict(SOCIAL_TEXTS.takenByAnother);
    for (const { page } of pages) {
      try {
        await this.meta.subscribe(page.id, page.access_token, WEBHOOK_FIELDS);
      } catch (error) {
        throw graphFailure(error, SOCIAL_TEXTS.connectFailed[channel]);
      }
    }
    return this.db.transaction(async (tx) => {
      const rows: AccountRow[] = [];
      for (const { page, externalId, username } of pages) {
        const values = {
          pageId: page.id,
          pageName: page.name,
          instagramAccountId: channel === 'instagram' ? externalId : null,
          username,
          accessToken: encryptSecret(this.tokenKey, page.access_token),
          isActive: true,
          inactiveReason: null,
          ...(botId !== null ? { botId, lastBotId: botId } : {}),
        };
        const [row] = await tx
          .insert(socialAccounts)
          .values({ tenantId: auth.tenantId, channel, externalId, ...values })
          .onConflictDoUpdate({
            target: [socialAccounts.channel, socialAccounts.externalId],
            set: values,
            // Never across workspaces, even if one connected the page since the check above.
            setWhere: eq(socialAccounts.tenantId, auth.tenantId),
          })
          .returning();
        if (!row) throw conflict(SOCIAL_TEXTS.takenByAnother);
        rows.push(row);
      }
      return rows;
    });
  }

  private async views(auth: AuthContext, rows: AccountRow[]): Promise<SocialAccount[]> {
    const nameOf = await botNamesOf(
      this.db,
      auth.tenantId,
      rows.map((row) => row.botId),
    );
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      tenant_id: row.tenantId,
      page_id: row.pageId,
      page_name: row.pageName,
      instagram_account_id: row.instagramAccountId,
      username: row.username,
      bot_id: row.botId,
      bot_name: row.botId === null ? null : (nameOf.get(row.botId) ?? null),
      is_active: row.isActive,
      inactive_reason: row.inactiveReason,
      created_at: row.createdAt.toISOString(),
    }));
  }

  private async require(auth: AuthContext, channel: SocialChannel, id: number): Promise<AccountRow> {
    const [row] = await this.db
      .select()
      .from(socialAccounts)
      .where(
        and(
          eq(socialAccounts.id, id),
          eq(socialAccounts.tenantId, auth.tenantId),
          eq(socialAccounts.channel, channel),
        ),
      );
    if (!row) throw notFound(SOCIAL_TEXTS.accountNotFound);
    return row;
  }

  private async requireBot(auth: AuthContext, botId: number): Promise<number> {
    return (await requireBot(this.db, auth.tenantId, botId)).id;
  }

  private requireApp(): string {
    const { META_APP_ID, META_APP_SECRET } = this.deps.config;
    if (!META_APP_ID || !META_APP_SECRET) throw badRequest(SOCIAL_TEXTS.notConfigured);
    return META_APP_ID;
  }

  private redirectUri(channel: SocialChannel): string {
    return `${this.deps.config.publicUrl}/integrations/meta/callback?channel=${channel}`;
  }

  private async takeState(auth: AuthContext, channel: SocialChannel, state: string | undefined) {
    const payload = this.verify(state);
    if (payload.t !== auth.tenantId || payload.u !== auth.userId || payload.c !== channel)
      throw badRequest(SOCIAL_TEXTS.stateInvalid);
    if (payload.e < Date.now()) throw badRequest(SOCIAL_TEXTS.stateExpired);
    const [taken] = await this.db
      .delete(socialOauthStates)
      .where(and(eq(socialOauthStates.tenantId, auth.tenantId), eq(socialOauthStates.nonce, payload.n)))
      .returning({ expiresAt: socialOauthStates.expiresAt });
    if (!taken) throw badRequest(SOCIAL_TEXTS.stateUsed);
  }

  private sign(payload: StatePayload): string {
    return signPayload(this.stateKey, payload);
  }

  private verify(state: string | undefined): StatePayload {
    const payload = verifyPayload<StatePayload>(this.stateKey, state);
    if (!payload) throw badRequest(SOCIAL_TEXTS.stateInvalid);
    return payload;
  }
}

/** Messenger connects pages; Instagram connects the professional accounts linked to them. */
function connectableOf(channel: SocialChannel, pages: GraphPage[]): Connectable[] {
  if (channel === 'messenger') return pages.map((page) => ({ page, externalId: page.id, username: null }));
  return pages.flatMap((page) =>
    page.instagram_business_account
      ? [
          {
            page,
            externalId: page.instagram_business_account.id,
            username: page.instagram_business_account.username ?? null,
          },
        ]
      : [],
  );
}

const exchangeFailed = (channel: SocialChannel) =>
  channel === 'messenger' ? SOCIAL_TEXTS.messengerExchangeFailed : SOCIAL_TEXTS.instagramExchangeFailed;

/** A refused token is the caller's input (400); Facebook being down is not (502). */
function graphFailure(error: unknown, refused: string): AppError {
  if (error instanceof GraphError && error.kind === 'transient')
    return new AppError('unavailable', SOCIAL_TEXTS.metaUnavailable);
  return badRequest(refused);
}
