import type {
  AddonKind,
  BillingCycle,
  InvoiceStatus,
  PlanFeature,
  PlanLimits,
  SubscriptionStatus,
} from '@parley/contracts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from '../../core/db/schema.js';

/**
 * A plan: prices in minor units of its currency, limits, and the spec's feature flags. The plan
 * marked default is what a workspace has when it pays for nothing. Its ids at the payment provider
 * (one per cycle) are made when first needed.
 */
export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    currency: text('currency').notNull().default('USD'),
    priceMonthly: integer('price_monthly').notNull(),
    priceYearly: integer('price_yearly').notNull(),
    maxChatbots: integer('max_chatbots').notNull(),
    maxTeamMembers: integer('max_team_members').notNull(),
    messagesCreditsPerMonth: integer('messages_credits_per_month').notNull(),
    trainedCharactersPerChatbot: integer('trained_characters_per_chatbot').notNull(),
    /** Days a conversation is kept after its last message; 0 keeps it for ever. */
    chatHistoryRetention: integer('chat_history_retention').notNull(),
    features: jsonb('features').$type<Partial<Record<PlanFeature, boolean>>>().notNull().default({}),
    isDefault: boolean('is_default').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /** The provider's plan per cycle ({ monthly: 'plan_…', yearly: 'plan_…' }). */
    providerPlanIds: jsonb('provider_plan_ids')
      .$type<Partial<Record<BillingCycle, string>>>()
      .notNull()
      .default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('plans_name_key').on(t.name)],
);

/** An add-on: `units` of its kind per unit of quantity, at a monthly price. */
export const addons = pgTable('addons', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  kind: text('kind').$type<AddonKind>().notNull(),
  units: integer('units').notNull(),
  currency: text('currency').notNull().default('USD'),
  priceMonthly: integer('price_monthly').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  providerPlanId: text('provider_plan_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A workspace's subscription to a plan. Its status changes only from the provider's webhook
 * (Razorpay) or Shopify's; `last_event_at` is the provider's time of the newest event applied, so
 * an older event arriving late changes nothing.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    billingCycle: text('billing_cycle').$type<BillingCycle>().notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull().default('created'),
    autoRenew: boolean('auto_renew').notNull().default(true),
    startDate: timestamp('start_date', { withTimezone: true }),
    /** The end of the period paid for. */
    endDate: timestamp('end_date', { withTimezone: true }),
    razorpaySubscriptionId: text('razorpay_subscription_id'),
    razorpayCustomerId: text('razorpay_customer_id'),
    shopifySubscriptionId: text('shopify_subscription_id'),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    /**
     * Given by a platform admin, not paid: no provider ids, no renewal. It grants while active and
     * until `end_date` when one is set.
     */
    complimentary: boolean('complimentary').notNull().default(false),
    /** An admin's limits in place of the plan's, for a complimentary subscription; null: the plan's. */
    customLimits: jsonb('custom_limits').$type<Partial<PlanLimits>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_tenant_idx').on(t.tenantId),
    uniqueIndex('subscriptions_razorpay_key').on(t.razorpaySubscriptionId),
    uniqueIndex('subscriptions_shopify_key').on(t.shopifySubscriptionId),
  ],
);

/** An add-on bought on top of a plan, in `quantity` units, with its own provider subscription. */
export const subscriptionAddons = pgTable(
  'subscription_addons',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    addonId: integer('addon_id')
      .notNull()
      .references(() => addons.id),
    quantity: integer('quantity').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull().default('created'),
    autoRenew: boolean('auto_renew').notNull().default(true),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    razorpaySubscriptionId: text('razorpay_subscription_id'),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscription_addons_tenant_idx').on(t.tenantId),
    uniqueIndex('subscription_addons_razorpay_key').on(t.razorpaySubscriptionId),
  ],
);

/** A charge: what an invoice shows. Amounts in minor units of `currency`. */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Parley's invoice number, PAR-YYYY-NNNNNN. */
    number: text('number').notNull(),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    subscriptionAddonId: integer('subscription_addon_id').references(() => subscriptionAddons.id, {
      onDelete: 'set null',
    }),
    providerPaymentId: text('provider_payment_id').notNull(),
    amount: integer('amount').notNull(),
    tax: integer('tax').notNull().default(0),
    currency: text('currency').notNull(),
    status: text('status').$type<InvoiceStatus>().notNull(),
    /** What refunds have given back so far, in minor units: 0 up to `amount` (then status refunded). */
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /** What was bought: the plan and add-ons with their quantities and amounts. */
    lines: jsonb('lines').$type<{ description: string; quantity: number; amount: number }[]>().notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    chargedAt: timestamp('charged_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('invoices_payment_key').on(t.providerPaymentId),
    uniqueIndex('invoices_number_key').on(t.number),
    index('invoices_tenant_idx').on(t.tenantId, t.chargedAt),
  ],
);

/** Provider webhook events already applied, by id: a redelivery changes nothing. */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Refunds Razorpay reported, by its refund id, whether or not the charge they refund is known yet:
 * Razorpay does not order its webhooks, and a charge whose event was retried can arrive after its
 * refund. The charge's invoice applies what is here when it is written, so the order does not matter.
 * `payment_refunded` is the payment's own total refunded as that event saw it.
 */
export const billingRefunds = pgTable(
  'billing_refunds',
  {
    refundId: text('refund_id').primaryKey(),
    paymentId: text('payment_id').notNull(),
    amount: integer('amount').notNull(),
    paymentRefunded: integer('payment_refunded').notNull().default(0),
    refundedAt: timestamp('refunded_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('billing_refunds_payment_idx').on(t.paymentId)],
);

/**
 * Usage notices already mailed ("80 % of your messages", "100 %"), one per workspace, month and
 * threshold: the unique key, not a flag read first, decides that a notice goes once.
 */
export const usageNotices = pgTable(
  'usage_notices',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The month, as YYYY-MM (UTC). */
    period: text('period').notNull(),
    threshold: integer('threshold').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period, t.threshold] })],
);
