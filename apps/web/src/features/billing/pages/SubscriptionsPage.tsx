import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { BILLING_TEXTS } from '@parley/contracts';
import type { PagePreload } from '../../../app/preload';
import { useAppSelector } from '../../../app/store';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { PageHeader } from '../../../shared/components/PageHeader';
import { botsApi, useMessageLimitQuery } from '../../bots/api';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  billingApi,
  useConsumptionQuery,
  useInProcessSubscriptionsQuery,
  usePendingSubscriptionsQuery,
  useSubscriptionsQuery,
} from '../api';
import { BoughtAddons } from '../components/BoughtAddons';
import { CurrentPlanCard } from '../components/CurrentPlanCard';
import { InvoiceTable } from '../components/InvoiceTable';
import { PendingSubscriptions } from '../components/PendingSubscriptions';
import { UsagePanel } from '../components/UsagePanel';
import { boughtAddons, currentSubscription, scheduledChange } from '../model';

/** The plan, usage, subscriptions not applying yet and the invoices start with the route. */
export const preload: PagePreload = ({ dispatch, user }) => {
  const tenantId = user.tenant_id;
  for (const endpoint of [
    'subscriptions',
    'pendingSubscriptions',
    'inProcessSubscriptions',
    'consumption',
    'invoiceHistory',
  ] as const) {
    dispatch(billingApi.util.prefetch(endpoint, tenantId, {}));
  }
  dispatch(botsApi.util.prefetch('messageLimit', tenantId, {}));
};

/**
 * /subscriptions: the plan that applies now, what the workspace uses against it, add-ons bought,
 * subscriptions not applying yet, and the invoices (console.md /subscriptions; billing spec 3, 4, 7).
 */
export function SubscriptionsPage() {
  const me = useAppSelector((state) => state.session.user);
  const tenantId = me?.tenant_id ?? 0;
  const skip = !me;
  const ability = useAbility();
  const canManage = ability.can('write', 'Subscriptions');
  const canChange = ability.can('read', 'Upgrade');
  const fresh = { skip, refetchOnMountOrArgChange: FRESH_ON_VISIT_S } as const;
  const subscriptions = useSubscriptionsQuery(tenantId, fresh);
  const pending = usePendingSubscriptionsQuery(tenantId, fresh);
  const inProcess = useInProcessSubscriptionsQuery(tenantId, fresh);
  const consumption = useConsumptionQuery(tenantId, fresh);
  const messages = useMessageLimitQuery(tenantId, fresh);

  const data = subscriptions.data;
  const current = data ? currentSubscription(data.subscriptions, data.current.subscription_id) : null;
  const next = data ? scheduledChange(data.subscriptions) : null;

  // Plans off (the default): one line and the usage, nothing to buy or cancel.
  if (data && !data.plans_enabled) {
    return (
      <>
        <PageHeader title="Subscriptions" subtitle="What your workspace uses." />
        <Alert severity="info" sx={{ mb: 2 }}>
          {BILLING_TEXTS.plansOff}
        </Alert>
        {consumption.data ? <UsagePanel consumption={consumption.data} messages={messages.data} /> : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title="Subscriptions" subtitle="Your plan, what you use of it, add-ons and invoices." />
      {subscriptions.isLoading ? <CircularProgress aria-label="Loading subscription" /> : null}
      {subscriptions.isError ? <Alert severity="error">Your subscription could not be loaded.</Alert> : null}
      {data ? (
        <CurrentPlanCard
          plan={data.current.plan}
          subscription={current}
          next={next}
          addons={boughtAddons(data.addons)}
          renewsAt={data.current.renews_at}
          complimentary={data.current.complimentary}
          endsAt={data.current.ends_at}
          paymentsEnabled={data.payments_enabled}
          canChange={canChange}
          canManage={canManage}
        />
      ) : null}
      {consumption.data ? <UsagePanel consumption={consumption.data} messages={messages.data} /> : null}
      {data ? <BoughtAddons addons={boughtAddons(data.addons)} canManage={canManage} /> : null}
      <PendingSubscriptions
        pending={pending.data?.pending_subscriptions ?? []}
        // A plan scheduled to follow the current one is told (and undone) on the plan's card.
        inProcess={(inProcess.data?.pending_subscriptions ?? []).filter((s) => !s.scheduled)}
        canManage={canManage}
      />
      {me ? <InvoiceTable tenantId={tenantId} /> : null}
    </>
  );
}
