import { ComingSoon } from '../../../shared/components/ComingSoon';

/**
 * /integrations/shopify/callback: Shopify returns here after the merchant approves the app. A visitor
 * without a session is sent to /login first and brought back (startup rules), so the callback is
 * never lost. Completing the connection arrives with the store integration issue.
 */
export function ShopifyCallbackPage() {
  return <ComingSoon title="Shopify" description="Connecting your Shopify store…" />;
}
