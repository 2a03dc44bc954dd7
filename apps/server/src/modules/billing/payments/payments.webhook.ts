import { createHmac } from 'node:crypto';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@parley/contracts';
import { and, eq, like, lte, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { safeEqual } from '../../../core/crypto.js';
import type { Tx } from '../../../core/db/database.js';
import type { ModuleDeps } from '../../../core/module.js';
import { recordCommission, reverseCommission } from '../../affiliates/commissions.service.js';
import { notify } from '../../notifications/notifications.service.js';
import {
  addons,
  billingEvents,
  billingRefunds,
  invoices,
  plans,
  subscriptionAddons,
  subscriptions,
} from '../billing.schema.js';
import { formatMinor } from './money.js';
import {
  type AddonLinkRow,
  carryAddons,
  FINAL,
  GRANTING,
  ownerEmails,
  planByProviderId,
  type SubscriptionRow,
} from './payments.queries.js';
import type { PaymentsService } from './payments.service.js';

/** X-Razorpay-Signature: hex HMAC-SHA256 of the raw body with the webhook secret, compared in constant time. */
export function verifySignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  return safeEqual(header.toLowerCase(), createHmac('sha256', secret).update(raw).digest('hex'));
}

const Stamp = z.number().int().nullish();
const SubscriptionEntity = z.looseObject({
  id: z.string().min(1),
  status: z.enum(SUBSCRIPTION_STATUSES),
  plan_id: z.string().optional(),
  quantity: z.number().int().positive().optional(),
  start_at: Stamp,
  current_start: Stamp,
  current_end: Stamp,
  ended_at: Stamp,
});
const PaymentEntity = z.looseObject({
  id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  status: z.string(),
  // A subscription's payments carry its notes; Razorpay writes empty notes as [].
  notes: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  error_description: z.string().nullish(),
  created_at: z.number().int().optional(),
});
const RefundEntity = z.looseObject({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  created_at: z.number().int().optional(),
});
/** A refund of a charge: Razorpay sends both for one refund; applying either twice changes nothing. */
const REFUND_EVENTS = new Set(['refund.processed', 'payment.refunded']);
export const RazorpayEvent = z.looseObject({
  event: z.string().min(1),
  created_at: z.number().int(),
  payload: z.looseObject({
    subscription: z.object({ entity: SubscriptionEntity }).optional(),
    payment: z.object({ entity: PaymentEntity }).optional(),
    refund: z.object({ entity: RefundEntity }).optional(),
  }),
});
export type RazorpayEvent = z.infer<typeof RazorpayEvent>;
type Entity = z.infer<typeof SubscriptionEntity>;
type Payment = z.infer<typeof PaymentEntity>;

type Target =
  | { kind: 'subscription'; row: SubscriptionRow; tenantId: number }
  | { kind: 'addon'; row: AddonLinkRow; tenantId: number };

/** Within one second Razorpay's events keep their life order (authenticated, then activated...). */
const RANK: Record<SubscriptionStatus, number> = {
  created: 0,
  authenticated: 1,
  active: 2,
  pending: 3,
  halted: 4,
  cancelled: 5,
  completed: 5,
  expired: 5,
};
const toDate = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;
const day = (date: Date | null) => date?.toISOString().slice(0, 10) ?? '';
/** One invoice numberer at a time (the unique index on the number guards as well). */
const NUMBER_LOCK = sql`SELECT pg_advisory_xact_lock(${0x0b11}, 2)`;

/**
 * Razorpay's webhook, applied in the request: the event id is recorded in the same transaction as
 * its effect, so a redelivery changes nothing and a failure (answered 500) leaves nothing behind for
 * Razorpay's retry to trip over. The effect is a few row writes; mails go through the outbox job.
 */
export class RazorpayWebhook {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly payments: PaymentsService,
  ) {}

  async receive(eventId: string, event: RazorpayEvent): Promise<void> {
    if (await this.seen(eventId)) return;
    // The customer's tax is on Razorpay's invoice, read before the transaction (no HTTP inside it).
    const tax = event.event === 'subscription.charged' ? await this.taxOf(event) : 0;
    await this.deps.db.transaction(async (tx) => {
      const fresh = await tx
        .insert(billingEvents)
        .values({ provider: 'razorpay', eventId })
        .onConflictDoNothing()
        .returning({ eventId: billingEvents.eventId });
      if (fresh.length === 0) return;
      if (REFUND_EVENTS.has(event.event)) return refunded(tx, event);
      const target = await findTarget(tx, event);
      // Not ours (another product on the same Razorpay account): recorded, nothing to do.
      if (!target) return;
      if (event.event === 'payment.failed') return this.paymentFailed(tx, target, event);
      if (event.event.startsWith('subscription.')) return this.subscriptionEvent(tx, target, event, tax);
    });
  }

  private async seen(eventId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: billingEvents.eventId })
      .from(billingEvents)
      .where(and(eq(billingEvents.provider, 'razorpay'), eq(billingEvents.eventId, eventId)));
    return Boolean(row);
  }

  private async taxOf(event: RazorpayEvent): Promise<number> {
    const subscription = event.payload.subscription?.entity;
    const payment = event.payload.payment?.entity;
    if (!subscription || !payment) return 0;
    const invoice = await this.payments.razorpay().invoiceOfPayment(subscription.id, payment.id);
    const tax = invoice?.tax_amount;
    return typeof tax === 'number' && Number.isSafeInteger(tax) && tax >= 0 && tax <= payment.amount
      ? tax
      : 0;
  }

  private async subscriptionEvent(tx: Tx, target: Target, event: RazorpayEvent, tax: number): Promise<void> {
    const entity = event.payload.subscription?.entity;
    if (!entity) return;
    const at = new Date(event.created_at * 1000);
    const before = target.row.status;
    const applied = isNewer(target.row, at, entity.status);
    if (applied) await this.updateState(tx, target, entity, at);
    const payment = event.payload.payment?.entity;
    // A charge happened whatever order its event arrived in: it is always invoiced.
    if (event.event === 'subscription.charged' && payment)
      await this.recordCharge(tx, target, entity, payment, tax);
    if (applied && entity.status !== before && (entity.status === 'pending' || entity.status === 'halted'))
      await this.mailFailure(tx, target, entity.status, at);
  }

  private async updateState(tx: Tx, target: Target, entity: Entity, at: Date): Promise<void> {
    const row = target.row;
    const values = {
      status: entity.status,
      startDate: row.startDate ?? toDate(entity.start_at ?? entity.current_start),
      endDate: toDate(entity.ended_at ?? entity.current_end) ?? row.endDate,
      autoRenew: FINAL.has(entity.status) ? false : row.autoRenew,
      lastEventAt: at,
    };
    if (target.kind === 'addon') {
      await tx.update(subscriptionAddons).set(values).where(eq(subscriptionAddons.id, row.id));
      return;
    }
    // The plan Razorpay bills is the plan that applies (an upgrade confirmed by subscription.updated).
    const billed = entity.plan_id ? await planByProviderId(tx, entity.plan_id) : undefined;
    const plan = billed ? { planId: billed.plan.id, billingCycle: billed.cycle } : {};
    await tx
      .update(subscriptions)
      .set({ ...values, ...plan })
      .where(eq(subscriptions.id, row.id));
    // A plan starting (at checkout, or when the one it follows ends) takes the workspace's add-ons over.
    if (entity.status === 'active' && (row.status === 'created' || row.status === 'authenticated'))
      await carryAddons(tx, row.tenantId, row.id);
  }

  private async recordCharge(
    tx: Tx,
    target: Target,
    entity: Entity,
    payment: Payment,
    tax: number,
  ): Promise<void> {
    await lockPayment(tx, payment.id);
    const [known] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.providerPaymentId, payment.id));
    if (known) return;
    await tx.execute(NUMBER_LOCK);
    const chargedAt = toDate(payment.created_at) ?? new Date();
    const periodStart = toDate(entity.current_start);
    const renewal = periodStart ? await this.isRenewal(tx, target, periodStart) : false;
    const number = await nextNumber(tx, chargedAt.getUTCFullYear());
    await tx.insert(invoices).values({
      ...link(target),
      tenantId: target.tenantId,
      number,
      providerPaymentId: payment.id,
      amount: payment.amount,
      tax,
      currency: payment.currency,
      status: 'paid',
      lines: await linesOf(tx, target, entity, payment.amount - tax),
      periodStart,
      periodEnd: toDate(entity.current_end),
      chargedAt,
    });
    await recordCommission(tx, this.deps.config, {
      tenantId: target.tenantId,
      paymentId: payment.id,
      amount: payment.amount,
      tax,
      currency: payment.currency,
      chargedAt,
    });
    // A refund of this payment that arrived before its charge is applied now.
    await applyRefunds(tx, payment.id);
    if (renewal) await this.mailRenewal(tx, target, payment, number, toDate(entity.current_end));
  }

  /**
   * A renewal is the first charge of a period after an earlier one; an upgrade's prorated charge
   * pays a period already invoiced, and the very first charge has nothing before it.
   */
  private async isRenewal(tx: Tx, target: Target, periodStart: Date): Promise<boolean> {
    const column = target.kind === 'subscription' ? invoices.subscriptionId : invoices.subscriptionAddonId;
    const paid = await tx
      .select({ start: invoices.periodStart })
      .from(invoices)
      .where(
        and(eq(column, target.row.id), ne(invoices.status, 'failed'), lte(invoices.periodStart, periodStart)),
      );
    const same = paid.some((row) => row.start?.getTime() === periodStart.getTime());
    return paid.length > 0 && !same;
  }

  /**
   * Every failed charge is listed (under Razorpay's payment id: it has no invoice). The owners hear
   * of it here when the subscription never started (checkout); a failed renewal is told once, by
   * the subscription.pending that Razorpay sends with it.
   */
  private async paymentFailed(tx: Tx, target: Target, event: RazorpayEvent): Promise<void> {
    const payment = event.payload.payment?.entity;
    if (!payment) return;
    const inserted = await tx
      .insert(invoices)
      .values({
        ...link(target),
        tenantId: target.tenantId,
        number: payment.id,
        providerPaymentId: payment.id,
        amount: payment.amount,
        tax: 0,
        currency: payment.currency,
        status: 'failed',
        lines: await linesOf(tx, target, undefined, payment.amount),
        chargedAt: toDate(payment.created_at) ?? toDate(event.created_at) ?? new Date(),
      })
      .onConflictDoNothing()
      .returning({ id: invoices.id });
    if (inserted.length === 0 || GRANTING.includes(target.row.status)) return;
    const what = await describe(tx, target);
    const reason = payment.error_description ? `\n\nRazorpay said: ${payment.error_description}` : '';
    await notifyPaymentFailed(
      tx,
      target,
      `payment:${payment.id}`,
      `The payment for ${what} did not go through.`,
    );
    await this.mailOwners(tx, target.tenantId, 'Parley: your payment failed', [
      `Your payment of ${formatMinor(payment.amount, payment.currency)} for ${what} did not go through, so it has not started.${reason}`,
      'You can try again from Upgrade in Parley, with the same card or another one.',
    ]);
  }

  private async mailFailure(tx: Tx, target: Target, status: 'pending' | 'halted', at: Date): Promise<void> {
    const what = await describe(tx, target);
    const text =
      status === 'pending'
        ? [
            `We could not renew ${what}: your payment failed.`,
            'Razorpay will try again over the next days. To avoid an interruption, check the card on the subscription or pay from the link Razorpay sent you.',
          ]
        : [
            `Payment for ${what} failed again and Razorpay has stopped retrying: the subscription is halted.`,
            'Your workspace falls back to the free plan until it is paid. Subscribe again from Upgrade in Parley.',
          ];
    await notifyPaymentFailed(
      tx,
      target,
      `${target.kind}:${target.row.id}:${status}:${at.getTime()}`,
      text[0] ?? '',
    );
    await this.mailOwners(tx, target.tenantId, 'Parley: your payment failed', text);
  }

  private async mailRenewal(tx: Tx, target: Target, payment: Payment, number: string, until: Date | null) {
    const what = await describe(tx, target);
    await this.mailOwners(tx, target.tenantId, 'Parley: your subscription renewed', [
      `${what} has renewed${until ? ` until ${day(until)}` : ''}.`,
      `We charged ${formatMinor(payment.amount, payment.currency)}; invoice ${number} is in Subscriptions, under Invoice history.`,
    ]);
  }

  private async mailOwners(tx: Tx, tenantId: number, subject: string, paragraphs: string[]): Promise<void> {
    for (const to of await ownerEmails(tx, tenantId))
      await this.deps.mail.send({ to, tenantId, subject, text: paragraphs.join('\n\n') }, tx);
  }
}

/**
 * Apply an event only if it is newer than the last one applied. Cancelled, completed and expired
 * are final at Razorpay, so nothing older (or newer) undoes them; within one second the life order
 * decides, since Razorpay stamps authenticated, activated and charged alike.
 */
function isNewer(
  row: { status: SubscriptionStatus; lastEventAt: Date | null },
  at: Date,
  next: SubscriptionStatus,
) {
  if (FINAL.has(row.status)) return false;
  if (!row.lastEventAt || at > row.lastEventAt) return true;
  if (at < row.lastEventAt) return false;
  return RANK[next] >= RANK[row.status];
}

/** The row an event is about, locked for this transaction: by Razorpay's subscription id, or by a payment's notes. */
async function findTarget(tx: Tx, event: RazorpayEvent): Promise<Target | undefined> {
  const razorpayId = event.payload.subscription?.entity.id;
  if (razorpayId) return byRazorpayId(tx, razorpayId);
  const notes = event.payload.payment?.entity.notes;
  if (!notes || Array.isArray(notes)) return undefined;
  const ref = /^(subscription|addon):(\d{1,10})$/.exec(String(notes.parley_ref ?? ''));
  const tenantId = Number(notes.tenant_id);
  if (!ref || !Number.isSafeInteger(tenantId)) return undefined;
  return byOwnId(tx, ref[1] as 'subscription' | 'addon', Number(ref[2]), tenantId);
}

async function byRazorpayId(tx: Tx, id: string): Promise<Target | undefined> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.razorpaySubscriptionId, id))
    .for('update');
  if (row) return { kind: 'subscription', row, tenantId: row.tenantId };
  const [link] = await tx
    .select()
    .from(subscriptionAddons)
    .where(eq(subscriptionAddons.razorpaySubscriptionId, id))
    .for('update');
  return link ? { kind: 'addon', row: link, tenantId: link.tenantId } : undefined;
}

async function byOwnId(tx: Tx, kind: 'subscription' | 'addon', id: number, tenantId: number) {
  if (id > 2_147_483_647) return undefined;
  if (kind === 'subscription') {
    const [row] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.id, id), eq(subscriptions.tenantId, tenantId)))
      .for('update');
    return row ? ({ kind, row, tenantId } as const) : undefined;
  }
  const [row] = await tx
    .select()
    .from(subscriptionAddons)
    .where(and(eq(subscriptionAddons.id, id), eq(subscriptionAddons.tenantId, tenantId)))
    .for('update');
  return row ? ({ kind, row, tenantId } as const) : undefined;
}

const link = (target: Target) =>
  target.kind === 'subscription' ? { subscriptionId: target.row.id } : { subscriptionAddonId: target.row.id };

/**
 * A refund Razorpay reports: remembered by its refund id first, whether or not the charge it
 * refunds has been recorded (Razorpay does not order its webhooks; a charge retried after a failure
 * arrives late), then applied to the charge's invoice if there is one. Either event, or both, or a
 * redelivery, is one refund.
 */
async function refunded(tx: Tx, event: RazorpayEvent): Promise<void> {
  const refund = event.payload.refund?.entity;
  const payment = event.payload.payment?.entity;
  const paymentId = refund?.payment_id ?? payment?.id;
  if (!paymentId) return;
  await lockPayment(tx, paymentId);
  // amount_refunded is the payment's total so far; a refund entity alone says only its own amount.
  const paymentRefunded = Number(payment?.amount_refunded ?? 0);
  const values = {
    refundId: refund?.id ?? `${paymentId}:${paymentRefunded}`,
    paymentId,
    amount: refund?.amount ?? 0,
    paymentRefunded: Number.isSafeInteger(paymentRefunded) ? paymentRefunded : 0,
    refundedAt: toDate(refund?.created_at) ?? new Date(event.created_at * 1000),
  };
  await tx
    .insert(billingRefunds)
    .values(values)
    .onConflictDoUpdate({
      target: billingRefunds.refundId,
      set: { paymentRefunded: sql`greatest(${billingRefunds.paymentRefunded}, excluded.payment_refunded)` },
    });
  await applyRefunds(tx, paymentId);
}

/**
 * Brings a charge's invoice up to the refunds known for its payment: the amount given back, the
 * status (partially refunded, or refunded once all of it is back), and the affiliate commission's
 * share taken back. Called by the refund and by the charge, whichever comes second finds the other.
 */
async function applyRefunds(tx: Tx, paymentId: string): Promise<void> {
  const [known] = await tx
    .select({
      // Razorpay's running total when an event carried it, else the refunds seen added up.
      total: sql<string>`greatest(coalesce(sum(${billingRefunds.amount}), 0), coalesce(max(${billingRefunds.paymentRefunded}), 0))`,
      at: sql<Date | string | null>`max(${billingRefunds.refundedAt})`,
    })
    .from(billingRefunds)
    .where(eq(billingRefunds.paymentId, paymentId));
  const total = Number(known?.total ?? 0);
  if (total <= 0) return;
  const [invoice] = await tx
    .select({ id: invoices.id, amount: invoices.amount })
    .from(invoices)
    .where(and(eq(invoices.providerPaymentId, paymentId), ne(invoices.status, 'failed')));
  // The charge is not recorded yet: its invoice applies the refund when it is.
  if (!invoice) return;
  const back = Math.min(total, invoice.amount);
  await tx
    .update(invoices)
    .set({ amountRefunded: back, status: back >= invoice.amount ? 'refunded' : 'partially_refunded' })
    .where(eq(invoices.id, invoice.id));
  const at = known?.at ? new Date(known.at) : new Date();
  await reverseCommission(tx, { paymentId, refunded: back, paid: invoice.amount, at });
}

/**
 * One payment's charge and refunds are applied one at a time: without it, a charge and its refund
 * handled at the same moment would each miss the other, and the refund would be lost.
 */
const lockPayment = (tx: Tx, paymentId: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(${0x0b12}, hashtext(${paymentId}))`);

/** PAR-YYYY-NNNNNN: the next of the year, under NUMBER_LOCK (six digits keep text order numeric). */
async function nextNumber(tx: Tx, year: number): Promise<string> {
  const prefix = `PAR-${year}-`;
  const [row] = await tx
    .select({ last: sql<string | null>`max(${invoices.number})` })
    .from(invoices)
    .where(like(invoices.number, `${prefix}%`));
  const next = row?.last ? Number(row.last.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(next).padStart(6, '0')}`;
}

/** What was bought: the plan Razorpay billed (or the row's) or the add-on, with its quantity. */
async function linesOf(tx: Tx, target: Target, entity: Entity | undefined, amount: number) {
  return [{ description: await describe(tx, target, entity), quantity: quantityOf(target, entity), amount }];
}

const quantityOf = (target: Target, entity: Entity | undefined) =>
  entity?.quantity ?? (target.kind === 'addon' ? target.row.quantity : 1);

async function describe(tx: Tx, target: Target, entity?: Entity): Promise<string> {
  if (target.kind === 'addon') {
    const [addon] = await tx
      .select({ name: addons.name })
      .from(addons)
      .where(eq(addons.id, target.row.addonId));
    return `${addon?.name ?? 'Add-on'} add-on`;
  }
  const billed = entity?.plan_id ? await planByProviderId(tx, entity.plan_id) : undefined;
  if (billed) return `${billed.plan.name} plan (${billed.cycle})`;
  const [plan] = await tx.select({ name: plans.name }).from(plans).where(eq(plans.id, target.row.planId));
  return `${plan?.name ?? 'Parley'} plan (${target.row.billingCycle})`;
}

/** The bell beside the owners' mail: everyone who reads Subscriptions hears of a failed payment. */
const notifyPaymentFailed = (tx: Tx, target: Target, dedupeKey: string, body: string) =>
  notify(tx, {
    tenantId: target.tenantId,
    kind: 'payment_failed',
    title: 'A payment failed',
    body,
    link: '/subscriptions',
    dedupeKey,
  });
