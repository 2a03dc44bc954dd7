import { randomBytes } from 'node:crypto';
import {
  isTrainable,
  STORE_TEXTS,
  type StoreKind,
  type Tracking,
  type TrackingResponse,
  WOO_TRAINABLE_TYPES,
  WOO_TYPES,
  type WooConnectBody,
  type WooTestResponse,
  type WooType,
} from '@parley/contracts';
import type { z } from 'zod';
import { AppError, badRequest } from '../../../core/errors.js';
import type { AuthContext } from '../../../core/http/request-context.js';
import type { ModuleDeps } from '../../../core/module.js';
import type { StoreCore } from '../core/store-core.js';
import type { StoreRow } from '../stores.queries.js';
import { recordFromWebhook, wooWebhookChange } from './woo.adapter.js';
import { createWooClient, normaliseStoreUrl, WOO_WEBHOOK_TOPICS, WooError } from './woo.client.js';

export const WOO_WEBHOOK_PATH = '/api/woocommerce/webhooks';
/** What the spec lets a person delete of a store's records. */
const DELETABLE: ReadonlySet<WooType> = new Set(['products', 'pages', 'categories', 'coupons']);

/** WooCommerce: connection by REST API keys, tests, tracking and webhooks; the rest is the store core's. */
export class WooService {
  constructor(
    readonly deps: ModuleDeps,
    readonly core: StoreCore,
  ) {}

  private client(url: string, credentials: { consumerKey: string; consumerSecret: string }) {
    return createWooClient({ url, ...credentials, allowPrivate: this.deps.config.CRAWLER_ALLOW_PRIVATE });
  }

  private clientOf(store: StoreRow) {
    const { consumerKey, consumerSecret } = this.core.connection(store).credentials;
    return this.client(store.domain, { consumerKey: consumerKey!, consumerSecret: consumerSecret! });
  }

  /**
   * Connects a store: the address passes the crawler's SSRF rule, the keys are tried against the
   * store before anything is saved (sealed at rest), and webhooks signed with a secret of our own
   * are registered so changes come in without a sync.
   */
  async connect(auth: AuthContext, body: z.output<typeof WooConnectBody>) {
    if (body.bot_id) await this.core.requireBot(auth.tenantId, body.bot_id);
    const url = this.normalise(body.store_url);
    const credentials = { consumerKey: body.consumer_key, consumerSecret: body.consumer_secret };
    const client = this.client(url, credentials);
    const site = await this.callStore(() => client.testConnection());
    const secret = randomBytes(24).toString('base64url');
    const store = await this.core.saveStore({
      tenantId: auth.tenantId,
      userId: auth.userId,
      platform: 'woocommerce',
      domain: url,
      name: body.name || site.storeName || new URL(url).host,
      storefrontUrl: url,
      currency: site.currency,
      credentials,
      webhookSecret: secret,
    });
    const registered = await client
      .registerWebhooks(
        `${this.deps.config.publicUrl}${WOO_WEBHOOK_PATH}/${store.id}`,
        secret,
        WOO_WEBHOOK_TOPICS,
      )
      .catch((error) => ({ created: [], failed: [{ topic: '*', message: (error as Error).message }] }));
    if (registered.failed.length > 0) {
      // The store works without them; a sync then brings changes in instead of a webhook.
      this.deps.log.warn(
        { storeId: store.id, failed: registered.failed },
        'woocommerce: some webhooks were not registered',
      );
    }
    if (body.bot_id) await this.core.linkBot(auth.tenantId, 'woocommerce', store.id, body.bot_id);
    return {
      message: STORE_TEXTS.wooConnected,
      store: await this.core.describe(auth.tenantId, 'woocommerce', store.id),
    };
  }

  private normalise(raw: string): string {
    try {
      return normaliseStoreUrl(raw);
    } catch (error) {
      throw badRequest(error instanceof WooError ? error.message : STORE_TEXTS.wooUrlInvalid);
    }
  }

  /** A store call made for a request: the store's refusal is the caller's 400; no answer is a 503. */
  private async callStore<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof WooError)) throw error;
      throw wooFailure(error);
    }
  }

  async test(auth: AuthContext, storeId: number): Promise<WooTestResponse> {
    const store = await this.core.own(auth.tenantId, 'woocommerce', storeId);
    try {
      const site = await this.clientOf(store).testConnection();
      return {
        ok: true,
        message: STORE_TEXTS.connectionOk,
        store_name: site.storeName,
        currency: site.currency,
      };
    } catch (error) {
      if (!(error instanceof WooError)) throw error;
      return { ok: false, message: wooFailure(error).detail, store_name: null, currency: null };
    }
  }

  kindOf(type: WooType): StoreKind {
    return WOO_TYPES[type];
  }

  deletable(type: WooType): StoreKind {
    if (!DELETABLE.has(type)) throw badRequest(STORE_TEXTS.unsupportedType(type));
    return WOO_TYPES[type];
  }

  /** The spec's plural names, checked; every type (or every trainable one) when none are given. */
  kindsOf(types: string[] | undefined, trainableOnly: boolean): StoreKind[] {
    const chosen =
      types && types.length > 0 ? types : trainableOnly ? [...WOO_TRAINABLE_TYPES] : Object.keys(WOO_TYPES);
    const kinds = chosen.map((type) => {
      if (!(type in WOO_TYPES)) throw badRequest(STORE_TEXTS.unsupportedType(type));
      return WOO_TYPES[type as WooType];
    });
    return trainableOnly ? kinds.filter(isTrainable) : kinds;
  }

  /** An order's tracking: what the order holds (shipment-tracking meta), and what its notes say. */
  async tracking(auth: AuthContext, storeId: number, orderId: number): Promise<TrackingResponse> {
    const store = await this.core.own(auth.tenantId, 'woocommerce', storeId);
    const record = await this.core.record(auth.tenantId, store.id, 'order', { id: orderId });
    const data = record.data as { number?: string; tracking?: Tracking[] };
    const tracking = mergeTracking(data.tracking ?? [], await this.notesTracking(store, record.externalId));
    return {
      order_id: record.id,
      number: data.number ?? record.externalId,
      status: record.status,
      tracking,
      message: tracking.length === 0 ? STORE_TEXTS.noTracking : null,
    };
  }

  /** Tracking the order's notes name, read now; none when the store cannot be reached. */
  private async notesTracking(store: StoreRow, externalId: string): Promise<Tracking[]> {
    const read = this.core.adapter('woocommerce').tracking;
    if (store.status !== 'connected' || !read) return [];
    try {
      return await read(this.core.connection(store), externalId);
    } catch (error) {
      this.deps.log.warn({ err: error, storeId: store.id }, 'woocommerce: order notes could not be read');
      return [];
    }
  }

  /** A verified delivery for one store, taken in once per delivery id. */
  async receiveWebhook(store: StoreRow, headers: { topic: string; deliveryId: string }, payload: unknown) {
    await this.core.acceptWebhook(
      'woocommerce',
      `${store.id}:${headers.deliveryId}`,
      [store],
      headers.topic,
      payload,
    );
  }

  /**
   * Applies a delivery; for products the store is asked for what the payload lacks (variations),
   * so a store it cannot be asked (disconnected) takes the payload alone. A store that does not
   * answer fails the job, which is tried again.
   */
  async applyWebhook(store: StoreRow, topic: string, payload: unknown): Promise<void> {
    const change =
      store.status === 'connected'
        ? await wooWebhookChange(topic, payload, this.clientOf(store), store.currency)
        : recordFromWebhook(topic, payload);
    if (change) await this.core.applyChange(store, change);
  }

  async storeForWebhook(storeId: number): Promise<StoreRow | null> {
    return this.core.storeAnyTenant(storeId, 'woocommerce');
  }
}

function wooFailure(error: WooError): AppError {
  switch (error.reason) {
    case 'auth':
      return badRequest(STORE_TEXTS.wooKeysRefused);
    case 'not_woocommerce':
    case 'not_found':
      return badRequest(STORE_TEXTS.wooNotWooCommerce);
    case 'blocked':
      return badRequest(error.message);
    default:
      return new AppError('unavailable', STORE_TEXTS.storeUnreachable);
  }
}

/** The same parcel named twice (meta and a note) is listed once. */
function mergeTracking(a: Tracking[], b: Tracking[]): Tracking[] {
  const seen = new Set<string>();
  return [...a, ...b].filter((t) => {
    const key = (t.number ?? t.url ?? '').toLowerCase();
    if (!key || seen.has(key)) return !key && !seen.has(JSON.stringify(t));
    seen.add(key);
    return true;
  });
}
