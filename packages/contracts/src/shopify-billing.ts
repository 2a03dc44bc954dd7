import { z } from 'zod';
import { BILLING_CYCLES, Subscription } from './billing.js';
import { BodyId, IdText, inputText } from './common.js';
import { need, type RouteRule } from './rules.js';

/**
 * Paying for a plan through Shopify's app billing (integrations-and-billing.md section 7 "Shopify
 * billing", section 4 and section 8): a recurring app charge on the workspace's connected shop,
 * approved by the merchant on Shopify's page, then activated on return. Shopify's
 * app_subscriptions/update webhook keeps the status true afterwards.
 */
export const SHOPIFY_BILLING_ROUTE_RULES = {
  'POST /shopify/subscriptions/create': need('Upgrade', 'create'),
  'GET /shopify/subscriptions/activate': need('Upgrade', 'create'),
  'POST /shopify/subscriptions/cancel': need('Subscriptions', 'write'),
  'GET /shopify/subscriptions/user/:id': need('Subscriptions', 'read'),
} as const satisfies Record<string, RouteRule>;

export const SHOPIFY_BILLING_TEXTS = {
  // The console's fallbacks when the server gives no detail (section 8).
  createFailed: 'Failed to create Shopify subscription',
  activateFailed: 'Failed to activate Shopify subscription',
  cancelFailed: 'Failed to cancel Shopify subscription',
  fetchFailed: 'Failed to fetch Shopify subscriptions',
  // Server details.
  noStore: 'Connect your Shopify store first: Shopify billing charges the store it is installed on.',
  returnUrlInvalid: 'The return address must be a page of this console',
  notShopify: 'This subscription is not billed through Shopify',
  unknownAtShopify: 'Shopify does not know this subscription on this store',
} as const;

export const CreateShopifySubscriptionBody = z.object({
  tenant_id: BodyId('Tenant'),
  plan_id: BodyId('Plan'),
  billing_cycle: z.enum(BILLING_CYCLES, {
    error: `Billing cycle must be one of ${BILLING_CYCLES.join(', ')}`,
  }),
  /** Where Shopify sends the merchant back: a page of the console (PUBLIC_URL's origin). */
  return_url: inputText({ error: 'Return URL is required' })
    .trim()
    .max(2000, 'Return URL must be at most 2000 characters')
    .pipe(z.url({ protocol: /^https?$/, error: 'Return URL must be an http(s) address' })),
  /** The connected Shopify store to charge; without it, the workspace's first connected one. */
  store_id: BodyId('Store').optional(),
});
export type CreateShopifySubscriptionBody = z.input<typeof CreateShopifySubscriptionBody>;

/**
 * The new subscription (status created) and Shopify's page where the merchant approves the charge.
 * Shopify then returns to `return_url` with `subscription_id`, `store_id` (added by Parley) and
 * `charge_id` (added by Shopify) in its query; the console calls activate with the first two.
 */
export const ShopifySubscriptionCheckout = z.object({
  confirmation_url: z.string(),
  subscription: Subscription,
});
export type ShopifySubscriptionCheckout = z.infer<typeof ShopifySubscriptionCheckout>;

export const ActivateShopifySubscriptionQuery = z.object({
  subscription_id: IdText('Subscription id must be a positive whole number'),
  store_id: IdText('Store id must be a positive whole number'),
});
export type ActivateShopifySubscriptionQuery = z.input<typeof ActivateShopifySubscriptionQuery>;

export const CancelShopifySubscriptionBody = z.object({
  subscription_id: BodyId('Subscription'),
  store_id: BodyId('Store'),
});
export type CancelShopifySubscriptionBody = z.input<typeof CancelShopifySubscriptionBody>;

/** The workspace's subscriptions billed through Shopify, newest first. */
export const ShopifySubscriptionList = z.array(Subscription);
export type ShopifySubscriptionList = z.infer<typeof ShopifySubscriptionList>;
