import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { PLAN_FEATURES, type Plan, type PlanFeature, type PlanInput } from '@parley/contracts';
import { useSavePlanMutation } from '../api';
import {
  FEATURE_LABELS,
  LIMIT_KEYS,
  LIMIT_LABELS,
  type LimitKey,
  minorDigits,
  moneyInput,
  parseCount,
  parseMoney,
} from '../model';
import { BillingFormDialog, type FieldErrors, useBillingForm } from './BillingFormDialog';

type Fields = {
  name: string;
  description: string;
  currency: string;
  price_monthly: string;
  price_yearly: string;
  sort_order: string;
  is_default: boolean;
  is_active: boolean;
  features: Record<PlanFeature, boolean>;
} & Record<LimitKey, string>;

function fieldsOf(plan: Plan | null): Fields {
  const currency = plan?.currency ?? 'USD';
  return {
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    currency,
    price_monthly: plan ? moneyInput(plan.price_monthly, currency) : '',
    price_yearly: plan ? moneyInput(plan.price_yearly, currency) : '',
    sort_order: String(plan?.sort_order ?? 0),
    is_default: plan?.is_default ?? false,
    is_active: plan?.is_active ?? true,
    features: Object.fromEntries(PLAN_FEATURES.map((f) => [f, plan?.[f] ?? false])) as Record<
      PlanFeature,
      boolean
    >,
    max_chatbots: String(plan?.max_chatbots ?? 1),
    max_team_members: String(plan?.max_team_members ?? 1),
    messages_credits_per_month: String(plan?.messages_credits_per_month ?? 100),
    trained_characters_per_chatbot: String(plan?.trained_characters_per_chatbot ?? 400_000),
    chat_history_retention: String(plan?.chat_history_retention ?? 30),
  };
}

/** The body to send, or the errors of the fields (prices parsed as text into minor units). */
function toBody(f: Fields): { body: PlanInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const currency = f.currency.trim().toUpperCase();
  if (!f.name.trim()) errors.name = 'Name is required';
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'A three-letter code like USD';
  const digits = minorDigits(currency);
  const monthly = parseMoney(f.price_monthly, digits);
  const yearly = parseMoney(f.price_yearly, digits);
  if (!monthly.ok) errors.price_monthly = monthly.error;
  if (!yearly.ok) errors.price_yearly = yearly.error;
  const limits = {} as Record<LimitKey, number>;
  for (const key of LIMIT_KEYS) {
    const n = parseCount(f[key]);
    if (n === null) errors[key] = 'A whole number, 0 or more';
    else limits[key] = n;
  }
  const sort = parseCount(f.sort_order, 1000);
  if (sort === null) errors.sort_order = 'A whole number from 0 to 1000';
  if (Object.keys(errors).length > 0 || !monthly.ok || !yearly.ok || sort === null) return { errors };
  return {
    body: {
      ...f.features,
      ...limits,
      name: f.name.trim(),
      description: f.description.trim(),
      currency,
      price_monthly: monthly.minor,
      price_yearly: yearly.minor,
      is_default: f.is_default,
      is_active: f.is_active,
      sort_order: sort,
    },
  };
}

/** Create or edit a plan: prices as decimal text, limits, features, default and active. */
export function PlanDialog({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const [save, state] = useSavePlanMutation();
  const { fields, set, errors, text, dialogProps } = useBillingForm({
    idPrefix: 'plan',
    initial: () => fieldsOf(plan),
    toBody,
    save: (body: PlanInput) => save({ id: plan?.id, body }),
    failureText: 'The plan could not be saved.',
    onClose,
  });

  return (
    <BillingFormDialog
      {...dialogProps}
      title={plan ? `Edit ${plan.name}` : 'New plan'}
      maxWidth="md"
      saving={state.isLoading}
      saveLabel="Save plan"
      grid={
        <>
          {text('name', 'Name')}
          {text('currency', 'Currency')}
          <Box sx={{ gridColumn: '1 / -1' }}>
            {text('description', 'Description', { multiline: true, minRows: 2 })}
          </Box>
          {text('price_monthly', 'Monthly price', { inputProps: { inputMode: 'decimal' } })}
          {text('price_yearly', 'Yearly price', { inputProps: { inputMode: 'decimal' } })}
          {LIMIT_KEYS.map((key) => (
            <Box key={key}>
              {text(key, LIMIT_LABELS[key], {
                inputProps: { inputMode: 'numeric' },
                ...(key === 'chat_history_retention' && !errors[key]
                  ? { helperText: 'Days; 0 keeps it for ever' }
                  : {}),
              })}
            </Box>
          ))}
          {text('sort_order', 'Sort order', { inputProps: { inputMode: 'numeric' } })}
        </>
      }
    >
      <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 1 }}>
        Features
      </Typography>
      <FormGroup
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' } }}
      >
        {PLAN_FEATURES.map((feature) => (
          <FormControlLabel
            key={feature}
            control={
              <Checkbox
                checked={fields.features[feature]}
                onChange={(e) => set('features', { ...fields.features, [feature]: e.target.checked })}
              />
            }
            label={FEATURE_LABELS[feature]}
          />
        ))}
      </FormGroup>
      <Box sx={{ display: 'flex', gap: 3, mt: 2, flexWrap: 'wrap' }}>
        <FormControlLabel
          control={
            <Switch checked={fields.is_default} onChange={(e) => set('is_default', e.target.checked)} />
          }
          label="Default plan (new workspaces)"
        />
        <FormControlLabel
          control={<Switch checked={fields.is_active} onChange={(e) => set('is_active', e.target.checked)} />}
          label="Active (offered)"
        />
      </Box>
    </BillingFormDialog>
  );
}
