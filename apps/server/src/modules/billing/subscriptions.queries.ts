import type { Subscription, SubscriptionAddon, SubscriptionStatus } from '@parley/contracts';
import { and, desc, eq, gt, inArray, isNull, lte, ne, not, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { addons, plans, subscriptionAddons, subscriptions } from './billing.schema.js';
import { toAddon, toPlan } from './plans.js';

type SubscriptionRow = typeof subscriptions.$inferSelect;
type AddonLinkRow = typeof subscriptionAddons.$inferSelect;

/** States in which a subscription (or add-on) gives what it was bought for. */
export const GRANTING: SubscriptionStatus[] = ['active', 'authenticated', 'pending'];
const iso = (date: Date | null) => date?.toISOString() ?? null;

type GrantFields = Pick<SubscriptionRow, 'status' | 'startDate' | 'endDate' | 'complimentary'>;

/**
 * Whether a subscription grants its plan at `now`: in a granting state, started, and for a
 * complimentary one not past its end. A plan bought to start when the one in force ends (Razorpay's
 * start_at) is authenticated at checkout and grants nothing before its start date; from then on it
 * grants even before Razorpay's subscription.activated arrives, so it takes over exactly when the
 * old period ends, whatever order the webhooks come in.
 */
export function grantsAt(row: GrantFields, now: Date): boolean {
  if (!GRANTING.includes(row.status)) return false;
  if (row.status === 'authenticated' && row.startDate && row.startDate > now) return false;
  return !row.complimentary || !row.endDate || row.endDate > now;
}

/** The SQL twin of `grantsAt`, for the query that picks the subscription in force. */
export function grantingAt(now: Date): SQL {
  return and(
    inArray(subscriptions.status, GRANTING),
    or(
      ne(subscriptions.status, 'authenticated'),
      isNull(subscriptions.startDate),
      lte(subscriptions.startDate, now),
    ),
    or(not(subscriptions.complimentary), isNull(subscriptions.endDate), gt(subscriptions.endDate, now)),
  ) as SQL;
}

/** Bought to start later (checkout pending or done) and not started yet: it waits for its start date. */
export function isScheduled(row: Pick<SubscriptionRow, 'status' | 'startDate'>, now: Date): boolean {
  return (
    (row.status === 'created' || row.status === 'authenticated') && !!row.startDate && row.startDate > now
  );
}

/** The tenant's subscriptions in these states (all when none given), newest first, with plan and add-ons. */
export async function listSubscriptions(
  db: DbOrTx,
  tenantId: number,
  statuses?: SubscriptionStatus[],
  now: Date = new Date(),
): Promise<Subscription[]> {
  const filters = [eq(subscriptions.tenantId, tenantId)];
  if (statuses) filters.push(inArray(subscriptions.status, statuses));
  const rows = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(...filters))
    .orderBy(desc(subscriptions.id));
  if (rows.length === 0) return [];
  const links = await db
    .select({ link: subscriptionAddons, addon: addons })
    .from(subscriptionAddons)
    .innerJoin(addons, eq(addons.id, subscriptionAddons.addonId))
    .where(eq(subscriptionAddons.tenantId, tenantId))
    .orderBy(desc(subscriptionAddons.id));
  return rows.map(({ subscription, plan }) => ({
    ...subscriptionFields(subscription, now),
    plan: toPlan(plan),
    subscription_addons: links
      .filter(({ link }) => link.subscriptionId === subscription.id)
      .map(({ link, addon }) => ({ ...addonLinkFields(link), addon: toAddon(addon) })),
  }));
}

/** The tenant's add-on subscriptions in every state, newest first, whether or not a plan subscription holds them. */
export async function listAddonLinks(db: DbOrTx, tenantId: number): Promise<SubscriptionAddon[]> {
  const links = await db
    .select({ link: subscriptionAddons, addon: addons })
    .from(subscriptionAddons)
    .innerJoin(addons, eq(addons.id, subscriptionAddons.addonId))
    .where(eq(subscriptionAddons.tenantId, tenantId))
    .orderBy(desc(subscriptionAddons.id));
  return links.map(({ link, addon }) => ({ ...addonLinkFields(link), addon: toAddon(addon) }));
}

export function subscriptionFields(
  row: SubscriptionRow,
  now: Date = new Date(),
): Omit<Subscription, 'plan' | 'subscription_addons'> {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    plan_id: row.planId,
    billing_cycle: row.billingCycle,
    start_date: iso(row.startDate),
    end_date: iso(row.endDate),
    is_active: grantsAt(row, now),
    scheduled: isScheduled(row, now),
    auto_renew: row.autoRenew,
    status: row.status,
    razorpay_subscription_id: row.razorpaySubscriptionId,
    shopify_subscription_id: row.shopifySubscriptionId,
    complimentary: row.complimentary,
    custom_limits: row.customLimits ?? null,
  };
}

export function addonLinkFields(row: AddonLinkRow) {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    addon_id: row.addonId,
    quantity: row.quantity,
    start_date: iso(row.startDate),
    end_date: iso(row.endDate),
    is_active: GRANTING.includes(row.status),
    status: row.status,
    auto_renew: row.autoRenew,
    razorpay_subscription_id: row.razorpaySubscriptionId,
  };
}
