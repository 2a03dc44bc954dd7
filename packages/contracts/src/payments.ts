import { z } from 'zod';
import { BILLING_CYCLES, Subscription, SubscriptionAddon } from './billing.js';
import { BodyId } from './common.js';
import { need, open, type RouteRule } from './rules.js';

/**
 * Paying for plans and add-ons with Razorpay, and the invoices Parley issues for each charge
 * (integrations-and-billing.md sections 3, 4, 7 and 8). Statuses change only from Razorpay's
 * webhook, except a cancel, whose answer carries the new status and auto_renew (spec section 4).
 */
export const PAYMENT_ROUTE_RULES = {
  'POST /payment/create-subscription': need('Upgrade', 'create'),
  'POST /payment/add-addon': need('Upgrade', 'create'),
  'POST /payment/subscription/upgrade': need('Upgrade', 'create'),
  'POST /payment/cancel-subscription/:id': need('Subscriptions', 'write'),
  'POST /payment/cancel-addon-subscription/:id': need('Subscriptions', 'write'),
  'GET /payment/invoice-history/:tenantId': need('Subscriptions', 'read'),
  'GET /payment/invoices/:id/pdf': need('Subscriptions', 'read'),
  /** Razorpay's deliveries: the signature of the raw body is the authentication. */
  'POST /payment/razorpay/webhook': open,
} as const satisfies Record<string, RouteRule>;

export const PAYMENT_TEXTS = {
  notConfigured: 'Payments are not configured on this server',
  freePlan: 'The free plan needs no payment',
  planInactive: 'This plan is no longer offered',
  addonInactive: 'This add-on is no longer offered',
  alreadySubscribed: 'You already have an active subscription. Upgrade it instead.',
  subscriptionNotFound: 'Subscription not found',
  notUpgradable: 'Only an active subscription can be upgraded',
  samePlan: 'You are already on this plan',
  alreadyCancelled: 'This subscription is already cancelled',
  invoiceNotFound: 'Invoice not found',
  providerFailed: 'Razorpay could not complete the request. Please try again.',
  invalidSignature: 'Invalid signature',
  changeScheduled: (plan: string, day: string) =>
    `Your ${plan} plan already starts on ${day}. Undo that change on the Subscriptions page to choose another plan.`,
} as const;

export const CreateSubscriptionBody = z.object({
  plan_id: BodyId('Plan'),
  billing_cycle: z.enum(BILLING_CYCLES, {
    error: `Billing cycle must be one of ${BILLING_CYCLES.join(', ')}`,
  }),
});
export type CreateSubscriptionBody = z.input<typeof CreateSubscriptionBody>;

export const AddAddonBody = z.object({
  addon_id: BodyId('Add-on'),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(1000, 'Quantity must be at most 1000')
    .default(1),
});
export type AddAddonBody = z.input<typeof AddAddonBody>;

/** Cancelling at the end of the period keeps the plan until then; `false` ends it now. */
export const CancelSubscriptionBody = z.object({ at_period_end: z.boolean().default(true) });
export type CancelSubscriptionBody = z.input<typeof CancelSubscriptionBody>;

export const UpgradeSubscriptionBody = z.object({
  subscription_id: BodyId('Subscription'),
  plan_id: BodyId('Plan'),
  billing_cycle: z.enum(BILLING_CYCLES).optional(),
});
export type UpgradeSubscriptionBody = z.input<typeof UpgradeSubscriptionBody>;

/**
 * What Razorpay Checkout needs. In production `checkout_url` is Razorpay's checkout.js: the console
 * loads it and opens Checkout with these options. When the server is configured with a page URL
 * (one holding `{subscription_id}`, as the test fake's is), `checkout_url` is that page, to open.
 */
export const Checkout = z.object({
  key_id: z.string(),
  subscription_id: z.string(),
  name: z.string(),
  description: z.string(),
  prefill: z.object({ email: z.string(), name: z.string() }),
  checkout_url: z.string(),
});
export type Checkout = z.infer<typeof Checkout>;

export const CheckoutResponse = z.object({ subscription: Subscription, checkout: Checkout });
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;
export const AddonCheckoutResponse = z.object({ subscription_addon: SubscriptionAddon, checkout: Checkout });
export type AddonCheckoutResponse = z.infer<typeof AddonCheckoutResponse>;

/** A paid charge reads partially_refunded once some of it is back, refunded once all of it is. */
export const INVOICE_STATUSES = ['paid', 'partially_refunded', 'failed', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const InvoiceLine = z.object({
  description: z.string(),
  quantity: z.number().int(),
  /** Minor units of the invoice's currency. */
  amount: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/**
 * One charge. `number` is Parley's invoice number (PAR-YYYY-NNNNNN) for a paid charge and
 * Razorpay's payment id for a failed one, which has no invoice (`pdf_url` null). A refunded
 * charge keeps its invoice, and the PDF shows what was given back.
 */
export const Invoice = z.object({
  id: z.number().int(),
  number: z.string(),
  charged_at: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  lines: z.array(InvoiceLine),
  /** The total charged, tax included, in minor units. */
  amount: z.number().int(),
  tax: z.number().int(),
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES),
  /** What refunds have given back so far, in minor units (0 when nothing). */
  amount_refunded: z.number().int(),
  pdf_url: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceHistory = z.object({ invoices: z.array(Invoice) });
export type InvoiceHistory = z.infer<typeof InvoiceHistory>;
