import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, type SchemaInput } from '../../../shared/lib/form';
import type { InstructionsFields } from '../schemas';
import { LlmModelSelect } from './LlmModelSelect';
import { TemperatureSlider } from './TemperatureSlider';

type Props = {
  form: UseFormReturn<SchemaInput<typeof InstructionsFields>, unknown, InstructionsFields>;
  /** The bot page also offers analytics; the wizard leaves it for later. */
  withAnalytics?: boolean;
};

/** Instructions (the system prompt), the model, its temperature and internet access. */
export function InstructionsForm({ form, withAnalytics }: Props) {
  const { control } = form;
  return (
    <Stack spacing={3}>
      <TextInput
        label="Instructions"
        multiline
        minRows={4}
        maxRows={16}
        placeholder="You are the friendly assistant of our shop. Answer briefly and politely."
        {...fieldProps(form, 'prompt')}
      />
      <Controller
        control={control}
        name="llm_model"
        render={({ field, fieldState }) => (
          <LlmModelSelect
            value={field.value ?? null}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="temperature"
        render={({ field, fieldState }) => (
          <TemperatureSlider
            value={field.value ?? 1}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="internet"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />
            }
            label="Allow internet search"
          />
        )}
      />
      {withAnalytics ? (
        <Controller
          control={control}
          name="analytics"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />
              }
              label="Collect analytics"
            />
          )}
        />
      ) : null}
    </Stack>
  );
}
