import {
  BILLING_TEXTS,
  type BillingCycle,
  type CreateShopifySubscriptionBody,
  PAYMENT_TEXTS,
  SHOPIFY_BILLING_TEXTS,
  type ShopifySubscriptionCheckout,
  STORE_TEXTS,
  type Subscription,
  type SubscriptionStatus,
} from '@parley/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, badRequest, notFound } from '../../../core/errors.js';
import type { AuthContext } from '../../../core/http/request-context.js';
import { sameTenant } from '../../../core/http/tenant.js';
import type { ModuleDeps } from '../../../core/module.js';
import type { StoreCore } from '../../stores/core/store-core.js';
import {
  type AppPricingInterval,
  type AppSubscriptionStatus,
  ShopifyClient,
  ShopifyError,
} from '../../stores/shopify/shopify.client.js';
import type { StoreRow } from '../../stores/stores.queries.js';
import { stores } from '../../stores/stores.schema.js';
import { storeServices } from '../../stores/stores.services.js';
import { plans, subscriptions } from '../billing.schema.js';
import { minorDigits } from '../payments/money.js';
import {
  FINAL,
  GRANTING,
  ownSubscription,
  type PlanRow,
  type SubscriptionRow,
  subscriptionView,
} from '../payments/payments.queries.js';
import { listSubscriptions } from '../subscriptions.queries.js';

const INTERVAL: Record<BillingCycle, AppPricingInterval> = { monthly: 'EVERY_30_DAYS', yearly: 'ANNUAL' };

/**
 * Shopify's app subscription states in Parley's names. ACCEPTED (approved, not yet activated: an
 * older API's step) reads as authenticated; FROZEN (the shop stopped paying Shopify) as halted;
 * a charge the merchant declined never starts, as an expired one.
 */
export const STATUS_OF: Record<AppSubscriptionStatus, SubscriptionStatus> = {
  PENDING: 'created',
  ACCEPTED: 'authenticated',
  ACTIVE: 'active',
  FROZEN: 'halted',
  CANCELLED: 'cancelled',
  DECLINED: 'expired',
  EXPIRED: 'expired',
};
const APP_STATUSES = Object.keys(STATUS_OF) as [AppSubscriptionStatus, ...AppSubscriptionStatus[]];

/** Within one timestamp, the life order decides (Shopify stamps updated_at to the second). */
const RANK: Record<SubscriptionStatus, number> = {
  created: 0,
  authenticated: 1,
  active: 2,
  pending: 3,
  halted: 3,
  cancelled: 4,
  completed: 4,
  expired: 4,
};

/** The app_subscriptions/update delivery (Shopify's REST JSON); the rest of it is not read. */
const AppSubscriptionUpdate = z.looseObject({
  app_subscription: z.looseObject({
    admin_graphql_api_id: z.string().startsWith('gid://shopify/AppSubscription/').max(200),
    status: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(APP_STATUSES)),
    updated_at: z.string().refine((s) => !Number.isNaN(Date.parse(s))),
  }),
});

/** A price in minor units as Shopify's Decimal: the point placed in the digits, never a float division. */
export function decimalAmount(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new Error(`not an amount in minor units: ${minor}`);
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

type Verb = 'create' | 'activate' | 'cancel';
const FAILED: Record<Verb, string> = {
  create: SHOPIFY_BILLING_TEXTS.createFailed,
  activate: SHOPIFY_BILLING_TEXTS.activateFailed,
  cancel: SHOPIFY_BILLING_TEXTS.cancelFailed,
};

/**
 * Paying for a plan through Shopify's app billing, for workspaces that came from Shopify: a
 * recurring app charge on the workspace's connected shop, with the shop's offline token.
 *
 * Our row's state follows Shopify: what Shopify answered when read (activate, cancel) or what its
 * app_subscriptions/update webhook says, whichever is newer (`last_event_at`).
 */
export class ShopifyBillingService {
  constructor(
    readonly deps: ModuleDeps,
    private readonly core: StoreCore = storeServices(deps).core,
  ) {}

  /**
   * A PENDING app charge for the plan and cycle, and our subscription (status created) named by it.
   * Shopify sends the merchant back to the console's `return_url` with our subscription id and the
   * store id added, so the console can activate it.
   */
  async create(
    auth: AuthContext,
    body: z.output<typeof CreateShopifySubscriptionBody>,
  ): Promise<ShopifySubscriptionCheckout> {
    sameTenant(auth, body.tenant_id);
    const returnUrl = this.returnUrl(body.return_url);
    const plan = await this.paidPlan(body.plan_id, body.billing_cycle);
    const store = await this.chargedStore(auth.tenantId, body.store_id);
    const client = this.client(store);
    const [row] = await this.deps.db
      .insert(subscriptions)
      .values({ tenantId: auth.tenantId, planId: plan.id, billingCycle: body.billing_cycle })
      .returning();
    returnUrl.searchParams.delete('charge_id');
    returnUrl.searchParams.set('subscription_id', String(row!.id));
    returnUrl.searchParams.set('store_id', String(store.id));
    const price = body.billing_cycle === 'monthly' ? plan.priceMonthly : plan.priceYearly;
    let made: Awaited<ReturnType<ShopifyClient['createAppSubscription']>>;
    try {
      made = await this.atShopify('create', () =>
        client.createAppSubscription({
          name: `Parley ${plan.name} (${body.billing_cycle})`,
          returnUrl: returnUrl.toString(),
          amount: decimalAmount(price, plan.currency),
          currencyCode: plan.currency,
          interval: INTERVAL[body.billing_cycle],
          // Anything but production makes test charges, which Shopify never bills.
          test: this.deps.config.NODE_ENV !== 'production',
        }),
      );
    } catch (error) {
      // Our row exists first so the return address can name it; without a charge it goes again.
      await this.deps.db.delete(subscriptions).where(eq(subscriptions.id, row!.id));
      throw error;
    }
    const [saved] = await this.deps.db
      .update(subscriptions)
      .set({ shopifySubscriptionId: made.subscription.id })
      .where(eq(subscriptions.id, row!.id))
      .returning();
    return {
      confirmation_url: made.confirmationUrl,
      subscription: await subscriptionView(this.deps.db, saved!),
    };
  }

  /**
   * On return from Shopify: the app subscription as Shopify holds it now decides. ACTIVE starts
   * ours (the plan applies at once, to the end of Shopify's current period); declined or expired
   * ends it; still pending leaves it as it is.
   *
   * Another subscription of the workspace that grants (Razorpay's, or an earlier Shopify one) is not
   * touched here. Entitlements apply the newest granting subscription, which is this one, from now
   * on. Shopify itself cancels the app's previous charge on the shop when the merchant approves a
   * new one, and its app_subscriptions/update webhook then marks that one cancelled here. A Razorpay
   * subscription goes on billing until it is cancelled in Subscriptions.
   */
  async activate(auth: AuthContext, subscriptionId: number, storeId: number): Promise<Subscription> {
    const store = await this.core.own(auth.tenantId, 'shopify', storeId);
    const row = await this.ownShopifyRow(auth.tenantId, subscriptionId);
    if (store.status !== 'connected') throw badRequest(STORE_TEXTS.storeDisconnected);
    const readAt = new Date();
    const remote = await this.atShopify('activate', () =>
      this.client(store).appSubscription(row.shopifySubscriptionId),
    );
    if (!remote) throw badRequest(SHOPIFY_BILLING_TEXTS.unknownAtShopify);
    const saved = await this.apply(row.id, remote.status, readAt, { periodEnd: remote.currentPeriodEnd });
    return subscriptionView(this.deps.db, saved ?? row);
  }

  /**
   * Cancels at Shopify, which ends the charge at once; auto_renew becomes false (spec section 4).
   * A store whose app was uninstalled has had its charges ended by Shopify already: ours follows.
   */
  async cancel(auth: AuthContext, subscriptionId: number, storeId: number): Promise<Subscription> {
    const store = await this.core.own(auth.tenantId, 'shopify', storeId);
    const row = await this.ownShopifyRow(auth.tenantId, subscriptionId);
    if (FINAL.has(row.status)) throw badRequest(PAYMENT_TEXTS.alreadyCancelled);
    const at = new Date();
    const status =
      store.status === 'connected'
        ? (
            await this.atShopify('cancel', () =>
              this.client(store).cancelAppSubscription(row.shopifySubscriptionId),
            )
          ).status
        : 'CANCELLED';
    const saved = await this.apply(row.id, status, at, { autoRenew: false });
    return subscriptionView(this.deps.db, saved ?? row);
  }

  /** The caller's own id only (another user's: 404): the workspace's subscriptions billed by Shopify. */
  async ofUser(auth: AuthContext, userId: number): Promise<Subscription[]> {
    if (userId !== auth.userId) throw notFound();
    const all = await listSubscriptions(this.deps.db, auth.tenantId);
    return all.filter((s) => s.shopify_subscription_id !== null);
  }

  /**
   * The app_subscriptions/update webhook (a job per store of the shop): the subscription of that
   * store's workspace with this gid takes the status, unless something newer was applied already.
   * ACTIVE reads the current period's end from Shopify (the delivery does not carry it).
   */
  async applyUpdate(store: StoreRow, payload: unknown): Promise<void> {
    const parsed = AppSubscriptionUpdate.safeParse(payload);
    if (!parsed.success) {
      this.deps.log.warn({ shop: store.domain }, 'shopify billing: app_subscriptions/update not understood');
      return;
    }
    const update = parsed.data.app_subscription;
    const [row] = await this.deps.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.tenantId, store.tenantId),
          eq(subscriptions.shopifySubscriptionId, update.admin_graphql_api_id),
        ),
      );
    if (!row) return;
    const periodEnd =
      update.status === 'ACTIVE' && store.status === 'connected'
        ? await this.client(store)
            .appSubscription(update.admin_graphql_api_id)
            .then((remote) => remote?.currentPeriodEnd ?? null)
            .catch((error: unknown) => {
              this.deps.log.warn({ err: error, shop: store.domain }, 'shopify billing: period not read');
              return null;
            })
        : null;
    await this.apply(row.id, update.status, new Date(update.updated_at), { periodEnd });
  }

  /**
   * Our row takes Shopify's status as of `at`, in one transaction with the row locked. Cancelled,
   * declined and expired are final at Shopify: nothing undoes them, and they apply whatever their
   * time. Any other status applies only if newer than the last one applied.
   */
  private async apply(
    id: number,
    status: AppSubscriptionStatus,
    at: Date,
    options: { periodEnd?: string | null; autoRenew?: false } = {},
  ): Promise<SubscriptionRow | undefined> {
    const next = STATUS_OF[status];
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
      if (!row) return undefined;
      const final = FINAL.has(next);
      if (FINAL.has(row.status) || (!final && !isNewer(row, at, next))) {
        if (options.autoRenew === false && row.autoRenew) {
          const [saved] = await tx
            .update(subscriptions)
            .set({ autoRenew: false })
            .where(eq(subscriptions.id, id))
            .returning();
          return saved;
        }
        return row;
      }
      const periodEnd = options.periodEnd ? new Date(options.periodEnd) : null;
      const [saved] = await tx
        .update(subscriptions)
        .set({
          status: next,
          startDate: next === 'active' ? (row.startDate ?? at) : row.startDate,
          // A charge that ends now ends the period paid for; one never started keeps none.
          endDate:
            periodEnd ?? (final && GRANTING.includes(row.status) ? minDate(row.endDate, at) : row.endDate),
          autoRenew: options.autoRenew ?? (next === 'active' ? true : final ? false : row.autoRenew),
          lastEventAt: row.lastEventAt && row.lastEventAt > at ? row.lastEventAt : at,
        })
        .where(eq(subscriptions.id, id))
        .returning();
      return saved;
    });
  }

  private async ownShopifyRow(tenantId: number, id: number) {
    const row = await ownSubscription(this.deps.db, tenantId, id);
    if (!row?.shopifySubscriptionId) throw notFound(PAYMENT_TEXTS.subscriptionNotFound);
    return { ...row, shopifySubscriptionId: row.shopifySubscriptionId };
  }

  /** Shopify sends the merchant back to a page of this console, never elsewhere. */
  private returnUrl(raw: string): URL {
    const url = new URL(raw);
    const own = new URL(this.deps.config.publicUrl);
    if (url.origin !== own.origin || url.username || url.password)
      throw badRequest(SHOPIFY_BILLING_TEXTS.returnUrlInvalid);
    return url;
  }

  /** The same plan checks as Razorpay's: the default (free) plan needs no payment. */
  private async paidPlan(id: number, cycle: BillingCycle): Promise<PlanRow> {
    const [plan] = await this.deps.db.select().from(plans).where(eq(plans.id, id));
    if (!plan) throw notFound(BILLING_TEXTS.planNotFound);
    if (!plan.isActive) throw badRequest(PAYMENT_TEXTS.planInactive);
    const price = cycle === 'monthly' ? plan.priceMonthly : plan.priceYearly;
    if (plan.isDefault || price <= 0) throw badRequest(PAYMENT_TEXTS.freePlan);
    return plan;
  }

  /** The store asked for (the workspace's, connected), or the workspace's first connected Shopify store. */
  private async chargedStore(tenantId: number, storeId: number | undefined): Promise<StoreRow> {
    if (storeId) {
      const store = await this.core.own(tenantId, 'shopify', storeId);
      if (store.status !== 'connected') throw badRequest(STORE_TEXTS.storeDisconnected);
      return store;
    }
    const [first] = await this.deps.db
      .select()
      .from(stores)
      .where(
        and(eq(stores.tenantId, tenantId), eq(stores.platform, 'shopify'), eq(stores.status, 'connected')),
      )
      .orderBy(asc(stores.id))
      .limit(1);
    if (!first) throw badRequest(SHOPIFY_BILLING_TEXTS.noStore);
    return first;
  }

  private client(store: StoreRow): ShopifyClient {
    return new ShopifyClient(
      this.deps.config,
      store.domain,
      this.core.connection(store).credentials.accessToken!,
    );
  }

  /** A Shopify call made for a request: a refusal is the caller's 400 with Shopify's reason; anything else a 503. */
  private async atShopify<T>(verb: Verb, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof ShopifyError && error.status > 0 && error.status !== 429 && error.status < 500)
        throw badRequest(`${FAILED[verb]}: ${error.message}`);
      this.deps.log.warn({ err: error }, `shopify billing: ${verb} failed`);
      throw new AppError('unavailable', STORE_TEXTS.storeUnreachable);
    }
  }
}

function isNewer(
  row: { status: SubscriptionStatus; lastEventAt: Date | null },
  at: Date,
  next: SubscriptionStatus,
) {
  if (!row.lastEventAt || at > row.lastEventAt) return true;
  if (at < row.lastEventAt) return false;
  return RANK[next] >= RANK[row.status];
}

const minDate = (a: Date | null, b: Date) => (a && a < b ? a : b);
