import type {
  BillingCycle,
  Invoice,
  Subscription,
  SubscriptionAddon,
  SubscriptionStatus,
} from '@parley/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../core/db/database.js';
import { tenants } from '../../../core/db/schema.js';
import { addons, invoices, plans, subscriptionAddons, subscriptions } from '../billing.schema.js';
import type { AddonRow, PlanRow } from '../plans.js';
import { toAddon, toPlan } from '../plans.js';
import { addonLinkFields, GRANTING, grantingAt, subscriptionFields } from '../subscriptions.queries.js';

export type { AddonRow, PlanRow };

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type AddonLinkRow = typeof subscriptionAddons.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

export { GRANTING };

/** States Razorpay never leaves. */
export const FINAL: ReadonlySet<SubscriptionStatus> = new Set(['cancelled', 'completed', 'expired']);

export async function subscriptionView(
  db: DbOrTx,
  row: SubscriptionRow,
  now: Date = new Date(),
): Promise<Subscription> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, row.planId));
  const links = await db
    .select({ link: subscriptionAddons, addon: addons })
    .from(subscriptionAddons)
    .innerJoin(addons, eq(addons.id, subscriptionAddons.addonId))
    .where(and(eq(subscriptionAddons.tenantId, row.tenantId), eq(subscriptionAddons.subscriptionId, row.id)))
    .orderBy(desc(subscriptionAddons.id));
  return {
    ...subscriptionFields(row, now),
    plan: toPlan(plan!),
    subscription_addons: links.map(({ link, addon }) => ({
      ...addonLinkFields(link),
      addon: toAddon(addon),
    })),
  };
}

export async function addonLinkView(db: DbOrTx, row: AddonLinkRow): Promise<SubscriptionAddon> {
  const [addon] = await db.select().from(addons).where(eq(addons.id, row.addonId));
  return { ...addonLinkFields(row), addon: toAddon(addon!) };
}

export async function ownSubscription(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.tenantId, tenantId)));
  return row;
}

export async function ownAddonLink(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(subscriptionAddons)
    .where(and(eq(subscriptionAddons.id, id), eq(subscriptionAddons.tenantId, tenantId)));
  return row;
}

/** The subscription that applies now (newest first, as the entitlements read it): add-ons bought now attach to it. */
export async function currentSubscription(db: DbOrTx, tenantId: number, now: Date) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, tenantId), grantingAt(now)))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  return row;
}

/** A plan paid at checkout to start later, when the one in force ends, with its plan's name. */
export async function scheduledSubscription(db: DbOrTx, tenantId: number, now: Date) {
  const [found] = await db
    .select({ row: subscriptions, planName: plans.name })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        eq(subscriptions.status, 'authenticated'),
        gt(subscriptions.startDate, now),
      ),
    )
    .orderBy(asc(subscriptions.startDate))
    .limit(1);
  return found;
}

/**
 * Add-ons are subscriptions of their own, billed monthly whatever the plan, so they go on when the
 * plan changes: the ones still live move to the plan now starting, from the plan it replaces (one
 * that ended or will not renew) or from none (bought on the free plan). Their price and renewal date
 * stay as they are.
 */
export async function carryAddons(db: DbOrTx, tenantId: number, subscriptionId: number): Promise<void> {
  const replaced = db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        ne(subscriptions.id, subscriptionId),
        or(eq(subscriptions.autoRenew, false), inArray(subscriptions.status, [...FINAL])),
      ),
    );
  await db
    .update(subscriptionAddons)
    .set({ subscriptionId })
    .where(
      and(
        eq(subscriptionAddons.tenantId, tenantId),
        notInArray(subscriptionAddons.status, [...FINAL]),
        or(isNull(subscriptionAddons.subscriptionId), inArray(subscriptionAddons.subscriptionId, replaced)),
      ),
    );
}

/** The Razorpay customer this tenant already has, kept on its subscriptions. */
export async function knownCustomer(db: DbOrTx, tenantId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ id: subscriptions.razorpayCustomerId })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, tenantId), sql`${subscriptions.razorpayCustomerId} IS NOT NULL`))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  return row?.id ?? undefined;
}

/** Which of our plans (and cycle) a Razorpay plan id stands for. */
export async function planByProviderId(
  db: DbOrTx,
  providerPlanId: string,
): Promise<{ plan: PlanRow; cycle: BillingCycle } | undefined> {
  const [plan] = await db
    .select()
    .from(plans)
    .where(
      sql`${plans.providerPlanIds}->>'monthly' = ${providerPlanId} OR ${plans.providerPlanIds}->>'yearly' = ${providerPlanId}`,
    )
    .limit(1);
  if (!plan) return undefined;
  return { plan, cycle: plan.providerPlanIds.monthly === providerPlanId ? 'monthly' : 'yearly' };
}

export { ownerEmails } from '../../roles/roles.queries.js';

export async function tenantName(db: DbOrTx, tenantId: number): Promise<string> {
  const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name ?? '';
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function invoiceView(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    charged_at: row.chargedAt.toISOString(),
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    lines: row.lines,
    amount: row.amount,
    tax: row.tax,
    currency: row.currency,
    status: row.status,
    amount_refunded: row.amountRefunded,
    // A failed payment has no invoice; a refunded charge keeps its own, with the refund on it.
    pdf_url: row.status === 'failed' ? null : `/api/payment/invoices/${row.id}/pdf`,
  };
}

export const tenantInvoices = (db: DbOrTx, tenantId: number) =>
  db
    .select()
    .from(invoices)
    .where(eq(invoices.tenantId, tenantId))
    .orderBy(desc(invoices.chargedAt), desc(invoices.id));
