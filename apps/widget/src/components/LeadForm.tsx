import { leadErrors, leadValues } from '@parley/chat-client';
import type { LeadFormConfig } from '@parley/contracts';
import { useId, useState } from 'preact/hooks';
import { useTexts } from '../texts';

type Props = {
  config: LeadFormConfig;
  /** Sends the answers; resolves to the server's error text, or null when they were received. */
  onSubmit: (fields: Record<string, string>) => Promise<string | null>;
  onDismiss: () => void;
  /** Values the form starts with (the contact form's question). */
  initial?: Record<string, string>;
};

/** The bot's lead form, built from its configuration, with required and email checks before sending. */
export function LeadForm({ config, onSubmit, onDismiss, initial }: Props) {
  const t = useTexts();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...initial }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The lead form and the contact form can show at once, both asking a name: labels need their own ids.
  const form = useId();

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = leadErrors(t, config.fields, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setServerError(null);
    try {
      setServerError(await onSubmit(leadValues(config.fields, values)));
    } catch {
      setServerError(t.leadFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" noValidate onSubmit={submit} aria-label={config.title} data-testid="lead-form">
      <h3>{config.title}</h3>
      {config.fields.map((field) => {
        const id = `${form}-${field.name}`;
        const error = errors[field.name];
        return (
          <div class="field" key={field.name}>
            <label for={id}>
              {field.label}
              {field.required ? ' *' : ''}
            </label>
            <input
              id={id}
              name={field.name}
              type={field.type}
              required={field.required}
              maxLength={500}
              autoComplete={field.type === 'email' ? 'email' : field.type === 'tel' ? 'tel' : undefined}
              value={values[field.name] ?? ''}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onInput={(event) => {
                const value = (event.currentTarget as HTMLInputElement).value;
                setValues((v) => ({ ...v, [field.name]: value }));
              }}
            />
            {error ? (
              <span class="field-error" id={`${id}-error`}>
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
      {serverError ? (
        <p class="frame error" role="alert">
          {serverError}
        </p>
      ) : null}
      <div class="actions">
        <button class="btn" type="submit" disabled={busy}>
          {t.send}
        </button>
        <button class="btn plain" type="button" onClick={onDismiss}>
          {t.notNow}
        </button>
      </div>
    </form>
  );
}
