import { randomBytes } from 'node:crypto';
import type { ShopifyCallbackBody, ShopifyConnectBody } from '@parley/contracts';
import {
  isTrainable,
  SHOPIFY_CONTENT_TYPES,
  SHOPIFY_TYPES,
  type ShopifyType,
  STORE_TEXTS,
  type StoreItem,
  type StoreKind,
} from '@parley/contracts';
import { and, eq, lt } from 'drizzle-orm';
import type { z } from 'zod';
import { deriveKey, signPayload, verifyPayload } from '../../../core/crypto.js';
import { users } from '../../../core/db/schema.js';
import { AppError, badRequest } from '../../../core/errors.js';
import type { AuthContext } from '../../../core/http/request-context.js';
import type { ModuleDeps } from '../../../core/module.js';
import { ShopifyBillingService } from '../../billing/shopify/shopify-billing.service.js';
import type { StoreCore } from '../core/store-core.js';
import { type StoreRow, toItem } from '../stores.queries.js';
import { storeOauthStates } from '../stores.schema.js';
import { recordFromWebhook } from './shopify.adapter.js';
import { authorizeUrl, exchangeCode, ShopifyClient, ShopifyError } from './shopify.client.js';
import { verifyOAuthQuery } from './shopify.hmac.js';

export const SHOPIFY_CALLBACK_SCREEN = '/integrations/shopify/callback';
export const SHOPIFY_WEBHOOK_PATH = '/api/shopify/webhooks';
const STATE_TTL_MS = 10 * 60 * 1000;
/** Query parameters the console adds to Shopify's: not covered by Shopify's HMAC. */
const CONSOLE_PARAMS = new Set(['hmac', 'signature', 'bot_id', 'platform']);
const PRIVACY_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

type StatePayload = { t: number; u: number; n: string; e: number };

/** Shopify: OAuth connection, order actions and webhooks; everything else is the store core's. */
export class ShopifyService {
  private readonly stateKey: Buffer;

  constructor(
    readonly deps: ModuleDeps,
    readonly core: StoreCore,
  ) {
    this.stateKey = deriveKey(deps.config.appSecret, 'shopify-oauth-state');
  }

  private get app() {
    const { SHOPIFY_API_KEY: apiKey, SHOPIFY_API_SECRET: secret } = this.deps.config;
    if (!apiKey || !secret) throw badRequest(STORE_TEXTS.shopifyNotConfigured);
    return { apiKey, secret };
  }

  /** Starts OAuth: Shopify's consent page for the shop, with a signed state that works once, for 10 minutes. */
  async connect(auth: AuthContext, body: z.output<typeof ShopifyConnectBody>): Promise<string> {
    const app = this.app;
    if (body.bot_id) await this.core.requireBot(auth.tenantId, body.bot_id);
    const nonce = randomBytes(16).toString('base64url');
    const expiresAt = new Date(Date.now() + STATE_TTL_MS);
    await this.deps.db.delete(storeOauthStates).where(lt(storeOauthStates.expiresAt, new Date()));
    await this.deps.db.insert(storeOauthStates).values({
      nonce,
      tenantId: auth.tenantId,
      userId: auth.userId,
      shop: body.shop_url,
      botId: body.bot_id ?? null,
      expiresAt,
    });
    const state = signPayload(this.stateKey, {
      t: auth.tenantId,
      u: auth.userId,
      n: nonce,
      e: expiresAt.getTime(),
    });
    return authorizeUrl(this.deps.config, body.shop_url, {
      apiKey: app.apiKey,
      scopes: this.deps.config.SHOPIFY_SCOPES,
      redirectUri: `${this.deps.config.publicUrl}${SHOPIFY_CALLBACK_SCREEN}`,
      state,
    });
  }

  /**
   * Finishes OAuth: the query's HMAC and the state are checked before anything else, the code is
   * exchanged for an offline token (sealed at rest), the shop's webhooks are registered and the
   * store is linked to the bot the connection was started for.
   */
  async callback(auth: AuthContext, body: z.output<typeof ShopifyCallbackBody>) {
    const app = this.app;
    const signed = Object.fromEntries(
      Object.entries(body).filter(([key, value]) => !CONSOLE_PARAMS.has(key) && typeof value === 'string'),
    ) as Record<string, string>;
    if (!verifyOAuthQuery({ ...signed, hmac: body.hmac }, app.secret))
      throw badRequest(STORE_TEXTS.hmacInvalid);
    const issued = await this.takeState(auth, body.state);
    if (issued.shop !== body.shop) throw badRequest(STORE_TEXTS.shopMismatch);
    const token = await this.callShopify('connect', 'store', () =>
      exchangeCode(this.deps.config, body.shop, body.code, app),
    );
    const client = new ShopifyClient(this.deps.config, body.shop, token.accessToken);
    const shop = await this.callShopify('connect', 'store', () => client.shopInfo());
    const store = await this.core.saveStore({
      tenantId: auth.tenantId,
      userId: auth.userId,
      platform: 'shopify',
      domain: body.shop,
      name: shop.name,
      storefrontUrl: shop.domain,
      currency: shop.currency,
      credentials: { accessToken: token.accessToken },
    });
    await client.registerWebhooks(`${this.deps.config.publicUrl}${SHOPIFY_WEBHOOK_PATH}`).catch((error) => {
      // The store works without them; a sync then brings changes in instead of a webhook.
      this.deps.log.warn({ err: error, shop: body.shop }, 'shopify: webhook registration failed');
    });
    const botId = issued.botId ?? (body.bot_id ? Number(body.bot_id) : null);
    if (botId) await this.core.linkBot(auth.tenantId, 'shopify', store.id, botId);
    return {
      message: STORE_TEXTS.shopifyConnected,
      store: await this.core.describe(auth.tenantId, 'shopify', store.id),
    };
  }

  /** The state must be ours, unexpired, unused and issued to this workspace; it is consumed here. */
  private async takeState(auth: AuthContext, state: string) {
    const payload = verifyPayload<StatePayload>(this.stateKey, state);
    if (!payload || payload.t !== auth.tenantId) throw badRequest(STORE_TEXTS.stateInvalid);
    if (payload.e < Date.now()) throw badRequest(STORE_TEXTS.stateExpired);
    const [issued] = await this.deps.db
      .delete(storeOauthStates)
      .where(and(eq(storeOauthStates.nonce, payload.n), eq(storeOauthStates.tenantId, auth.tenantId)))
      .returning();
    if (!issued) throw badRequest(STORE_TEXTS.stateUsed);
    if (issued.expiresAt.getTime() < Date.now()) throw badRequest(STORE_TEXTS.stateExpired);
    return issued;
  }

  /** A Shopify call made for a request: a refusal is the caller's 400; anything else a 503. */
  private async callShopify<T>(
    verb: 'connect' | 'cancel' | 'refund',
    what: string,
    call: () => Promise<T>,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof ShopifyError && error.status > 0 && error.status !== 429 && error.status < 500) {
        throw badRequest(`${STORE_TEXTS.shopifyFailed(verb, what)}: ${error.message}`);
      }
      this.deps.log.warn({ err: error }, 'shopify call failed');
      throw new AppError('unavailable', STORE_TEXTS.storeUnreachable);
    }
  }

  kindOf(type: ShopifyType): StoreKind {
    return SHOPIFY_TYPES[type];
  }

  /** The spec's plural names of a global run, checked; every type when none are given. */
  kindsOf(types: string[] | undefined, trainableOnly: boolean): StoreKind[] {
    const all = Object.keys(SHOPIFY_TYPES) as ShopifyType[];
    const chosen = types && types.length > 0 ? types : trainableOnly ? [...SHOPIFY_CONTENT_TYPES] : all;
    const kinds = chosen.map((type) => {
      if (!(type in SHOPIFY_TYPES)) throw badRequest(STORE_TEXTS.unsupportedType(type));
      return SHOPIFY_TYPES[type as ShopifyType];
    });
    return trainableOnly ? kinds.filter(isTrainable) : kinds;
  }

  private async order(auth: AuthContext, orderId: number) {
    const record = await this.core.recordById(auth.tenantId, 'shopify', 'order', orderId);
    const store = await this.core.own(auth.tenantId, 'shopify', record.storeId);
    if (store.status !== 'connected') throw badRequest(STORE_TEXTS.storeDisconnected);
    const client = this.client(store);
    return { record, store, client };
  }

  async getOrder(auth: AuthContext, orderId: number): Promise<StoreItem> {
    return toItem(await this.core.recordById(auth.tenantId, 'shopify', 'order', orderId));
  }

  /** Cancels on Shopify, then reads the order back so the list shows what Shopify now says. */
  async cancelOrder(auth: AuthContext, orderId: number, reason?: string) {
    const { record, store, client } = await this.order(auth, orderId);
    await this.callShopify('cancel', 'order', () => client.cancelOrder(record.externalId, { reason }));
    return {
      message: STORE_TEXTS.orderCancelled,
      order: await this.reread(store, record.lookupKey!, orderId),
    };
  }

  async refundOrder(
    auth: AuthContext,
    orderId: number,
    input: { amount?: string; note?: string; notify: boolean },
  ) {
    const { record, store, client } = await this.order(auth, orderId);
    await this.callShopify('refund', 'order', () => client.refundOrder(record.externalId, input));
    return {
      message: STORE_TEXTS.orderRefunded,
      order: await this.reread(store, record.lookupKey!, orderId),
    };
  }

  private async reread(store: StoreRow, number: string, orderId: number): Promise<StoreItem> {
    const fresh = await this.core
      .adapter('shopify')
      .findOrder?.(this.core.connection(store), number)
      .catch(() => null);
    if (fresh) await this.core.upsertRecords(store, [fresh], { trainedKind: false });
    return toItem(await this.core.recordById(store.tenantId, 'shopify', 'order', orderId));
  }

  private client(store: StoreRow): ShopifyClient {
    return new ShopifyClient(
      this.deps.config,
      store.domain,
      this.core.connection(store).credentials.accessToken!,
    );
  }

  // ------------------------------------------------ webhooks ------------------------------------------------

  /** A verified delivery: privacy and uninstall topics, or a changed product, collection or order. */
  async receiveWebhook(
    headers: { topic: string; shop: string; eventId: string },
    payload: unknown,
  ): Promise<void> {
    const targets = await this.core.storesAt('shopify', headers.shop);
    if (targets.length === 0) return;
    await this.core.acceptWebhook('shopify', headers.eventId, targets, headers.topic, payload);
  }

  /** The webhook job, per store the delivery concerns. */
  async applyWebhook(store: StoreRow, topic: string, payload: unknown): Promise<void> {
    if (topic === 'app/uninstalled') return this.core.markDisconnected(store);
    if (topic === 'app_subscriptions/update')
      return new ShopifyBillingService(this.deps, this.core).applyUpdate(store, payload);
    if (PRIVACY_TOPICS.has(topic)) return this.privacy(store, topic, payload as PrivacyPayload);
    const change = recordFromWebhook(topic, payload, store.domain, {
      url: store.storefrontUrl,
      currency: store.currency ?? undefined,
    });
    if (change) await this.core.applyChange(store, change);
  }

  /**
   * Shopify's mandatory privacy webhooks: a customer's data request is answered by mail to the
   * person who connected the store, with what Parley holds; a customer redact erases that
   * customer's records and the listed orders; a shop redact erases the store with everything in it.
   */
  private async privacy(store: StoreRow, topic: string, payload: PrivacyPayload) {
    const customer = {
      externalId: payload.customer?.id ? `gid://shopify/Customer/${payload.customer.id}` : null,
      email: payload.customer?.email ?? null,
    };
    if (topic === 'shop/redact') return this.core.deleteStore(store.tenantId, 'shopify', store.id);
    if (topic === 'customers/redact') {
      await this.core.redactCustomer(store, customer);
      for (const id of payload.orders_to_redact ?? []) {
        await this.core
          .deleteRecord(store.tenantId, store.id, 'order', { externalId: `gid://shopify/Order/${id}` })
          .catch((error) => (error instanceof AppError ? undefined : Promise.reject(error)));
      }
      return;
    }
    const records = await this.core.customerRecords(store, customer.email);
    const [owner] = store.userId
      ? await this.deps.db.select().from(users).where(eq(users.id, store.userId))
      : [];
    if (!owner) return;
    await this.deps.mail.send({
      to: owner.email,
      tenantId: store.tenantId,
      subject: `Customer data request from ${store.name}`,
      text: [
        `Shopify asked for the data Parley holds about customer ${customer.email ?? customer.externalId ?? 'unknown'} of ${store.domain}.`,
        records.length === 0 ? 'Parley holds no records of this customer.' : 'Parley holds these records:',
        ...records.map((r) =>
          JSON.stringify({ kind: r.kind, id: r.externalId, title: r.title, data: r.data }),
        ),
      ].join('\n\n'),
    });
  }
}

type PrivacyPayload = {
  customer?: { id?: number; email?: string };
  orders_to_redact?: number[];
};
