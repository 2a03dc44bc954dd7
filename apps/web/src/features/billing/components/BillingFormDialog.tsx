import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type FormEvent, type ReactNode, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput, type TextInputProps } from '../../../shared/components/TextInput';

export type FieldErrors = Partial<Record<string, string>>;

/** The keys of the fields typed as text, which `text` can render. */
type TextKey<Fields> = { [K in keyof Fields]: Fields[K] extends string ? K : never }[keyof Fields];

type BillingFormOptions<Fields, Body> = {
  /** Prefixes the ids of the inputs, so labels and errors stay tied to them. */
  idPrefix: string;
  initial: () => Fields;
  toBody: (fields: Fields) => { body: Body } | { errors: FieldErrors };
  save: (body: Body) => PromiseLike<{ data: unknown } | { error: unknown }>;
  /** Shown when the server refuses without saying why. */
  failureText: string;
  onClose: () => void;
};

/**
 * The fields of a plan or add-on form, checked in the browser before the save; the server's
 * refusal stays in the dialog, and a save that goes through closes it. Spread `dialogProps` on
 * a BillingFormDialog.
 */
export function useBillingForm<Fields extends object, Body>({
  idPrefix,
  initial,
  toBody,
  save,
  failureText,
  onClose,
}: BillingFormOptions<Fields, Body>) {
  const [fields, setFields] = useState<Fields>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = toBody(fields);
    if ('errors' in parsed) return setErrors(parsed.errors);
    setErrors({});
    setFailure(null);
    const result = await save(parsed.body);
    if ('error' in result) return setFailure(serverDetail(result.error) ?? failureText);
    onClose();
  };

  const text = (key: TextKey<Fields>, label: string, extra: Partial<TextInputProps> = {}) => (
    <TextInput
      id={`${idPrefix}-${String(key)}`}
      label={label}
      value={fields[key]}
      onChange={(e) => set(key, e.target.value as Fields[TextKey<Fields>])}
      error={Boolean(errors[key as string])}
      helperText={errors[key as string]}
      {...extra}
    />
  );

  const dialogProps = { idPrefix, failure, onSubmit: submit, onClose };
  return { fields, set, errors, text, dialogProps };
}

type BillingFormDialogProps = {
  /** Names the title's id, which labels the dialog and its form. */
  idPrefix: string;
  title: string;
  maxWidth: 'sm' | 'md';
  failure: string | null;
  saving: boolean;
  saveLabel: string;
  onSubmit: (event: FormEvent) => void;
  onClose: () => void;
  /** Laid out two to a row on wider screens. */
  grid: ReactNode;
  children?: ReactNode;
};

/** The frame of a plan or add-on dialog: title, the server's refusal, the fields, Cancel and Save. */
export function BillingFormDialog({
  idPrefix,
  title,
  maxWidth,
  failure,
  saving,
  saveLabel,
  onSubmit,
  onClose,
  grid,
  children,
}: BillingFormDialogProps) {
  const titleId = `${idPrefix}-dialog-title`;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth={maxWidth} fullWidth>
      <Box component="form" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, pt: 1 }}>
            {grid}
          </Box>
          {children}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saveLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
