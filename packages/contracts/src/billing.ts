import { z } from 'zod';
import { BodyId, inputText } from './common.js';
import { need, type RouteRule } from './rules.js';

/**
 * Plans, add-ons, subscriptions, invoices and limits (integrations-and-billing.md sections 3, 4, 7
 * and 8; console.md /subscriptions and /upgrade). Money is an integer of minor units (cents, paise)
 * with its currency: never a float.
 */
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** The plan's boolean features, by the spec's names. */
export const PLAN_FEATURES = [
  'access_to_fast_models',
  'advanced_analytics',
  'basic_analytics',
  'analytics_dashboard',
  'allows_api_access',
  'allows_custom_branding',
  'allows_file_uploads',
  'capture_leads',
  'embed_on_unlimited_websites',
  'priority_support',
  'white_labeling',
  'instagram_integration',
  'facebook_integration',
  'slack_integration',
  'wordpress_integration',
  'telegram_integration',
  'whatsapp_integration',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** What an add-on adds, per unit of quantity. */
export const ADDON_KINDS = ['messages', 'chatbots', 'team_members', 'characters'] as const;
export type AddonKind = (typeof ADDON_KINDS)[number];

/**
 * Subscription states, as Razorpay names them: created (checkout not completed: pending),
 * authenticated (paid the first time, starts later: in process), active, pending (a renewal failed
 * and is retried), halted (retries exhausted), cancelled, completed, expired.
 */
export const SUBSCRIPTION_STATUSES = [
  'created',
  'authenticated',
  'active',
  'pending',
  'halted',
  'cancelled',
  'completed',
  'expired',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const BILLING_ROUTE_RULES = {
  'GET /pricing/plans': need('Upgrade', 'read'),
  'GET /pricing/addons': need('Upgrade', 'read'),
  'GET /pricing/subscriptions/:tenantId': need('Subscriptions', 'read'),
  'GET /pricing/subscriptions/pending/:tenantId': need('Subscriptions', 'read'),
  'GET /pricing/subscriptions/inprocess/:tenantId': need('Subscriptions', 'read'),
  'GET /pricing/consumption/:tenantId': need('Subscriptions', 'read'),
  'GET /admin/pricing/plans': need('Admin', 'read'),
  'POST /admin/pricing/plans': need('Admin', 'write'),
  'PUT /admin/pricing/plans/:id': need('Admin', 'write'),
  'GET /admin/pricing/addons': need('Admin', 'read'),
  'POST /admin/pricing/addons': need('Admin', 'write'),
  'PUT /admin/pricing/addons/:id': need('Admin', 'write'),
  'PUT /admin/workspaces/:id/plan': need('Admin', 'write'),
  'DELETE /admin/workspaces/:id/plan': need('Admin', 'write'),
} as const satisfies Record<string, RouteRule>;

export const BILLING_TEXTS = {
  planNotFound: 'Plan not found',
  addonNotFound: 'Add-on not found',
  /** A limit reached: what it is, the plan that sets it, and the way out. */
  limitReached: (what: string, limit: number, plan: string) =>
    `Your ${plan} plan allows ${limit} ${what}. Upgrade your plan or add more to continue.`,
  featureNotInPlan: (feature: string, plan: string) =>
    `${feature} is not included in your ${plan} plan. Upgrade your plan to use it.`,
  charactersReached: (limit: number, plan: string) =>
    `This bot would hold more than the ${limit.toLocaleString('en-US')} trained characters your ${plan} plan allows. Remove some sources, upgrade your plan or add characters.`,
  fetchInvoicesFailed: 'Failed to fetch invoice history',
  nameTaken: 'A plan with this name already exists',
  /** The Subscriptions page's one line when PLAN_LIMITS is off (the default). */
  plansOff: 'This Parley install has no paid plans: nothing is limited',
  /** With plans on but no payment provider: why no button buys anything. */
  paymentsOff:
    'Payments are not set up on this Parley install. The person who runs Parley can change your plan from the admin console.',
  /** An admin giving a plan while plans are off. */
  grantPlansOff:
    'Plans are off on this install (PLAN_LIMITS=off): nothing is limited, so there is no plan to give',
  grantEndsInPast: 'The end date must be in the future',
  workspaceNotFound: 'Workspace not found',
  noComplimentary: 'This workspace has no plan given by an admin',
  granted: (plan: string, workspace: string) => `${workspace} is now on ${plan}.`,
  grantEnded: (workspace: string) => `${workspace} is back on the plan it pays for.`,
} as const;

const Minor = z.number().int().min(0).max(100_000_000_00);
const Count = z.number().int().min(0).max(100_000_000);

export const PlanLimits = z.object({
  max_chatbots: Count,
  max_team_members: Count,
  messages_credits_per_month: Count,
  trained_characters_per_chatbot: Count,
  /** Days a conversation is kept after its last message (0: kept for ever). */
  chat_history_retention: Count,
});
export type PlanLimits = z.infer<typeof PlanLimits>;

const FeatureFlags = z.object(
  Object.fromEntries(PLAN_FEATURES.map((f) => [f, z.boolean()])) as Record<PlanFeature, z.ZodBoolean>,
);

export const Plan = PlanLimits.extend(FeatureFlags.shape).extend({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  currency: z.string(),
  /** Minor units (cents). */
  price_monthly: z.number().int(),
  price_yearly: z.number().int(),
  is_default: z.boolean(),
  is_active: z.boolean(),
  sort_order: z.number().int(),
});
export type Plan = z.infer<typeof Plan>;

export const PlanInput = PlanLimits.extend(FeatureFlags.partial().shape).extend({
  name: inputText().trim().min(1, 'Name is required').max(60),
  description: inputText().trim().max(500).default(''),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code like USD')
    .default('USD'),
  price_monthly: Minor,
  price_yearly: Minor,
  is_default: z.boolean().default(false),
  is_active: z.boolean().default(true),
  sort_order: z.number().int().min(0).max(1000).default(0),
});
export type PlanInput = z.input<typeof PlanInput>;

export const Addon = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(ADDON_KINDS),
  /** How much one unit of quantity adds (1,000 messages, 1 bot...). */
  units: z.number().int(),
  currency: z.string(),
  price_monthly: z.number().int(),
  is_active: z.boolean(),
});
export type Addon = z.infer<typeof Addon>;

export const AddonInput = z.object({
  name: inputText().trim().min(1, 'Name is required').max(60),
  description: inputText().trim().max(500).default(''),
  kind: z.enum(ADDON_KINDS, { error: `Kind must be one of ${ADDON_KINDS.join(', ')}` }),
  units: z.number().int().min(1).max(100_000_000),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code like USD')
    .default('USD'),
  price_monthly: Minor,
  is_active: z.boolean().default(true),
});
export type AddonInput = z.input<typeof AddonInput>;

export const SubscriptionAddon = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  addon_id: z.number().int(),
  quantity: z.number().int(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  is_active: z.boolean(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  auto_renew: z.boolean(),
  razorpay_subscription_id: z.string().nullable(),
  addon: Addon,
});
export type SubscriptionAddon = z.infer<typeof SubscriptionAddon>;

export const Subscription = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  plan_id: z.number().int(),
  billing_cycle: z.enum(BILLING_CYCLES),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  /** It grants its plan now. */
  is_active: z.boolean(),
  /**
   * Bought to start when the plan in force ends, on `start_date`: it grants nothing before then
   * (checkout pending, `created`, or done, `authenticated`) and can be cancelled until it starts.
   */
  scheduled: z.boolean(),
  auto_renew: z.boolean(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  razorpay_subscription_id: z.string().nullable(),
  shopify_subscription_id: z.string().nullable(),
  /** Given by a platform admin, not paid: no provider, no renewal; ends on `end_date` when set. */
  complimentary: z.boolean(),
  /** An admin's limits in place of the plan's (each one given replaces the plan's). */
  custom_limits: PlanLimits.partial().nullable(),
  plan: Plan,
  subscription_addons: z.array(SubscriptionAddon),
});
export type Subscription = z.infer<typeof Subscription>;

/** The tenant's subscriptions; `current` is what applies now (the free plan when nothing is paid). */
export const SubscriptionsResponse = z.object({
  /** PLAN_LIMITS on: plans limit workspaces. Off (the default): nothing is limited. */
  plans_enabled: z.boolean(),
  /** A payment provider (Razorpay) is configured: plans and add-ons can be bought here. */
  payments_enabled: z.boolean(),
  current: z.object({
    plan: Plan,
    subscription_id: z.number().int().nullable(),
    renews_at: z.string().nullable(),
    /** Given by a platform admin (see `Subscription.complimentary`). */
    complimentary: z.boolean(),
    /** When a complimentary plan ends; null: it does not. */
    ends_at: z.string().nullable(),
    /** What applies now: the plan's limits, an admin's custom limits, add-ons on top. */
    limits: PlanLimits,
  }),
  subscriptions: z.array(Subscription),
  /** Every add-on bought, newest first: those bought on the free plan have no plan subscription. */
  addons: z.array(SubscriptionAddon),
});
export type SubscriptionsResponse = z.infer<typeof SubscriptionsResponse>;
export const PendingSubscriptions = z.object({ pending_subscriptions: z.array(Subscription) });
export type PendingSubscriptions = z.infer<typeof PendingSubscriptions>;

/** The spec's plan consumption, with the limits it is measured against. */
export const PlanConsumption = z.object({
  characters_fileSpace: z.number().int(),
  characters_websource: z.number().int(),
  characters_notion: z.number().int(),
  characters_qna: z.number().int(),
  max_chatbots: z.number().int(),
  max_team_members: z.number().int(),
  messages_per_month: z.number().int(),
  limits: PlanLimits,
  plan: z.string(),
  /** PLAN_LIMITS off: bots, team, characters and history have no limit (`limits` holds placeholders). */
  unlimited: z.boolean(),
});
export type PlanConsumption = z.infer<typeof PlanConsumption>;

export const PlanIdBody = z.object({ plan_id: BodyId('Plan') });

/**
 * A platform admin puts a workspace on a plan without payment: any plan (offered or not), until
 * `ends_at` (null: no end), optionally with custom limits in place of the plan's.
 */
export const AdminPlanGrant = z.object({
  plan_id: BodyId('Plan'),
  ends_at: z.iso
    .datetime({ offset: true, error: 'End date must be a date and time' })
    .nullable()
    .default(null),
  limits: PlanLimits.partial().nullable().default(null),
});
export type AdminPlanGrant = z.input<typeof AdminPlanGrant>;
export const AdminPlanGrantResult = z.object({ message: z.string(), subscription: Subscription.nullable() });
export type AdminPlanGrantResult = z.infer<typeof AdminPlanGrantResult>;
