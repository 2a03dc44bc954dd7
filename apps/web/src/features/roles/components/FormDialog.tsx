import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { FormEventHandler, ReactNode } from 'react';

type Props = {
  open: boolean;
  id: string;
  title: string;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: FormEventHandler;
  onClose: () => void;
  children: ReactNode;
};

/** A dialog holding one form: title, error, fields, Cancel and submit. */
export function FormDialog({
  open,
  id,
  title,
  error,
  busy,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: Props) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <Stack component="form" onSubmit={onSubmit} noValidate aria-label={title}>
        <DialogContent sx={{ pt: 1 }}>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
