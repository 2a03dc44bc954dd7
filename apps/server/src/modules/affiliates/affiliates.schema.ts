import type { PayoutStatus } from '@parley/contracts';
import { date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';

/** A user who became a partner. Payout details are sealed with APP_SECRET (AES-256-GCM). */
export const partners = pgTable(
  'partners',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    payoutDetailsSealed: text('payout_details_sealed'),
    /** The last characters of the payout details, so the partner recognises them without seeing them. */
    payoutDetailsHint: text('payout_details_hint'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('partners_user_key').on(t.userId)],
);

/** A partner's shareable link: /r/{code} lands on `destination` (a path of Parley). */
export const referralLinks = pgTable(
  'referral_links',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    destination: text('destination').notNull(),
    campaign: text('campaign'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_links_code_key').on(t.code),
    index('referral_links_partner_idx').on(t.partnerId),
  ],
);

/**
 * A counted click: one per link, visitor and UTC day, which the unique key enforces (a repeat in
 * the same day inserts nothing). The visitor is a keyed hash of address and browser, never the address.
 */
export const referralClicks = pgTable(
  'referral_clicks',
  {
    id: serial('id').primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => referralLinks.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    visitorHash: text('visitor_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('referral_clicks_visit_key').on(t.linkId, t.day, t.visitorHash)],
);

/** A workspace that signed up within the attribution window of a partner's link: referred once. */
export const referrals = pgTable(
  'referrals',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    /** Kept when the link is deleted, so the referral and its commissions stay. */
    linkId: integer('link_id').references(() => referralLinks.id, { onDelete: 'set null' }),
    referredTenantId: integer('referred_tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('referrals_tenant_key').on(t.referredTenantId),
    index('referrals_partner_idx').on(t.partnerId, t.createdAt),
  ],
);

/** A payout a platform admin marked as paid: the approved commissions of one currency. */
export const partnerPayouts = pgTable(
  'partner_payouts',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('partner_payouts_partner_idx').on(t.partnerId)],
);

/**
 * A commission on one payment of a referred workspace, in minor units of the payment's currency.
 * `effectKey` is unique per effect: `charge:{payment id}` for a commission, `refund:{payment id}:{amount
 * refunded so far}` for the share a partial refund takes back, `clawback:{payment id}` for the rest
 * of one already paid when the whole payment is refunded, so a redelivered webhook never counts twice.
 */
export const commissions = pgTable(
  'commissions',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    referralId: integer('referral_id')
      .notNull()
      .references(() => referrals.id, { onDelete: 'cascade' }),
    effectKey: text('effect_key').notNull(),
    paymentId: text('payment_id').notNull(),
    /** The payment net of tax. */
    baseAmount: integer('base_amount').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<PayoutStatus>().notNull().default('pending'),
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull(),
    approvesAt: timestamp('approves_at', { withTimezone: true }).notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    payoutId: integer('payout_id').references(() => partnerPayouts.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('commissions_effect_key').on(t.effectKey),
    // A refund finds every line of its payment (the commission and the shares taken back).
    index('commissions_payment_idx').on(t.paymentId),
    index('commissions_partner_idx').on(t.partnerId, t.earnedAt),
    index('commissions_due_idx').on(t.status, t.approvesAt),
  ],
);
