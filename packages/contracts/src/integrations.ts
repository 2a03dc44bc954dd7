import { z } from 'zod';
import type { PlanFeature } from './billing.js';
import { need, type RouteRule, signedIn } from './rules.js';

/**
 * Whether this install is set up for each integration, before anyone clicks (the Integrations page
 * and the admins' integrations page). What an install needs is its operator's configuration; what
 * a workspace may use is its plan's.
 */
export const INTEGRATIONS = [
  'instagram',
  'messenger',
  'whatsapp',
  'shopify',
  'woocommerce',
  'notion',
] as const;
export type IntegrationKey = (typeof INTEGRATIONS)[number];

export const INTEGRATION_NAMES: Record<IntegrationKey, string> = {
  instagram: 'Instagram',
  messenger: 'Messenger',
  whatsapp: 'WhatsApp',
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
  notion: 'Notion',
};

/** The plan flag that includes an integration, where plans gate it. */
export const INTEGRATION_PLAN_FEATURES: Partial<Record<IntegrationKey, PlanFeature>> = {
  instagram: 'instagram_integration',
  messenger: 'facebook_integration',
  whatsapp: 'whatsapp_integration',
};

/** The operator's guide of each integration: docs/<slug>.md, shown in the console at /help/<slug>. */
export const INTEGRATION_DOCS: Record<IntegrationKey, { slug: string; title: string }> = {
  instagram: { slug: 'connecting-instagram', title: 'Connecting Instagram' },
  messenger: { slug: 'connecting-messenger', title: 'Connecting Messenger' },
  whatsapp: { slug: 'connecting-whatsapp', title: 'Connecting WhatsApp' },
  shopify: { slug: 'connecting-shopify', title: 'Connecting Shopify' },
  woocommerce: { slug: 'connecting-woocommerce', title: 'Connecting WooCommerce' },
  notion: { slug: 'connecting-notion', title: 'Connecting Notion' },
};

export const INTEGRATION_ROUTE_RULES = {
  /** Install-wide facts and the caller's own plan: anyone signed in may read them. */
  'GET /integrations/status': signedIn,
  'GET /admin/integrations': need('Admin', 'read'),
} as const satisfies Record<string, RouteRule>;

export const INTEGRATION_TEXTS = {
  /** The lasting notice of a card whose integration this install is not set up for. */
  notEnabled: (name: string, doc: string) =>
    `${name} is not enabled on this Parley install. The person who runs Parley can turn it on: see ${doc}.`,
  /** The card of an integration the workspace's plan does not include. */
  notInPlan: (name: string, plan: string | null) =>
    plan
      ? `${name} is not included in your plan. It comes with the ${plan} plan.`
      : `${name} is not included in your plan.`,
  /** Notion without OAuth: the integration-token path still works. */
  notionTokenOnly:
    'Connect with Notion (OAuth) is not set up on this Parley install: connect with an internal integration token instead.',
} as const;

export const IntegrationStatus = z.object({
  key: z.enum(INTEGRATIONS),
  name: z.string(),
  /** This install is set up for it: connecting can work. */
  enabled: z.boolean(),
  /** The workspace's plan includes it (always true where plans do not gate it, or with plans off). */
  in_plan: z.boolean(),
  /** The first plan on offer that includes it, when the workspace's does not. */
  plan_with: z.string().nullable(),
  /** The operator's guide: its slug (docs/<slug>.md, /help/<slug>) and title. */
  doc: z.object({ slug: z.string(), title: z.string() }),
  /** Notion: "Connect with Notion" (OAuth) is set up; without it an integration token still works. */
  oauth: z.boolean(),
});
export type IntegrationStatus = z.infer<typeof IntegrationStatus>;
export const IntegrationStatusList = z.object({ integrations: z.array(IntegrationStatus) });
export type IntegrationStatusList = z.infer<typeof IntegrationStatusList>;

/** One configuration variable an integration reads, and whether it is set (never its value). */
export const IntegrationSetting = z.object({
  name: z.string(),
  set: z.boolean(),
  /** Connecting needs it; the others refine or complete it (webhooks, OAuth). */
  required: z.boolean(),
});
export const IntegrationAddress = z.object({
  /** What to do with it, in the provider's words ("Valid OAuth Redirect URI"...). */
  label: z.string(),
  url: z.string(),
});
export const AdminIntegration = IntegrationStatus.omit({ in_plan: true, plan_with: true }).extend({
  /** Where to register Parley with the provider. */
  provider: z.string(),
  settings: z.array(IntegrationSetting),
  /** Callback and webhook addresses to register with the provider, from PUBLIC_URL. */
  addresses: z.array(IntegrationAddress),
});
export type AdminIntegration = z.infer<typeof AdminIntegration>;
export const AdminIntegrationList = z.object({
  public_url: z.string(),
  integrations: z.array(AdminIntegration),
});
export type AdminIntegrationList = z.infer<typeof AdminIntegrationList>;
