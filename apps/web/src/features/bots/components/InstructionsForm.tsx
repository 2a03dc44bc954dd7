import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { BOT } from '@parley/contracts';
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

/** Instructions (the system prompt), the model, its temperature, sources per answer and internet access. */
export function InstructionsForm({ form, withAnalytics }: Props) {
  const { control } = form;
  // The built-in answerer (no model) quotes the sources: temperature and internet search mean nothing to it.
  const builtIn = (form.watch('llm_model') ?? null) === null;
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
      {builtIn ? null : (
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
      )}
      <Controller
        control={control}
        name="max_citations"
        render={({ field, fieldState }) => (
          <TextField
            select
            label="Sources per answer"
            value={field.value ?? BOT.defaultCitations}
            onChange={(event) => field.onChange(Number(event.target.value))}
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message ?? 'The most pages listed under an answer, each once.'}
            sx={{ maxWidth: 260 }}
          >
            {Array.from({ length: BOT.maxCitations }, (_, i) => i + 1).map((n) => (
              <MenuItem key={n} value={n}>
                {n}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="human_button"
        render={({ field }) => (
          <TextField
            select
            label="Talk to a person"
            value={field.value ?? 'after_miss'}
            onChange={(event) => field.onChange(event.target.value)}
            helperText="When visitors see the button that hands the chat to your team."
            sx={{ maxWidth: 360 }}
          >
            <MenuItem value="always">Always</MenuItem>
            <MenuItem value="after_miss">After the bot could not answer or was not sure</MenuItem>
            <MenuItem value="never">Never</MenuItem>
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="handoff_confidence"
        render={({ field, fieldState }) => (
          <TextField
            type="number"
            label="Offer a person below this confidence"
            value={field.value ?? BOT.defaultHandoffConfidence}
            onChange={(event) => field.onChange(event.target.value === '' ? '' : Number(event.target.value))}
            slotProps={{ htmlInput: { min: 0, max: 1, step: 0.05 } }}
            error={Boolean(fieldState.error)}
            helperText={
              fieldState.error?.message ??
              'From 0 (never) to 1: the share of the question the best source must cover for the bot to answer.'
            }
            sx={{ maxWidth: 360 }}
          />
        )}
      />
      {builtIn ? null : (
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
      )}
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
