import {
  type AdminIntegration,
  type AdminIntegrationList,
  INTEGRATION_DOCS,
  INTEGRATION_NAMES,
  INTEGRATION_PLAN_FEATURES,
  INTEGRATIONS,
  type IntegrationKey,
  type IntegrationStatus,
} from '@parley/contracts';
import type { Config } from '../../config.js';
import type { Entitlements } from '../billing/entitlements.js';

type Setting = { name: keyof Config & string; required: boolean };

/** What each integration reads from the configuration, and who it is registered with. */
const SETTINGS: Record<IntegrationKey, { provider: string; settings: Setting[] }> = {
  instagram: {
    provider: 'Meta for Developers (your Meta app)',
    settings: [
      { name: 'META_APP_ID', required: true },
      { name: 'META_APP_SECRET', required: true },
      { name: 'META_VERIFY_TOKEN', required: false },
    ],
  },
  messenger: {
    provider: 'Meta for Developers (your Meta app)',
    settings: [
      { name: 'META_APP_ID', required: true },
      { name: 'META_APP_SECRET', required: true },
      { name: 'META_VERIFY_TOKEN', required: false },
    ],
  },
  whatsapp: {
    provider: 'Meta for Developers (WhatsApp, Facebook Login for Business)',
    settings: [
      { name: 'META_APP_ID', required: true },
      { name: 'META_APP_SECRET', required: true },
      { name: 'WHATSAPP_CONFIG_ID', required: true },
      { name: 'META_VERIFY_TOKEN', required: false },
    ],
  },
  shopify: {
    provider: 'Shopify Partners (your Shopify app)',
    settings: [
      { name: 'SHOPIFY_API_KEY', required: true },
      { name: 'SHOPIFY_API_SECRET', required: true },
    ],
  },
  // Each store's owner makes REST API keys in WooCommerce itself: nothing to configure here.
  woocommerce: { provider: 'Each store’s WooCommerce settings (REST API keys)', settings: [] },
  // An integration token works without configuration; OAuth needs a public integration.
  notion: {
    provider: 'Notion integrations (a public integration, for OAuth)',
    settings: [
      { name: 'NOTION_CLIENT_ID', required: false },
      { name: 'NOTION_CLIENT_SECRET', required: false },
    ],
  },
};

const isSet = (config: Config, name: keyof Config) => {
  const value = config[name];
  return value !== undefined && value !== null && value !== '';
};

/** The addresses to register with each provider, from PUBLIC_URL (README, configuration table). */
function addressesOf(key: IntegrationKey, base: string): AdminIntegration['addresses'] {
  switch (key) {
    case 'instagram':
    case 'messenger':
      return [
        {
          label: 'Valid OAuth Redirect URI (Facebook Login)',
          url: `${base}/integrations/meta/callback?channel=${key}`,
        },
        {
          label: 'Webhook callback URL (verify token: META_VERIFY_TOKEN)',
          url: `${base}/api/social/${key}/webhook`,
        },
      ];
    case 'whatsapp':
      return [
        { label: 'Valid OAuth Redirect URI (embedded signup)', url: `${base}/whatsapp/callback` },
        {
          label: 'Webhook callback URL (fields: messages, message_template_status_update)',
          url: `${base}/api/social/whatsapp/webhook`,
        },
      ];
    case 'shopify':
      return [
        { label: 'Allowed redirection URL', url: `${base}/integrations/shopify/callback` },
        { label: 'Webhooks and mandatory privacy webhooks', url: `${base}/api/shopify/webhooks` },
      ];
    case 'woocommerce':
      return [
        {
          label: 'Webhooks (registered by Parley on each store)',
          url: `${base}/api/woocommerce/webhooks/{store id}`,
        },
      ];
    case 'notion':
      return [{ label: 'OAuth redirect URI', url: `${base}/api/notion/callback` }];
  }
}

/**
 * Whether this install is set up for each integration (its operator's configuration) and whether a
 * workspace's plan includes it (billing's entitlements, the only reader of plans).
 */
export class IntegrationsService {
  constructor(
    private readonly config: Config,
    private readonly entitlements: Entitlements,
  ) {}

  private enabled(key: IntegrationKey): boolean {
    return SETTINGS[key].settings.filter((s) => s.required).every((s) => isSet(this.config, s.name));
  }

  private oauth(key: IntegrationKey): boolean {
    if (key !== 'notion') return this.enabled(key);
    return SETTINGS.notion.settings.every((s) => isSet(this.config, s.name));
  }

  async statusFor(tenantId: number): Promise<IntegrationStatus[]> {
    const entitlement = await this.entitlements.of(tenantId);
    return Promise.all(
      INTEGRATIONS.map(async (key) => {
        const feature = INTEGRATION_PLAN_FEATURES[key];
        const inPlan = feature ? entitlement.features[feature] : true;
        return {
          key,
          name: INTEGRATION_NAMES[key],
          enabled: this.enabled(key),
          in_plan: inPlan,
          plan_with: !inPlan && feature ? await this.entitlements.planWith(feature) : null,
          doc: INTEGRATION_DOCS[key],
          oauth: this.oauth(key),
        };
      }),
    );
  }

  forAdmins(): AdminIntegrationList {
    const base = this.config.publicUrl;
    return {
      public_url: base,
      integrations: INTEGRATIONS.map((key) => ({
        key,
        name: INTEGRATION_NAMES[key],
        enabled: this.enabled(key),
        doc: INTEGRATION_DOCS[key],
        oauth: this.oauth(key),
        provider: SETTINGS[key].provider,
        settings: SETTINGS[key].settings.map((s) => ({
          name: s.name,
          set: isSet(this.config, s.name),
          required: s.required,
        })),
        addresses: addressesOf(key, base),
      })),
    };
  }
}
