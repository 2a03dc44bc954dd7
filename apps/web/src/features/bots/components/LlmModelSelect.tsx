import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Link } from 'react-router';
import { useCompanyModels } from '../hooks/useCompanyModels';
import { BUILT_IN_MODEL } from '../model-label';

type Props = { value: string | null; onChange: (value: string | null) => void; error?: string };

/** The model that answers: the built-in extractive answerer, or one of the tenant's active LLMs. */
export function LlmModelSelect({ value, onChange, error }: Props) {
  const models = useCompanyModels();
  const active = models.filter((m) => m.is_active || String(m.id) === value);
  const known = value === null || active.some((m) => String(m.id) === value);
  return (
    <Stack direction="row" spacing={1} alignItems="flex-start">
      <TextField
        select
        fullWidth
        size="small"
        id="field-llm_model"
        label="Model"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
        error={Boolean(error)}
        helperText={
          error ??
          (value === null
            ? 'The built-in answerer quotes your sources (no temperature, no internet search). Add models in LLM settings.'
            : 'Add or activate models in LLM settings.')
        }
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{BUILT_IN_MODEL}</MenuItem>
        {active.map((model) => (
          <MenuItem key={model.id} value={String(model.id)}>
            {model.name} ({model.provider}: {model.model}){model.is_active ? '' : ' (inactive)'}
          </MenuItem>
        ))}
        {known ? null : <MenuItem value={value ?? ''}>Model {value} (not available)</MenuItem>}
      </TextField>
      <Button component={Link} to="/bot/llm-settings" sx={{ whiteSpace: 'nowrap', mt: 0.5 }}>
        LLM settings
      </Button>
    </Stack>
  );
}
