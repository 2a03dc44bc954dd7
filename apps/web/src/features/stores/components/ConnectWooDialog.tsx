import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { BotLinkSelect } from '../../social/components/BotLinkSelect';
import { useConnectWooMutation } from '../api';
import { useMyBots } from '../hooks/useMyBots';
import { connectedText, failText, storeFailText, storePath } from '../model';

const EMPTY = { url: '', key: '', secret: '', name: '' };

/** The store address and its REST API keys (WooCommerce → Settings → Advanced → REST API). */
export function ConnectWooDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const bots = useMyBots();
  const [connect, connecting] = useConnectWooMutation();
  const [form, setForm] = useState(EMPTY);
  const [botId, setBotId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { store } = await connect({
        store_url: form.url.trim(),
        consumer_key: form.key.trim(),
        consumer_secret: form.secret.trim(),
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        ...(botId !== null ? { bot_id: botId } : {}),
      }).unwrap();
      notify.success(connectedText('woocommerce'));
      setForm(EMPTY);
      setBotId(null);
      onClose();
      navigate(storePath(store));
    } catch (failure) {
      const text = failText(failure, storeFailText('woocommerce', 'connect'));
      setError(text);
      notify.error(text);
    }
  };

  const ready = form.url.trim() && form.key.trim() && form.secret.trim();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="connect-woo-title" fullWidth maxWidth="sm">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id="connect-woo-title">Connect WooCommerce</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Create a REST API key with Read/Write access in WooCommerce → Settings → Advanced → REST API, then
            paste it here.
          </DialogContentText>
          <Stack spacing={2}>
            <TextInput
              id="woo-url"
              label="Store address"
              placeholder="https://shop.example.com"
              value={form.url}
              onChange={set('url')}
              autoFocus
              autoComplete="url"
            />
            <TextInput
              id="woo-key"
              label="Consumer key"
              placeholder="ck_…"
              value={form.key}
              onChange={set('key')}
              autoComplete="off"
            />
            <TextInput
              id="woo-secret"
              label="Consumer secret"
              type="password"
              placeholder="cs_…"
              value={form.secret}
              onChange={set('secret')}
              autoComplete="off"
            />
            <TextInput
              id="woo-name"
              label="Store name (optional)"
              value={form.name}
              onChange={set('name')}
              helperText="Shown in Parley; the store's own title when left empty."
            />
            <Stack direction="row" spacing={1} alignItems="center">
              <BotLinkSelect
                title="the new WooCommerce store"
                botId={botId}
                bots={bots}
                busy={connecting.isLoading}
                onChange={(value) => setBotId(value === '' ? null : Number(value))}
              />
            </Stack>
            {error ? <Alert severity="error">{error}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!ready || connecting.isLoading}>
            {connecting.isLoading ? 'Connecting…' : 'Connect store'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
