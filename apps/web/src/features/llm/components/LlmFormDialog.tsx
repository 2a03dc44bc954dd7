import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CreateLlmBody,
  LLM_PROVIDER_LABELS,
  LLM_PROVIDERS,
  type LlmProvider,
  type LlmSetting,
  providerNeedsBaseUrl,
  UpdateLlmBody,
} from '@parley/contracts';
import { serverDetail } from '../../../shared/api/errors';
import { SelectField } from '../../../shared/components/SelectField';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useCreateLlmMutation, useUpdateLlmMutation } from '../api';

type Props = {
  open: boolean;
  /** The model to edit; absent to add one. */
  setting: LlmSetting | null;
  onClose: () => void;
};

/** Where each provider's API usually lives, shown under the base URL. */
const BASE_URL_HINTS: Record<LlmProvider, string> = {
  openai: 'Optional: leave empty for api.openai.com, or a proxy ending in /v1',
  'openai-compatible':
    'Required, ending in /v1: Ollama http://localhost:11434/v1, LM Studio http://localhost:1234/v1, OpenRouter https://openrouter.ai/api/v1',
  azure: 'Required: https://<resource>.openai.azure.com/openai/v1',
  anthropic: 'Optional: leave empty for api.anthropic.com',
  google: 'Optional: leave empty for the Gemini API',
};

const providerOptions = LLM_PROVIDERS.map((value) => ({ value, label: LLM_PROVIDER_LABELS[value] }));

/** Add or edit a model. On edit an empty key keeps the stored one; the key is never shown back. */
export function LlmFormDialog({ open, setting, onClose }: Props) {
  const editing = setting !== null;
  const [create, created] = useCreateLlmMutation();
  const [update, updated] = useUpdateLlmMutation();
  const notify = useNotify();
  const form = useZodForm(editing ? UpdateLlmBody : CreateLlmBody, {
    defaultValues: {
      name: setting?.name ?? '',
      provider: setting?.provider ?? 'openai-compatible',
      base_url: setting?.base_url ?? '',
      model: setting?.model ?? '',
      api_key: '',
      embedding_model: setting?.embedding_model ?? '',
    },
  });
  const provider = form.watch('provider') as LlmProvider;
  const error = (editing ? updated.error : created.error) ?? null;
  const busy = created.isLoading || updated.isLoading;

  const close = () => {
    created.reset();
    updated.reset();
    onClose();
  };
  // The server tests the model as it saves it: a passing one is active (the spec's text), a failing
  // one is kept inactive and the page's Status column says why (the message says so too).
  const onSubmit = form.handleSubmit(async (body) => {
    const result = setting ? await update({ id: setting.id, body }) : await create(body);
    if ('data' in result && result.data) {
      const saved = result.data;
      if (saved.last_test && !saved.last_test.ok) notify.error(saved.message);
      else notify.success(saved.message);
      close();
    }
  });

  const hinted = (props: ReturnType<typeof fieldProps>, hint: string) => ({
    ...props,
    helperText: props.helperText ?? hint,
  });
  const title = editing ? 'Edit model' : 'Add model';
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="llm-form-title">
      <DialogTitle id="llm-form-title">{title}</DialogTitle>
      <Stack component="form" onSubmit={onSubmit} noValidate aria-label={title}>
        <DialogContent sx={{ pt: 1 }}>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {error ? (
              <Alert severity="error">{serverDetail(error) ?? 'The model could not be saved'}</Alert>
            ) : null}
            <TextInput label="Name" autoFocus autoComplete="off" {...fieldProps(form, 'name')} />
            <SelectField control={form.control} name="provider" label="Provider" options={providerOptions} />
            <TextInput
              label={providerNeedsBaseUrl(provider) ? 'Base URL' : 'Base URL (optional)'}
              autoComplete="off"
              {...hinted(fieldProps(form, 'base_url', { optional: true }), BASE_URL_HINTS[provider])}
            />
            <TextInput
              label="Model"
              autoComplete="off"
              {...hinted(
                fieldProps(form, 'model'),
                provider === 'azure'
                  ? 'The deployment name'
                  : 'e.g. gpt-4o-mini, llama3.2, claude-sonnet-4-5',
              )}
            />
            <TextInput
              label="API key"
              type="password"
              autoComplete="new-password"
              {...hinted(
                fieldProps(form, 'api_key', { optional: true }),
                setting?.api_key_masked
                  ? `Stored as ${setting.api_key_masked}; leave empty to keep it`
                  : 'Stored encrypted and never shown again',
              )}
            />
            <TextInput
              label="Embedding model (optional)"
              autoComplete="off"
              {...fieldProps(form, 'embedding_model', { optional: true })}
            />
            <Typography variant="body2" color="text.secondary">
              Saving tests the model with a tiny real call: it is active only if it answers.
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Saving and testing…' : editing ? 'Save changes' : 'Add model'}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
