import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import { ADDON_KINDS, type Addon, type AddonInput, type AddonKind } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useSaveAddonMutation } from '../api';
import { ADDON_KIND_NAMES, minorDigits, moneyInput, parseCount, parseMoney } from '../model';

type Fields = {
  name: string;
  description: string;
  kind: AddonKind;
  units: string;
  currency: string;
  price_monthly: string;
  is_active: boolean;
};
type Errors = Partial<Record<keyof Fields, string>>;

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

function toBody(f: Fields): { body: AddonInput } | { errors: Errors } {
  const errors: Errors = {};
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
  const [fields, setFields] = useState<Fields>(() => fieldsOf(addon));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [save, state] = useSaveAddonMutation();
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = toBody(fields);
    if ('errors' in parsed) return setErrors(parsed.errors);
    setErrors({});
    setFailure(null);
    const result = await save({ id: addon?.id, body: parsed.body });
    if ('error' in result) return setFailure(serverDetail(result.error) ?? 'The add-on could not be saved.');
    onClose();
  };

  const text = (
    key: 'name' | 'description' | 'units' | 'currency' | 'price_monthly',
    label: string,
    extra = {},
  ) => (
    <TextInput
      id={`addon-${key}`}
      label={label}
      value={fields[key]}
      onChange={(e) => set(key, e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      {...extra}
    />
  );

  return (
    <Dialog open onClose={onClose} aria-labelledby="addon-dialog-title" maxWidth="sm" fullWidth>
      <Box component="form" onSubmit={submit} noValidate aria-labelledby="addon-dialog-title">
        <DialogTitle id="addon-dialog-title">{addon ? `Edit ${addon.name}` : 'New add-on'}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, pt: 1 }}>
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
          </Box>
          <FormControlLabel
            sx={{ mt: 2 }}
            control={
              <Switch checked={fields.is_active} onChange={(e) => set('is_active', e.target.checked)} />
            }
            label="Active (offered)"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={state.isLoading}>
            Save add-on
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
