import {
  type AdminPartner,
  type AdminPartnerPage,
  AFFILIATE_TEXTS,
  type Commission,
  type CommissionPage,
  type PayoutBody,
  type PayoutResponse,
} from '@parley/contracts';
import { stringify } from 'csv-stringify/sync';
import { and, asc, count, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { decryptSecret } from '../../core/crypto.js';
import type { Db, Tx } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';
import { conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { type AffiliateKeys, affiliateKeys, anonymousWorkspace } from './affiliates.keys.js';
import { commissions, partnerPayouts, partners, referralLinks, referrals } from './affiliates.schema.js';
import type { PartnerRow } from './partners.service.js';

const DAY_MS = 86_400_000;

/** A payment billing has just recorded, as the commission needs it. Amounts in minor units. */
export type CapturedPayment = {
  tenantId: number;
  paymentId: string;
  amount: number;
  tax: number;
  currency: string;
  chargedAt: Date;
};

/**
 * Billing's hook, inside the transaction that records the invoice (one write for both): when the
 * paying workspace was referred and the payment falls within AFFILIATE_COMMISSION_MONTHS of its
 * signup, its partner earns AFFILIATE_COMMISSION_PERCENT of the amount net of tax, pending until
 * the refund window passes. The payment id is the unique key, so a redelivery adds nothing.
 */
export async function recordCommission(tx: Tx, config: Config, payment: CapturedPayment): Promise<void> {
  const [referral] = await tx
    .select({ id: referrals.id, partnerId: referrals.partnerId, createdAt: referrals.createdAt })
    .from(referrals)
    .where(eq(referrals.referredTenantId, payment.tenantId));
  if (!referral) return;
  if (payment.chargedAt >= addMonths(referral.createdAt, config.AFFILIATE_COMMISSION_MONTHS)) return;
  const base = payment.amount - payment.tax;
  const amount = commissionOn(base, config.AFFILIATE_COMMISSION_PERCENT);
  if (amount <= 0) return;
  await tx
    .insert(commissions)
    .values({
      partnerId: referral.partnerId,
      referralId: referral.id,
      effectKey: `charge:${payment.paymentId}`,
      paymentId: payment.paymentId,
      baseAmount: base,
      amount,
      currency: payment.currency,
      earnedAt: payment.chargedAt,
      approvesAt: new Date(payment.chargedAt.getTime() + config.AFFILIATE_REFUND_WINDOW_DAYS * DAY_MS),
    })
    .onConflictDoNothing();
}

/**
 * `percent` of `base`, rounded down to the minor unit. The percent is taken in hundredths (basis
 * points) so the product is exact: 33.3 % of 3000 is 999, where floating point gives 998.9999.
 */
export function commissionOn(base: number, percent: number): number {
  return Math.floor((base * Math.round(percent * 100)) / 10_000);
}

/** How much of a payment has been refunded so far, and what was paid (null: unknown), in minor units. */
export type RefundedPayment = { paymentId: string; refunded: number; paid: number | null; at: Date };

/**
 * Billing's hook for a refunded payment. A whole refund reverses a commission not yet paid, with
 * any share already taken back; a partial one takes back the refunded share of the commission, as a
 * negative line that approves with it (or, once it is approved or paid, from the next payout).
 * `refunded` is cumulative (Razorpay's `amount_refunded`), so each refund takes back only what the
 * lines before it did not, a redelivery takes nothing, and an older event arriving late is a no-op.
 */
export async function reverseCommission(tx: Tx, refund: RefundedPayment): Promise<void> {
  // Locked, so two refunds of one payment handled at once take back their shares one after the other.
  const [charge] = await tx
    .select()
    .from(commissions)
    .where(eq(commissions.effectKey, `charge:${refund.paymentId}`))
    .for('update');
  if (!charge || charge.status === 'reversed') return;
  const whole = refund.paid === null || refund.refunded >= refund.paid;
  if (whole && charge.status !== 'paid') {
    await tx
      .update(commissions)
      .set({ status: 'reversed', reversedAt: refund.at })
      .where(
        and(
          eq(commissions.paymentId, refund.paymentId),
          inArray(commissions.status, ['pending', 'approved']),
        ),
      );
    return;
  }
  const kept = whole ? 0 : Math.floor((charge.amount * (refund.paid! - refund.refunded)) / refund.paid!);
  // What the payment's lines still earn: the commission less every share taken back so far.
  const [net] = await tx
    .select({ amount: sql<string>`coalesce(sum(${commissions.amount}), 0)` })
    .from(commissions)
    .where(and(eq(commissions.paymentId, refund.paymentId), ne(commissions.status, 'reversed')));
  const more = Number(net?.amount ?? 0) - kept;
  if (more <= 0) return;
  const settled = charge.status !== 'pending';
  await tx
    .insert(commissions)
    .values({
      partnerId: charge.partnerId,
      referralId: charge.referralId,
      effectKey: whole ? `clawback:${refund.paymentId}` : `refund:${refund.paymentId}:${refund.refunded}`,
      paymentId: refund.paymentId,
      baseAmount: -Math.round((charge.baseAmount * more) / charge.amount),
      amount: -more,
      currency: charge.currency,
      status: settled ? 'approved' : 'pending',
      earnedAt: refund.at,
      approvesAt: settled ? refund.at : charge.approvesAt,
      approvedAt: settled ? refund.at : null,
    })
    .onConflictDoNothing();
}

/** The refund window has passed: pending commissions become approved (the scheduled sweep). */
export async function approveDue(db: Db, now: Date): Promise<number> {
  const approved = await db
    .update(commissions)
    .set({ status: 'approved', approvedAt: now })
    .where(and(eq(commissions.status, 'pending'), lte(commissions.approvesAt, now)))
    .returning({ id: commissions.id });
  return approved.length;
}

/** Calendar months later, in UTC (Jan 31 + 1 month is the last day of February). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, last));
  return result;
}

type Page = { page: number; size: number };

/**
 * A partner's own text as a spreadsheet shows it, never runs it: a cell starting with one of these
 * is a formula to Excel and Sheets (CSV injection), so it gets a leading apostrophe.
 */
const asText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** What partners and platform admins read of commissions, and the admin's payouts. */
export class CommissionsService {
  private readonly keys: AffiliateKeys;

  constructor(private readonly deps: Pick<ModuleDeps, 'db' | 'config' | 'clock'>) {
    this.keys = affiliateKeys(deps.config.appSecret);
  }

  private get db(): Db {
    return this.deps.db;
  }

  async forPartner(partner: PartnerRow, { page, size }: Page): Promise<CommissionPage> {
    const where = eq(commissions.partnerId, partner.id);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ row: commissions, tenantId: referrals.referredTenantId })
        .from(commissions)
        .innerJoin(referrals, eq(referrals.id, commissions.referralId))
        .where(where)
        .orderBy(desc(commissions.earnedAt), desc(commissions.id))
        .limit(size)
        .offset((page - 1) * size),
      this.db.select({ n: count() }).from(commissions).where(where),
    ]);
    const items: Commission[] = rows.map(({ row, tenantId }) => ({
      id: row.id,
      workspace: anonymousWorkspace(this.keys, tenantId),
      amount: row.baseAmount,
      commission_amount: row.amount,
      currency: row.currency,
      payout_status: row.status,
      earned_at: row.earnedAt.toISOString(),
      approves_at: row.approvesAt.toISOString(),
      paid_at: row.paidAt?.toISOString() ?? null,
    }));
    return { items, total: total?.n ?? 0, page, size };
  }

  async partners({ page, size }: Page): Promise<AdminPartnerPage> {
    const [rows, [total]] = await Promise.all([
      this.partnerRows()
        .orderBy(asc(partners.id))
        .limit(size)
        .offset((page - 1) * size),
      this.db.select({ n: count() }).from(partners),
    ]);
    return { items: await this.describe(rows), total: total?.n ?? 0, page, size };
  }

  /** Every partner with its balances, one line per partner and currency (a spreadsheet for payouts). */
  async csv(): Promise<string> {
    const all = await this.describe(await this.partnerRows().orderBy(asc(partners.id)));
    const lines = all.flatMap((p) =>
      (p.balances.length > 0 ? p.balances : [{ currency: '', pending: 0, approved: 0, paid: 0 }]).map((b) => [
        p.id,
        asText(p.display_name),
        asText(p.email),
        p.links,
        p.referrals,
        b.currency,
        b.pending,
        b.approved,
        b.paid,
        asText(p.payout_details ?? ''),
      ]),
    );
    const header = [
      'partner_id',
      'display_name',
      'email',
      'links',
      'referrals',
      'currency',
      'pending_minor',
      'approved_minor',
      'paid_minor',
      'payout_details',
    ];
    return stringify([header, ...lines]);
  }

  /**
   * Marks a partner's approved commissions in one currency as paid, as one payout, when they still
   * add up to `expected` (what the admin saw and paid): otherwise 409 and nothing changes.
   */
  async markPaid(
    auth: AuthContext,
    partnerId: number,
    { currency, amount: expected }: PayoutBody,
  ): Promise<PayoutResponse> {
    const now = this.deps.clock.now();
    const payout = await this.db.transaction(async (tx) => {
      const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for('update');
      if (!partner) throw notFound(AFFILIATE_TEXTS.partnerNotFound);
      // Locked in id order, as a refund locks its charge before the lines after it: a refund being
      // handled now finishes first, and a commission it reversed is no longer approved here.
      const due = await tx
        .select({ id: commissions.id, amount: commissions.amount })
        .from(commissions)
        .where(
          and(
            eq(commissions.partnerId, partnerId),
            eq(commissions.currency, currency),
            eq(commissions.status, 'approved'),
          ),
        )
        .orderBy(asc(commissions.id))
        .for('update');
      const amount = due.reduce((sum, c) => sum + c.amount, 0);
      if (due.length === 0 || amount <= 0) throw conflict(AFFILIATE_TEXTS.nothingToPay);
      if (amount !== expected) throw conflict(AFFILIATE_TEXTS.payoutChanged);
      const [row] = await tx
        .insert(partnerPayouts)
        .values({ partnerId, amount, currency, paidBy: auth.userId, paidAt: now })
        .returning();
      await tx
        .update(commissions)
        .set({ status: 'paid', payoutId: row!.id, paidAt: now })
        .where(
          inArray(
            commissions.id,
            due.map((c) => c.id),
          ),
        );
      return { row: row!, commissions: due.length };
    });
    return {
      message: AFFILIATE_TEXTS.payoutMarked,
      payout: {
        id: payout.row.id,
        partner_id: partnerId,
        amount: payout.row.amount,
        currency,
        commissions: payout.commissions,
        paid_at: payout.row.paidAt.toISOString(),
      },
    };
  }

  private partnerRows() {
    return this.db
      .select({ partner: partners, email: users.email })
      .from(partners)
      .innerJoin(users, eq(users.id, partners.userId))
      .$dynamic();
  }

  private async describe(rows: { partner: PartnerRow; email: string }[]): Promise<AdminPartner[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.partner.id);
    const [money, links, referred] = await Promise.all([
      this.db
        .select({
          id: commissions.partnerId,
          status: commissions.status,
          currency: commissions.currency,
          amount: sql<string>`sum(${commissions.amount})`,
        })
        .from(commissions)
        .where(inArray(commissions.partnerId, ids))
        .groupBy(commissions.partnerId, commissions.status, commissions.currency),
      this.db
        .select({ id: referralLinks.partnerId, n: count() })
        .from(referralLinks)
        .where(inArray(referralLinks.partnerId, ids))
        .groupBy(referralLinks.partnerId),
      this.db
        .select({ id: referrals.partnerId, n: count() })
        .from(referrals)
        .where(inArray(referrals.partnerId, ids))
        .groupBy(referrals.partnerId),
    ]);
    return rows.map(({ partner, email }) => {
      const balances = new Map<
        string,
        { currency: string; pending: number; approved: number; paid: number }
      >();
      for (const m of money.filter((m) => m.id === partner.id && m.status !== 'reversed')) {
        const balance = balances.get(m.currency) ?? {
          currency: m.currency,
          pending: 0,
          approved: 0,
          paid: 0,
        };
        balance[m.status as 'pending' | 'approved' | 'paid'] += Number(m.amount);
        balances.set(m.currency, balance);
      }
      return {
        id: partner.id,
        user_id: partner.userId,
        display_name: partner.displayName,
        email,
        // Platform admins pay the partner, so they read the details (partners themselves never do).
        payout_details: partner.payoutDetailsSealed
          ? decryptSecret(this.keys.payout, partner.payoutDetailsSealed)
          : null,
        links: links.find((l) => l.id === partner.id)?.n ?? 0,
        referrals: referred.find((r) => r.id === partner.id)?.n ?? 0,
        balances: [...balances.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
        created_at: partner.createdAt.toISOString(),
      };
    });
  }
}
