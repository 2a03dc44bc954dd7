import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { leadErrors, leadValues } from '@parley/chat-client';
import type { LeadFormConfig } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { useChatTexts } from '../texts';

type Props = {
  config: LeadFormConfig;
  /** Sends the answers; resolves to the server's error text, or null when they were received. */
  onSubmit: (fields: Record<string, string>) => Promise<string | null>;
  onDismiss?: () => void;
  /** Values the form starts with (the contact form's question). */
  initial?: Record<string, string>;
};

/** The bot's lead form, built from its configuration, with required and email checks before sending. */
export function LeadForm({ config, onSubmit, onDismiss, initial }: Props) {
  const t = useChatTexts();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...initial }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = leadErrors(t, config.fields, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setServerError(null);
    try {
      setServerError(await onSubmit(leadValues(config.fields, values)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      sx={{ p: 1.5 }}
      component="form"
      noValidate
      onSubmit={submit}
      aria-label={config.title}
    >
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {config.title}
      </Typography>
      <Stack spacing={1.25}>
        {config.fields.map((field) => (
          <TextField
            key={field.name}
            size="small"
            label={field.label}
            type={field.type}
            required={field.required}
            value={values[field.name] ?? ''}
            onChange={(event) => setValues((v) => ({ ...v, [field.name]: event.target.value }))}
            error={Boolean(errors[field.name])}
            helperText={errors[field.name]}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        ))}
        {serverError ? <Alert severity="error">{serverError}</Alert> : null}
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" size="small" disabled={busy}>
            {t.send}
          </Button>
          {onDismiss ? (
            <Button size="small" onClick={onDismiss}>
              {t.notNow}
            </Button>
          ) : null}
        </Stack>
      </Stack>
    </Paper>
  );
}
