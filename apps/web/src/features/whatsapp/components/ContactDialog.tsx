import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ContactInput, WHATSAPP_TEXTS, type WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useCreateContactMutation } from '../api';

/** A new contact: number with its country code, name, email and comma-separated tags. */
export function ContactDialog({
  account,
  open,
  onClose,
}: {
  account: WhatsAppAccount;
  open: boolean;
  onClose: () => void;
}) {
  const notify = useNotify();
  const [create, creating] = useCreateContactMutation();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [tags, setTags] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setPhone('');
    setName('');
    setEmail('');
    setTags('');
    setProblem(null);
    onClose();
  };
  const onSave = async () => {
    const parsed = ContactInput.safeParse({
      account_id: account.id,
      phone,
      name: name.trim() || undefined,
      email: email.trim() || undefined,
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the contact');
      return;
    }
    try {
      await create(parsed.data).unwrap();
      notify.success(WHATSAPP_TEXTS.contactCreated);
      close();
    } catch (error) {
      setProblem(errorText(error as never, 'The contact could not be created'));
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="wa-contact-title">
      <DialogTitle id="wa-contact-title">Add contact</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label="Phone"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            helperText="With the country code, for example +14155550123"
            required
          />
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} />
          <TextField label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <TextField
            label="Tags"
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            helperText="Separated by commas"
          />
          {problem ? <Alert severity="error">{problem}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button variant="contained" onClick={onSave} disabled={creating.isLoading}>
          Save contact
        </Button>
      </DialogActions>
    </Dialog>
  );
}
