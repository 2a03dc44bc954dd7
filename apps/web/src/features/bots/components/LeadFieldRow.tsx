import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { LeadFormField } from '@parley/contracts';
import { TextInput } from '../../../shared/components/TextInput';

const TYPES: { value: LeadFormField['type']; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'email', label: 'Email' },
  { value: 'tel', label: 'Phone' },
];

type Props = {
  index: number;
  field: LeadFormField;
  onChange: (next: LeadFormField) => void;
  onRemove: () => void;
};

/** One field of the lead form: label, name (the key it is stored under), type and required. */
export function LeadFieldRow({ index, field, onChange, onRemove }: Props) {
  const n = index + 1;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
      <TextInput
        id={`lead-field-${index}-label`}
        label={`Field ${n} label`}
        value={field.label}
        onChange={(event) => onChange({ ...field, label: event.target.value })}
      />
      <TextInput
        id={`lead-field-${index}-name`}
        label={`Field ${n} name`}
        value={field.name}
        onChange={(event) => onChange({ ...field, name: event.target.value })}
      />
      <TextField
        select
        size="small"
        label={`Field ${n} type`}
        value={field.type}
        onChange={(event) => onChange({ ...field, type: event.target.value as LeadFormField['type'] })}
        sx={{ minWidth: 120 }}
      >
        {TYPES.map((type) => (
          <MenuItem key={type.value} value={type.value}>
            {type.label}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={
          <Checkbox
            checked={field.required}
            onChange={(event) => onChange({ ...field, required: event.target.checked })}
          />
        }
        label="Required"
      />
      <IconButton aria-label={`Remove field ${n}`} onClick={onRemove}>
        ×
      </IconButton>
    </Stack>
  );
}
