import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import { ADDON_KINDS, type Addon, type AddonInput, type AddonKind } from '@parley/contracts';
import { useSaveAddonMutation } from '../api';
import { ADDON_KIND_NAMES, minorDigits, moneyInput, parseCount, parseMoney } from '../model';
import { BillingFormDialog, type FieldErrors, useBillingForm } from './BillingFormDialog';

type Fields = {
  name: string;
  description: string;
  kind: AddonKind;
  units: string;
  currency: string;
  price_monthly: string;
  is_active: boolean;
};

function fieldsOf(addon: Addon | null): Fields {
  const currency = addon?.currency ?? 'USD';
  return {
    name: addon?.name ?? '',
    description: addon?.description ?? '',
    kind: addon?.kind ?? 'messages',
    units: String(addon?.units ?? 1),
    currency,
    price_monthly: addon ? moneyInput(addon.price_monthly, currency) : '',
    is_active: addon?.is_active ?? true,
  };
}

function toBody(f: Fields): { body: AddonInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const currency = f.currency.trim().toUpperCase();
  if (!f.name.trim()) errors.name = 'Name is required';
  if (!/^[A-Z]{3}$/.test(currency)) errors.currency = 'A three-letter code like USD';
  const price = parseMoney(f.price_monthly, minorDigits(currency));
  if (!price.ok) errors.price_monthly = price.error;
  const units = parseCount(f.units);
  if (units === null || units < 1) errors.units = 'A whole number, 1 or more';
  if (Object.keys(errors).length > 0 || !price.ok || units === null) return { errors };
  return {
    body: {
      name: f.name.trim(),
      description: f.description.trim(),
      kind: f.kind,
      units,
      currency,
      price_monthly: price.minor,
      is_active: f.is_active,
    },
  };
}

/** Create or edit an add-on: what it adds per unit, its monthly price as decimal text, active. */
export function AddonDialog({ addon, onClose }: { addon: Addon | null; onClose: () => void }) {
  const [save, state] = useSaveAddonMutation();
  const { fields, set, text, dialogProps } = useBillingForm({
    idPrefix: 'addon',
    initial: () => fieldsOf(addon),
    toBody,
    save: (body: AddonInput) => save({ id: addon?.id, body }),
    failureText: 'The add-on could not be saved.',
    onClose,
  });

  return (
    <BillingFormDialog
      {...dialogProps}
      title={addon ? `Edit ${addon.name}` : 'New add-on'}
      maxWidth="sm"
      saving={state.isLoading}
      saveLabel="Save add-on"
      grid={
        <>
          {text('name', 'Name')}
          <FormControl size="small" fullWidth>
            <InputLabel id="addon-kind-label">Kind</InputLabel>
            <Select
              labelId="addon-kind-label"
              id="addon-kind"
              label="Kind"
              value={fields.kind}
              onChange={(e) => set('kind', e.target.value as AddonKind)}
            >
              {ADDON_KINDS.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {ADDON_KIND_NAMES[kind]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Box sx={{ gridColumn: '1 / -1' }}>
            {text('description', 'Description', { multiline: true, minRows: 2 })}
          </Box>
          {text('units', 'Units per quantity', { inputProps: { inputMode: 'numeric' } })}
          {text('currency', 'Currency')}
          {text('price_monthly', 'Monthly price', { inputProps: { inputMode: 'decimal' } })}
        </>
      }
    >
      <FormControlLabel
        sx={{ mt: 2 }}
        control={<Switch checked={fields.is_active} onChange={(e) => set('is_active', e.target.checked)} />}
        label="Active (offered)"
      />
    </BillingFormDialog>
  );
}
