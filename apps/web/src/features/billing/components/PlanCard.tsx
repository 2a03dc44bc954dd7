import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { BillingCycle, Plan } from '@parley/contracts';
import { useId } from 'react';
import {
  CYCLE_UNIT,
  formatMoney,
  isFree,
  LIMIT_KEYS,
  LIMIT_LABELS,
  limitText,
  type PlanAction,
  priceOf,
  yearlySaving,
} from '../model';

type Props = {
  plan: Plan;
  cycle: BillingCycle;
  action: PlanAction;
  /** The plan that applies now (whatever its cycle). */
  isCurrent: boolean;
  /** Chosen through a link (the planId of the URL). */
  highlighted: boolean;
  canBuy: boolean;
  busy: boolean;
  /** When choosing it does not start it at once, or cannot yet: said under the button. */
  note?: string;
  /** Not choosable now (a change is already scheduled). */
  blocked?: boolean;
  onChoose: (plan: Plan) => void;
};

/** One plan side by side with the others: price for the cycle, saving, limits and its button. */
export function PlanCard({
  plan,
  cycle,
  action,
  isCurrent,
  highlighted,
  canBuy,
  busy,
  note,
  blocked = false,
  onChoose,
}: Props) {
  const titleId = useId();
  const price = priceOf(plan, cycle);
  const saving = cycle === 'yearly' ? yearlySaving(plan) : null;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        borderColor: highlighted || isCurrent ? 'primary.main' : undefined,
        borderWidth: highlighted ? 2 : 1,
      }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minHeight: 32 }}>
          <Typography id={titleId} variant="h6" component="h3" sx={{ flex: 1 }}>
            {plan.name}
          </Typography>
          {isCurrent ? <Chip size="small" color="primary" label="Current plan" /> : null}
          {highlighted && !isCurrent ? <Chip size="small" color="secondary" label="Selected" /> : null}
        </Box>
        <Typography variant="h4" component="p" fontWeight={600} sx={{ mt: 1 }}>
          {isFree(plan) ? 'Free' : formatMoney(price, plan.currency, { trimZeros: true })}
          {isFree(plan) ? null : (
            <Typography component="span" variant="body1" color="text.secondary">
              {' '}
              / {CYCLE_UNIT[cycle]}
            </Typography>
          )}
        </Typography>
        <Typography variant="body2" color="success.main" sx={{ minHeight: 20 }}>
          {saving && saving.amount > 0
            ? `Save ${formatMoney(saving.amount, plan.currency, { trimZeros: true })} a year (${saving.percent}%)`
            : ''}
        </Typography>
        {plan.description ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {plan.description}
          </Typography>
        ) : null}
        <Box
          component="dl"
          sx={{ m: 0, mt: 2, display: 'grid', gridTemplateColumns: '1fr auto', rowGap: 0.5, columnGap: 2 }}
        >
          {LIMIT_KEYS.map((key) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {LIMIT_LABELS[key]}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right' }}>
                {limitText(key, plan[key])}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
      <CardActions sx={{ p: 2, pt: 0, flexDirection: 'column', alignItems: 'stretch', gap: 1 }}>
        {action.kind === 'current' ? (
          <Button fullWidth variant="outlined" disabled>
            Your current plan
          </Button>
        ) : action.kind === 'free' ? (
          <Typography variant="caption" color="text.secondary">
            Cancel your subscription to return to {plan.name} at the end of the period.
          </Typography>
        ) : (
          <Button
            fullWidth
            variant={highlighted ? 'contained' : 'outlined'}
            onClick={() => onChoose(plan)}
            disabled={!canBuy || busy || blocked}
          >
            Choose {plan.name}
          </Button>
        )}
        {note && action.kind === 'subscribe' && canBuy ? (
          <Typography variant="caption" color="text.secondary" sx={{ ml: '0 !important' }}>
            {note}
          </Typography>
        ) : null}
      </CardActions>
    </Card>
  );
}
