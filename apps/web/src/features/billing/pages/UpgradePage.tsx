import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type Addon, BILLING_TEXTS, type BillingCycle, type Checkout, type Plan } from '@parley/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { browserStore } from '../../../shared/lib/storage';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  billingApi,
  useAddAddonMutation,
  useAddonsQuery,
  useConsumptionQuery,
  useCreateSubscriptionMutation,
  usePlansQuery,
  useSubscriptionsQuery,
  useUpgradeSubscriptionMutation,
} from '../api';
import { AddonShop } from '../components/AddonShop';
import { PlanCard } from '../components/PlanCard';
import { PlanComparison } from '../components/PlanComparison';
import { useCheckout } from '../hooks/useCheckout';
import {
  addonAdds,
  addonsCarryText,
  bestYearlySaving,
  beyondPlan,
  boughtAddons,
  CYCLE_LABEL,
  CYCLE_UNIT,
  clearStoredAddon,
  clearStoredPlan,
  currentSubscription,
  findPaid,
  formatDate,
  formatMoney,
  newPlanStart,
  planAction,
  priceOf,
  readStoredChoice,
  scheduledChange,
  scheduledText,
  sortPlans,
} from '../model';

/** How long the page waits for Razorpay's webhook before saying it is still on its way. */
const CONFIRM_TIMEOUT_MS = 90_000;
const POLL_MS = 1_500;

type Awaiting =
  /** Back from checkout: the subscription (plan or add-on) Razorpay took the payment for. */
  | { kind: 'checkout'; razorpayId: string; since: number }
  /** A plan changed in place: the plan it should show. */
  | { kind: 'change'; planId: number; cycle: BillingCycle; since: number };

type Outcome = { severity: 'error' | 'info'; text: string };

/**
 * /upgrade: the plans side by side for a monthly or yearly cycle, their comparison, and add-ons.
 * Choosing a plan starts a subscription and opens Razorpay's checkout; back from it, the page waits
 * until the webhook has made the plan active. An active subscription changes plan in place.
 */
export function UpgradePage() {
  const me = useAppSelector((state) => state.session.user);
  const tenantId = me?.tenant_id ?? 0;
  const ability = useAbility();
  const mayBuy = ability.can('create', 'Upgrade');
  const notify = useNotify();
  const dispatch = useDispatch();
  const openCheckout = useCheckout();
  const [params, setParams] = useSearchParams();

  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [preselectedPlan, setPreselectedPlan] = useState<number | null>(null);
  const [preselectedAddon, setPreselectedAddon] = useState<number | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [awaiting, setAwaiting] = useState<Awaiting | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [changing, setChanging] = useState<{ plan: Plan; subscriptionId: number } | null>(null);
  /** A plan chosen to start when the current one ends: confirmed before checkout. */
  const [scheduling, setScheduling] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);

  const plans = usePlansQuery();
  const addons = useAddonsQuery();
  const subscriptions = useSubscriptionsQuery(tenantId, {
    skip: !me,
    refetchOnMountOrArgChange: true,
    pollingInterval: awaiting ? POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });
  const consumption = useConsumptionQuery(tenantId, { skip: !me, refetchOnMountOrArgChange: true });
  const [createSubscription] = useCreateSubscriptionMutation();
  const [addAddon] = useAddAddonMutation();
  const [upgrade, upgradeState] = useUpgradeSubscriptionMutation();

  const sorted = useMemo(() => sortPlans(plans.data ?? []), [plans.data]);
  const data = subscriptions.data;
  const current = data ? currentSubscription(data.subscriptions, data.current.subscription_id) : null;
  const currentPlanId = data?.current.plan.id ?? null;
  const next = data ? scheduledChange(data.subscriptions) : null;
  const startsOn = data && !next ? newPlanStart(current, data.current.ends_at) : null;
  // Nothing can be bought without plans, or without a payment provider: no button offers it.
  const canBuy = mayBuy && !!data?.plans_enabled && data.payments_enabled;

  // Back from a checkout page: ?razorpay_subscription_id=...&status=paid|failed. Read once, then
  // the address is cleaned so a reload does not wait again.
  const returnId = params.get('razorpay_subscription_id');
  const returnStatus = params.get('status');
  useEffect(() => {
    if (!returnId) return;
    if (returnStatus === 'paid') {
      setAwaiting({ kind: 'checkout', razorpayId: returnId, since: Date.now() });
      setOutcome(null);
    } else {
      setOutcome({
        severity: 'error',
        text: 'The payment did not go through and nothing was charged. Choose a plan to try again.',
      });
    }
    setParams({}, { replace: true });
  }, [returnId, returnStatus, setParams]);

  // The plan or add-on chosen in a link (stored at startup) preselects the cards, then is forgotten.
  const usedChoice = useRef(false);
  useEffect(() => {
    if (usedChoice.current || !plans.data || !addons.data) return;
    usedChoice.current = true;
    const store = browserStore();
    const choice = readStoredChoice(store);
    if (choice.planId !== null && plans.data.some((p) => p.id === choice.planId)) {
      setPreselectedPlan(choice.planId);
      if (choice.cycle) setCycle(choice.cycle);
    }
    if (choice.planId !== null || choice.cycle !== null) clearStoredPlan(store);
    if (choice.addOnId !== null && addons.data.some((a) => a.id === choice.addOnId)) {
      const id = choice.addOnId;
      setPreselectedAddon(id);
      setQuantities((q) => ({ ...q, [id]: String(choice.quantity ?? 1) }));
    }
    if (choice.addOnId !== null || choice.quantity !== null) clearStoredAddon(store);
  }, [plans.data, addons.data]);

  // Waiting for the webhook: done when the paid subscription grants (or the changed plan shows).
  useEffect(() => {
    if (!awaiting || !data) return;
    let done: string | null = null;
    if (awaiting.kind === 'checkout') {
      const paid = findPaid(data, awaiting.razorpayId);
      if (paid?.kind === 'plan') done = `Your ${paid.subscription.plan.name} plan is active.`;
      if (paid?.kind === 'scheduled') done = scheduledText(paid.subscription, data.current.plan);
      if (paid?.kind === 'addon')
        done = `${paid.link.addon.name} is active: ${addonAdds(paid.link.addon, paid.link.quantity)}.`;
    } else if (
      data.current.plan.id === awaiting.planId &&
      (!current || current.billing_cycle === awaiting.cycle)
    ) {
      done = `Your plan is now ${data.current.plan.name}.`;
    }
    if (!done) return;
    setAwaiting(null);
    // A toast and the shell's green alert (spec section 8, Display).
    notify.success(done);
    dispatch(billingApi.util.invalidateTags(['Consumption', 'Invoices']));
  }, [awaiting, data, current, notify, dispatch]);

  // ...but not for ever: an add-on bought on the free plan, for one, is listed nowhere here.
  useEffect(() => {
    if (!awaiting) return;
    const timer = setTimeout(
      () => {
        setAwaiting(null);
        setOutcome({
          severity: 'info',
          text: 'Your payment is being confirmed by Razorpay. It will show on the Subscriptions page in a moment.',
        });
      },
      Math.max(0, awaiting.since + CONFIRM_TIMEOUT_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [awaiting]);

  const pay = async (checkout: Checkout) => {
    try {
      const result = await openCheckout(checkout);
      if (result === 'dismissed')
        setOutcome({
          severity: 'info',
          text: 'Checkout was closed before paying. The subscription waits under Pending on the Subscriptions page.',
        });
    } catch (error) {
      notify.error(error instanceof Error ? error.message : 'Razorpay Checkout could not be opened');
    }
  };

  const choose = async (plan: Plan) => {
    if (currentPlanId === null) return;
    const action = planAction(plan, cycle, { planId: currentPlanId, subscription: current });
    if (action.kind === 'change') return setChanging({ plan, subscriptionId: action.subscriptionId });
    if (action.kind !== 'subscribe') return;
    if (startsOn) return setScheduling(plan);
    await subscribe(plan);
  };

  const subscribe = async (plan: Plan) => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await createSubscription({ plan_id: plan.id, billing_cycle: cycle });
      if ('data' in result && result.data) await pay(result.data.checkout);
    } finally {
      setBusy(false);
    }
  };

  const confirmChange = async () => {
    if (!changing) return;
    const { plan, subscriptionId } = changing;
    const result = await upgrade({ subscription_id: subscriptionId, plan_id: plan.id, billing_cycle: cycle });
    setChanging(null);
    if (!('data' in result) || !result.data) return;
    if (result.data.plan_id === plan.id && result.data.billing_cycle === cycle) {
      notify.success(`Your plan is now ${plan.name}.`);
    } else {
      setAwaiting({ kind: 'change', planId: plan.id, cycle, since: Date.now() });
    }
  };

  const add = async (addon: Addon, quantity: number) => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await addAddon({ addon_id: addon.id, quantity });
      if ('data' in result && result.data) await pay(result.data.checkout);
    } finally {
      setBusy(false);
    }
  };

  /** Bots and seats past the plan being chosen: kept, but the owner should know before moving. */
  const beyond = (plan: Plan): string => {
    if (!consumption.data || !data) return '';
    const { limits, plan: now } = data.current;
    const extra = {
      max_chatbots: limits.max_chatbots - now.max_chatbots,
      max_team_members: limits.max_team_members - now.max_team_members,
    };
    const over = beyondPlan(plan, consumption.data, extra);
    return over.length
      ? ` You have ${over.join(' and ')}: they all stay and keep working, but no more can be added until you are within the plan.`
      : '';
  };

  /** Before a plan that starts later: when, what it costs, the limits, and what becomes of the add-ons. */
  const scheduleText = (plan: Plan): string => {
    if (!startsOn || !data) return '';
    const day = formatDate(startsOn);
    const price = `${formatMoney(priceOf(plan, cycle), plan.currency)} a ${CYCLE_UNIT[cycle]}`;
    const addons = addonsCarryText(boughtAddons(data.addons), plan.name, startsOn);
    return [
      `${data.current.plan.name} stays yours until ${day}. ${plan.name} (${price}) starts then: Razorpay only authorises your card now and charges the first ${CYCLE_UNIT[cycle]} on ${day}.${beyond(plan)}`,
      addons,
    ]
      .filter(Boolean)
      .join(' ');
  };

  const saving = bestYearlySaving(sorted);
  const loading = plans.isLoading || (subscriptions.isLoading && !!me);

  return (
    <>
      <PageHeader
        title="Upgrade"
        subtitle="Choose the plan that fits your workspace, and add more when you need it."
        actions={
          <Button component={RouterLink} to="/subscriptions">
            Your subscription
          </Button>
        }
      />
      {awaiting ? (
        <Alert severity="info" icon={<CircularProgress size={20} aria-hidden />} sx={{ mb: 2 }} role="status">
          Payment received. Waiting for Razorpay to confirm it…
        </Alert>
      ) : null}
      {outcome ? (
        <Alert severity={outcome.severity} sx={{ mb: 2 }} onClose={() => setOutcome(null)}>
          {outcome.text}
        </Alert>
      ) : null}
      {data && !data.plans_enabled ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {BILLING_TEXTS.plansOff}
        </Alert>
      ) : null}
      {data?.plans_enabled && !data.payments_enabled ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {BILLING_TEXTS.paymentsOff}
        </Alert>
      ) : null}
      {loading ? <CircularProgress aria-label="Loading plans" /> : null}
      {plans.isError ? <Alert severity="error">The plans could not be loaded.</Alert> : null}

      {sorted.length > 0 && data?.plans_enabled !== false ? (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              value={cycle}
              onChange={(_event, value: BillingCycle | null) => value && setCycle(value)}
              aria-label="Billing cycle"
            >
              <ToggleButton value="monthly">{CYCLE_LABEL.monthly}</ToggleButton>
              <ToggleButton value="yearly">{CYCLE_LABEL.yearly}</ToggleButton>
            </ToggleButtonGroup>
            {saving > 0 ? (
              <Typography variant="body2" color="success.main">
                Save up to {saving}% with yearly billing
              </Typography>
            ) : null}
          </Box>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              mb: 3,
              gridTemplateColumns: {
                xs: '1fr',
                sm: 'repeat(2, 1fr)',
                lg: `repeat(${Math.min(sorted.length, 4)}, 1fr)`,
              },
            }}
          >
            {sorted.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                cycle={cycle}
                action={
                  currentPlanId === null
                    ? { kind: 'subscribe' }
                    : planAction(plan, cycle, { planId: currentPlanId, subscription: current })
                }
                isCurrent={plan.id === currentPlanId}
                highlighted={plan.id === preselectedPlan}
                canBuy={canBuy && currentPlanId !== null}
                busy={busy || awaiting !== null}
                blocked={next !== null}
                note={
                  next
                    ? next.plan.id === plan.id
                      ? scheduledText(next, data!.current.plan)
                      : `${next.plan.name} is scheduled: undo that change on the Subscriptions page to choose another plan.`
                    : startsOn
                      ? `Starts on ${formatDate(startsOn)}, when ${data!.current.plan.name} ends: nothing is charged before.`
                      : undefined
                }
                onChoose={(p) => void choose(p)}
              />
            ))}
          </Box>
          <PlanComparison plans={sorted} />
        </>
      ) : null}

      {data?.plans_enabled && data.payments_enabled ? (
        <AddonShop
          addons={addons.data ?? []}
          quantities={quantities}
          onQuantity={(id, text) => setQuantities((q) => ({ ...q, [id]: text }))}
          highlighted={preselectedAddon}
          canBuy={canBuy}
          busy={busy || awaiting !== null}
          onAdd={(addon, quantity) => void add(addon, quantity)}
        />
      ) : null}

      <ConfirmDialog
        open={changing !== null}
        title={changing ? `Change to ${changing.plan.name}?` : 'Change plan?'}
        text={
          changing
            ? `Your subscription moves to ${changing.plan.name} (${formatMoney(priceOf(changing.plan, cycle), changing.plan.currency)} a ${cycle === 'yearly' ? 'year' : 'month'}) now. Razorpay charges the difference for the rest of this period, or credits it at renewal.${beyond(changing.plan)}`
            : ''
        }
        confirmLabel="Change plan"
        busy={upgradeState.isLoading}
        onConfirm={() => void confirmChange()}
        onClose={() => setChanging(null)}
      />
      <ConfirmDialog
        open={scheduling !== null}
        title={
          scheduling && startsOn ? `Switch to ${scheduling.name} on ${formatDate(startsOn)}?` : 'Switch plan?'
        }
        text={scheduling ? scheduleText(scheduling) : ''}
        confirmLabel="Continue to payment"
        busy={busy}
        onConfirm={() => {
          const plan = scheduling;
          setScheduling(null);
          if (plan) void subscribe(plan);
        }}
        onClose={() => setScheduling(null)}
      />
    </>
  );
}
