import {
  type AddonCheckoutResponse,
  BILLING_TEXTS,
  type BillingCycle,
  type Checkout,
  type CheckoutResponse,
  type InvoiceHistory,
  PAYMENT_TEXTS,
  type Subscription,
  type SubscriptionAddon,
  type SubscriptionStatus,
} from '@parley/contracts';
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { badRequest, conflict, notFound } from '../../../core/errors.js';
import type { AuthContext } from '../../../core/http/request-context.js';
import { sameTenant } from '../../../core/http/tenant.js';
import type { ModuleDeps } from '../../../core/module.js';
import { addons, invoices, plans, subscriptionAddons, subscriptions } from '../billing.schema.js';
import { grantsAt } from '../subscriptions.queries.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import {
  type AddonRow,
  addonLinkView,
  currentSubscription,
  FINAL,
  GRANTING,
  invoiceView,
  knownCustomer,
  ownAddonLink,
  ownSubscription,
  type PlanRow,
  scheduledSubscription,
  subscriptionView,
  tenantInvoices,
  tenantName,
} from './payments.queries.js';
import { RazorpayClient, type RazorpaySubscription, razorpayKeys } from './razorpay.client.js';

/**
 * Razorpay needs a number of cycles; ten years of them stands for "until cancelled" (Razorpay
 * sends subscription.completed after the last one).
 */
const TOTAL_COUNT: Record<BillingCycle, number> = { monthly: 120, yearly: 10 };

/** A period ending sooner than this is not waited for: Razorpay's start_at must be in the future. */
const START_MARGIN_MS = 60_000;

/** "12 January 2026" (UTC), as the pages say a date. */
const dayOf = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Plan subscriptions that grant nothing yet could still be paid at Razorpay. */
const UNPAID: SubscriptionStatus[] = ['created', 'halted'];

/** Buying, changing and cancelling plans and add-ons through Razorpay; the invoice history. */
export class PaymentsService {
  private client: RazorpayClient | undefined;

  constructor(readonly deps: ModuleDeps) {}

  /** Made on first use: a server without keys answers 400 on payment calls only. */
  razorpay(): RazorpayClient {
    const keys = razorpayKeys(this.deps.config);
    this.client ??= new RazorpayClient(this.deps.config, keys);
    return this.client;
  }

  async createSubscription(
    auth: AuthContext,
    body: { plan_id: number; billing_cycle: BillingCycle },
  ): Promise<CheckoutResponse> {
    const razorpay = this.razorpay();
    const plan = await this.paidPlan(body.plan_id, body.billing_cycle);
    const now = this.deps.clock.now();
    const startAt = await this.startOfNewPlan(auth.tenantId, now);
    await this.supersedeUnpaid(auth.tenantId);
    const providerPlanId = await this.providerPlan(plan, body.billing_cycle);
    const customerId = await this.customer(auth);
    const [row] = await this.deps.db
      .insert(subscriptions)
      .values({
        tenantId: auth.tenantId,
        planId: plan.id,
        billingCycle: body.billing_cycle,
        razorpayCustomerId: customerId,
        startDate: startAt,
      })
      .returning();
    const made = await this.atRazorpay(row!.id, 'subscription', () =>
      razorpay.createSubscription({
        planId: providerPlanId,
        customerId,
        totalCount: TOTAL_COUNT[body.billing_cycle],
        quantity: 1,
        notes: { tenant_id: String(auth.tenantId), parley_ref: `subscription:${row!.id}` },
        startAt,
      }),
    );
    const [saved] = await this.deps.db
      .update(subscriptions)
      .set({ razorpaySubscriptionId: made.id })
      .where(eq(subscriptions.id, row!.id))
      .returning();
    const description = startAt
      ? `${plan.name} (${body.billing_cycle}), from ${dayOf(startAt)}`
      : `${plan.name} (${body.billing_cycle})`;
    return {
      subscription: await subscriptionView(this.deps.db, saved!, now),
      checkout: this.checkout(auth, made, description),
    };
  }

  /**
   * When a new plan starts. A renewing plan is changed in place (409 here). A plan that still grants
   * until a date (cancelled at the end of its period, or an admin's grant with an end) keeps
   * granting until then, and the new one starts at that date (Razorpay's start_at): checkout only
   * authorises the card, the first charge comes on that day, so no day is paid twice. One change
   * waits at a time: another plan is chosen after undoing it.
   */
  private async startOfNewPlan(tenantId: number, now: Date): Promise<Date | null> {
    const current = await currentSubscription(this.deps.db, tenantId, now);
    if (current?.autoRenew) throw conflict(PAYMENT_TEXTS.alreadySubscribed);
    const waiting = await scheduledSubscription(this.deps.db, tenantId, now);
    if (waiting)
      throw conflict(PAYMENT_TEXTS.changeScheduled(waiting.planName, dayOf(waiting.row.startDate!)));
    const end = current?.endDate;
    // Razorpay wants start_at in the future; a period ending within the minute starts the new one now.
    return end && end.getTime() - now.getTime() > START_MARGIN_MS ? end : null;
  }

  /**
   * A new checkout replaces the workspace's unpaid plan subscriptions: one whose checkout was left
   * (Razorpay mails its payment link, customer_notify) or one halted after failed renewals (paying
   * its dues revives it). Either, paid later, would charge a second plan every period beside the
   * new one, so each is cancelled at Razorpay first. Razorpay's state decides: one it has already
   * seen paid (its webhook still on the way) is the workspace's subscription, and the new one is refused.
   */
  private async supersedeUnpaid(tenantId: number): Promise<void> {
    const unpaid = await this.deps.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.tenantId, tenantId),
          inArray(subscriptions.status, UNPAID),
          isNotNull(subscriptions.razorpaySubscriptionId),
        ),
      );
    for (const row of unpaid) {
      const live = await this.razorpay().fetchSubscription(row.razorpaySubscriptionId!);
      if (GRANTING.includes(live.status)) throw conflict(PAYMENT_TEXTS.alreadySubscribed);
      const ended = FINAL.has(live.status)
        ? live
        : await this.razorpay().cancelSubscription(row.razorpaySubscriptionId!, false);
      await this.deps.db
        .update(subscriptions)
        .set({ status: ended.status, autoRenew: false, endDate: endOf(ended) ?? row.endDate })
        .where(and(eq(subscriptions.id, row.id), inArray(subscriptions.status, UNPAID)));
    }
  }

  async addAddon(
    auth: AuthContext,
    body: { addon_id: number; quantity: number },
  ): Promise<AddonCheckoutResponse> {
    const razorpay = this.razorpay();
    const addon = await this.activeAddon(body.addon_id);
    const providerPlanId = await this.addonProviderPlan(addon);
    const customerId = await this.customer(auth);
    const parent = await currentSubscription(this.deps.db, auth.tenantId, this.deps.clock.now());
    const [row] = await this.deps.db
      .insert(subscriptionAddons)
      .values({
        tenantId: auth.tenantId,
        subscriptionId: parent?.id ?? null,
        addonId: addon.id,
        quantity: body.quantity,
      })
      .returning();
    const made = await this.atRazorpay(row!.id, 'addon', () =>
      razorpay.createSubscription({
        planId: providerPlanId,
        customerId,
        totalCount: TOTAL_COUNT.monthly,
        quantity: body.quantity,
        notes: { tenant_id: String(auth.tenantId), parley_ref: `addon:${row!.id}` },
      }),
    );
    const [saved] = await this.deps.db
      .update(subscriptionAddons)
      .set({ razorpaySubscriptionId: made.id })
      .where(eq(subscriptionAddons.id, row!.id))
      .returning();
    const description = `${addon.name} × ${body.quantity}`;
    return {
      subscription_addon: await addonLinkView(this.deps.db, saved!),
      checkout: this.checkout(auth, made, description),
    };
  }

  /**
   * The answer's status and auto_renew (spec section 4). At the end of the period Razorpay keeps
   * the subscription active until then, so the plan applies to the day paid for; its
   * subscription.cancelled webhook ends it. A subscription never paid is cancelled at once.
   */
  async cancelSubscription(auth: AuthContext, id: number, atPeriodEnd: boolean): Promise<Subscription> {
    const razorpay = this.razorpay();
    const row = await ownSubscription(this.deps.db, auth.tenantId, id);
    if (!row?.razorpaySubscriptionId) throw notFound(PAYMENT_TEXTS.subscriptionNotFound);
    if (FINAL.has(row.status)) throw badRequest(PAYMENT_TEXTS.alreadyCancelled);
    const now = this.deps.clock.now();
    // One that grants nothing yet (never paid, or scheduled to start later) ends now: undoing a
    // scheduled change costs nothing, Razorpay has only authorised the card.
    const atEnd = atPeriodEnd && grantsAt(row, now);
    const answer = await razorpay.cancelSubscription(row.razorpaySubscriptionId, atEnd);
    const [saved] = await this.deps.db
      .update(subscriptions)
      .set({ status: answer.status, autoRenew: false, endDate: endOf(answer) ?? row.endDate })
      .where(
        and(
          eq(subscriptions.id, row.id),
          sql`${subscriptions.status} NOT IN ('cancelled', 'completed', 'expired')`,
        ),
      )
      .returning();
    // No row updated: Razorpay's cancellation webhook landed first and ended it; answer with that.
    return subscriptionView(
      this.deps.db,
      saved ?? (await ownSubscription(this.deps.db, auth.tenantId, id)) ?? row,
      now,
    );
  }

  async cancelAddon(auth: AuthContext, id: number, atPeriodEnd: boolean): Promise<SubscriptionAddon> {
    const razorpay = this.razorpay();
    const row = await ownAddonLink(this.deps.db, auth.tenantId, id);
    if (!row?.razorpaySubscriptionId) throw notFound(PAYMENT_TEXTS.subscriptionNotFound);
    if (FINAL.has(row.status)) throw badRequest(PAYMENT_TEXTS.alreadyCancelled);
    const atEnd = atPeriodEnd && GRANTING.includes(row.status);
    const answer = await razorpay.cancelSubscription(row.razorpaySubscriptionId, atEnd);
    const [saved] = await this.deps.db
      .update(subscriptionAddons)
      .set({ status: answer.status, autoRenew: false, endDate: endOf(answer) ?? row.endDate })
      .where(
        and(
          eq(subscriptionAddons.id, row.id),
          sql`${subscriptionAddons.status} NOT IN ('cancelled', 'completed', 'expired')`,
        ),
      )
      .returning();
    // As for a subscription: the webhook may have ended it first.
    return addonLinkView(this.deps.db, saved ?? (await ownAddonLink(this.deps.db, auth.tenantId, id)) ?? row);
  }

  /**
   * Razorpay changes the plan at once (schedule_change_at 'now') and prorates the difference
   * itself. When its answer shows the subscription active on the new plan, the change has
   * happened at Razorpay, so our row follows at once and the console shows the new plan without
   * waiting; otherwise the subscription.updated webhook brings it.
   */
  async upgrade(
    auth: AuthContext,
    body: { subscription_id: number; plan_id: number; billing_cycle?: BillingCycle },
  ): Promise<Subscription> {
    const razorpay = this.razorpay();
    const row = await ownSubscription(this.deps.db, auth.tenantId, body.subscription_id);
    if (!row?.razorpaySubscriptionId) throw notFound(PAYMENT_TEXTS.subscriptionNotFound);
    if (row.status !== 'active') throw badRequest(PAYMENT_TEXTS.notUpgradable);
    const cycle = body.billing_cycle ?? row.billingCycle;
    if (body.plan_id === row.planId && cycle === row.billingCycle) throw badRequest(PAYMENT_TEXTS.samePlan);
    const plan = await this.paidPlan(body.plan_id, cycle);
    const providerPlanId = await this.providerPlan(plan, cycle);
    const answer = await razorpay.changePlan(row.razorpaySubscriptionId, providerPlanId);
    if (answer.status !== 'active' || answer.plan_id !== providerPlanId)
      return subscriptionView(this.deps.db, row);
    const [saved] = await this.deps.db
      .update(subscriptions)
      .set({ planId: plan.id, billingCycle: cycle })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, 'active')))
      .returning();
    return subscriptionView(this.deps.db, saved ?? row);
  }

  async invoiceHistory(auth: AuthContext, tenantId: number): Promise<InvoiceHistory> {
    sameTenant(auth, tenantId);
    const rows = await tenantInvoices(this.deps.db, tenantId);
    return { invoices: rows.map(invoiceView) };
  }

  async invoicePdf(auth: AuthContext, id: number): Promise<{ fileName: string; pdf: Buffer }> {
    const [row] = await this.deps.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.tenantId, auth.tenantId), ne(invoices.status, 'failed')));
    if (!row) throw notFound(PAYMENT_TEXTS.invoiceNotFound);
    const pdf = await renderInvoicePdf({
      number: row.number,
      chargedAt: row.chargedAt,
      periodStart: row.periodStart,
      periodEnd: row.periodEnd,
      company: await tenantName(this.deps.db, row.tenantId),
      lines: row.lines,
      amount: row.amount,
      tax: row.tax,
      refunded: row.amountRefunded,
      currency: row.currency,
      paymentId: row.providerPaymentId,
    });
    return { fileName: `${row.number}.pdf`, pdf };
  }

  private async paidPlan(id: number, cycle: BillingCycle): Promise<PlanRow> {
    const [plan] = await this.deps.db.select().from(plans).where(eq(plans.id, id));
    if (!plan) throw notFound(BILLING_TEXTS.planNotFound);
    if (!plan.isActive) throw badRequest(PAYMENT_TEXTS.planInactive);
    const price = cycle === 'monthly' ? plan.priceMonthly : plan.priceYearly;
    if (plan.isDefault || price <= 0) throw badRequest(PAYMENT_TEXTS.freePlan);
    return plan;
  }

  private async activeAddon(id: number): Promise<AddonRow> {
    const [addon] = await this.deps.db.select().from(addons).where(eq(addons.id, id));
    if (!addon) throw notFound(BILLING_TEXTS.addonNotFound);
    if (!addon.isActive || addon.priceMonthly <= 0) throw badRequest(PAYMENT_TEXTS.addonInactive);
    return addon;
  }

  /**
   * The Razorpay plan for (plan, cycle), made once. Two first buyers at the same moment may both
   * make one; the conditional update keeps the first stored, and both use it.
   */
  private async providerPlan(plan: PlanRow, cycle: BillingCycle): Promise<string> {
    const known = plan.providerPlanIds[cycle];
    if (known) return known;
    const made = await this.razorpay().createPlan({
      period: cycle,
      name: `${plan.name} (${cycle})`,
      amount: cycle === 'monthly' ? plan.priceMonthly : plan.priceYearly,
      currency: plan.currency,
    });
    await this.deps.db
      .update(plans)
      .set({
        providerPlanIds: sql`${plans.providerPlanIds} || ${JSON.stringify({ [cycle]: made.id })}::jsonb`,
      })
      .where(and(eq(plans.id, plan.id), sql`NOT (${plans.providerPlanIds} ? ${cycle})`));
    const [stored] = await this.deps.db.select().from(plans).where(eq(plans.id, plan.id));
    return stored?.providerPlanIds[cycle] ?? made.id;
  }

  private async addonProviderPlan(addon: AddonRow): Promise<string> {
    if (addon.providerPlanId) return addon.providerPlanId;
    const made = await this.razorpay().createPlan({
      period: 'monthly',
      name: addon.name,
      amount: addon.priceMonthly,
      currency: addon.currency,
    });
    await this.deps.db
      .update(addons)
      .set({ providerPlanId: made.id })
      .where(and(eq(addons.id, addon.id), isNull(addons.providerPlanId)));
    const [stored] = await this.deps.db.select().from(addons).where(eq(addons.id, addon.id));
    return stored?.providerPlanId ?? made.id;
  }

  /** The tenant's Razorpay customer: the one on its subscriptions, else a new one (the company, the buyer's email). */
  private async customer(auth: AuthContext): Promise<string> {
    const known = await knownCustomer(this.deps.db, auth.tenantId);
    if (known) return known;
    const made = await this.razorpay().createCustomer({
      name: auth.user.tenant_name || `${auth.user.first_name} ${auth.user.last_name}`,
      email: auth.user.email,
      tenantId: auth.tenantId,
    });
    return made.id;
  }

  /**
   * Our row exists before Razorpay's subscription so the subscription's notes can name it (its
   * payments carry the notes, which is how a failed payment finds its subscription). When Razorpay
   * refuses, the row goes again.
   */
  private async atRazorpay<T>(
    rowId: number,
    kind: 'subscription' | 'addon',
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const table = kind === 'subscription' ? subscriptions : subscriptionAddons;
      await this.deps.db.delete(table).where(eq(table.id, rowId));
      throw error;
    }
  }

  private checkout(auth: AuthContext, made: RazorpaySubscription, description: string): Checkout {
    const url = this.deps.config.RAZORPAY_CHECKOUT_URL;
    return {
      key_id: razorpayKeys(this.deps.config).keyId,
      subscription_id: made.id,
      name: 'Parley',
      description,
      prefill: { email: auth.user.email, name: `${auth.user.first_name} ${auth.user.last_name}`.trim() },
      checkout_url: url.replaceAll('{subscription_id}', encodeURIComponent(made.id)),
    };
  }
}

/** Where the paid period ends by Razorpay's answer: when it ended (cancelled now) or the cycle's end. */
export function endOf(entity: Pick<RazorpaySubscription, 'ended_at' | 'current_end'>): Date | undefined {
  const at = entity.ended_at ?? entity.current_end;
  return typeof at === 'number' ? new Date(at * 1000) : undefined;
}
