import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function IntegrationsPage() {
  return (
    <ComingSoon
      title="Integrations"
      description="Connect your stores and workspaces: Shopify, WooCommerce and Notion."
    />
  );
}
