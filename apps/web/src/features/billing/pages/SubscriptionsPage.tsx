import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function SubscriptionsPage() {
  return (
    <ComingSoon title="Subscriptions" description="Your plan, add-ons and invoices will be listed here." />
  );
}
