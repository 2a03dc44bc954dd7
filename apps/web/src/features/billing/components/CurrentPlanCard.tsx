import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { BILLING_TEXTS, type Plan, type Subscription, type SubscriptionAddon } from '@parley/contracts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useCancelSubscriptionMutation } from '../api';
import {
  addonsCarryText,
  addonsContinueText,
  CYCLE_UNIT,
  canCancel,
  formatDate,
  formatMoney,
  isFree,
  priceOf,
  renewalText,
  scheduledText,
} from '../model';
import { Section } from './Section';
import { StatusChip } from './StatusChip';

type Props = {
  plan: Plan;
  subscription: Subscription | null;
  /** The plan paid to start when this one ends, if any: said here, and undone from here. */
  next: Subscription | null;
  /** The add-ons bought: what becomes of them is said before the plan changes or ends. */
  addons?: readonly SubscriptionAddon[];
  renewsAt: string | null;
  /** Given by a platform admin, not paid; `endsAt` is when it ends (null: it does not). */
  complimentary: boolean;
  endsAt: string | null;
  /** A payment provider is configured: plans can be bought or changed here. */
  paymentsEnabled: boolean;
  canChange: boolean;
  canManage: boolean;
};

/** The plan that applies now: price and cycle, renewal or end date, status; change or cancel it. */
export function CurrentPlanCard({
  plan,
  subscription,
  next,
  addons = [],
  renewsAt,
  complimentary,
  endsAt,
  paymentsEnabled,
  canChange,
  canManage,
}: Props) {
  const [confirming, setConfirming] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const [cancel, cancelState] = useCancelSubscriptionMutation();
  const notify = useNotify();
  const cycle = subscription?.billing_cycle ?? 'monthly';
  const price = complimentary
    ? endsAt
      ? `Given by the Parley team until ${formatDate(endsAt)}`
      : 'Given by the Parley team'
    : isFree(plan)
      ? 'Free'
      : `${formatMoney(priceOf(plan, cycle), plan.currency)} / ${CYCLE_UNIT[cycle]}`;
  const renewal = renewalText(subscription, renewsAt);
  const endDate = formatDate(subscription?.end_date ?? renewsAt);

  const confirm = async () => {
    if (!subscription) return;
    const result = await cancel({ id: subscription.id, atPeriodEnd: true });
    setConfirming(false);
    if ('data' in result && result.data) {
      const until = formatDate(result.data.end_date);
      notify.success(
        until
          ? `Your subscription is cancelled. ${plan.name} stays until ${until}.`
          : 'Your subscription is cancelled.',
      );
    }
  };

  // The scheduled plan has only been authorised: cancelling it now charges nothing.
  const undo = async () => {
    if (!next) return;
    const result = await cancel({ id: next.id, atPeriodEnd: false });
    setUndoing(false);
    if ('data' in result && result.data) notify.success(`${next.plan.name} will not start.`);
  };
  const afterUndo = endDate
    ? `${plan.name} stays yours until ${endDate}; then the workspace moves to the free plan.`
    : `${plan.name} stays yours until the end of its period; then the workspace moves to the free plan.`;
  // Add-ons are billed apart from the plan: they go on to the next plan, or on the free plan.
  const addonsGoOn = addonsContinueText(addons);
  const addonsCarried = next ? addonsCarryText(addons, next.plan.name, next.start_date) : '';

  return (
    <Section
      title="Current plan"
      actions={
        <>
          {canChange ? (
            <Button component={RouterLink} to="/upgrade" variant={paymentsEnabled ? 'contained' : 'outlined'}>
              {paymentsEnabled ? 'Change plan' : 'Compare plans'}
            </Button>
          ) : null}
          {paymentsEnabled && canManage && canCancel(subscription) ? (
            <Button color="error" variant="outlined" onClick={() => setConfirming(true)}>
              Cancel subscription
            </Button>
          ) : null}
        </>
      }
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="p" fontWeight={600}>
          {plan.name}
        </Typography>
        {complimentary ? (
          <Chip size="small" color="success" label="Complimentary" />
        ) : subscription ? (
          <StatusChip
            status={subscription.status}
            label={
              subscription.status === 'active' && !subscription.auto_renew
                ? 'Active until period end'
                : undefined
            }
          />
        ) : (
          <Chip size="small" label="Free plan" />
        )}
      </Box>
      <Typography variant="body1" sx={{ mt: 1 }}>
        {price}
      </Typography>
      {plan.description ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {plan.description}
        </Typography>
      ) : null}
      {paymentsEnabled ? null : (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {BILLING_TEXTS.paymentsOff}
        </Typography>
      )}
      {renewal && !complimentary ? (
        <Typography
          variant="body2"
          sx={{ mt: 1 }}
          color={subscription?.auto_renew ? 'text.primary' : 'warning.main'}
        >
          {renewal}
        </Typography>
      ) : null}
      {next ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mt: 1 }}>
          <Typography variant="body2" color="info.main" role="status">
            {scheduledText(next, plan)}
            {addonsCarried ? ` ${addonsCarried}` : ''}
          </Typography>
          {paymentsEnabled && canManage ? (
            <Button size="small" onClick={() => setUndoing(true)}>
              Undo change
            </Button>
          ) : null}
        </Box>
      ) : null}

      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        aria-labelledby="cancel-subscription-title"
        aria-describedby="cancel-subscription-text"
      >
        <DialogTitle id="cancel-subscription-title">Cancel your {plan.name} subscription?</DialogTitle>
        <DialogContent>
          <DialogContentText id="cancel-subscription-text">
            {endDate
              ? `Nothing more will be charged for ${plan.name}. It stays yours until the end of the period you paid for, on ${endDate}; then the workspace moves to the free plan.`
              : `Nothing more will be charged for ${plan.name}. It stays yours until the end of the period you paid for; then the workspace moves to the free plan.`}
            {addonsGoOn ? ` ${addonsGoOn}` : ''}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Keep subscription</Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={cancelState.isLoading}>
            Cancel subscription
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={undoing}
        onClose={() => setUndoing(false)}
        aria-labelledby="undo-change-title"
        aria-describedby="undo-change-text"
      >
        <DialogTitle id="undo-change-title">Undo the change to {next?.plan.name}?</DialogTitle>
        <DialogContent>
          <DialogContentText id="undo-change-text">
            {`${next?.plan.name} will not start and nothing is charged for it. ${afterUndo}`}
            {addonsGoOn ? ` ${addonsGoOn}` : ''}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setUndoing(false)}>Keep the change</Button>
          <Button color="error" variant="contained" onClick={undo} disabled={cancelState.isLoading}>
            Undo change
          </Button>
        </DialogActions>
      </Dialog>
    </Section>
  );
}
