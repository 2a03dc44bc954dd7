import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { STORE_TEXTS } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { TextInput } from '../../../shared/components/TextInput';
import { BotLinkSelect } from '../../social/components/BotLinkSelect';
import { useConnectShopifyMutation } from '../api';
import { useMyBots } from '../hooks/useMyBots';
import { failText, isShopDomain, SHOPIFY_BOT_KEY, shopDomainOf, storeFailText } from '../model';

function rememberBot(botId: number | null) {
  try {
    if (botId === null) window.sessionStorage.removeItem(SHOPIFY_BOT_KEY);
    else window.sessionStorage.setItem(SHOPIFY_BOT_KEY, String(botId));
  } catch {
    // Storage unavailable: the store connects without a bot.
  }
}

/** Asks for the shop address (and a bot), then sends the browser to Shopify to approve the app. */
export function ConnectShopifyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const bots = useMyBots();
  const [connect, connecting] = useConnectShopifyMutation();
  const [shop, setShop] = useState('');
  const [botId, setBotId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isShopDomain(shop)) {
      setError(STORE_TEXTS.shopDomainInvalid);
      return;
    }
    setError(null);
    try {
      const { authorization_url } = await connect({
        shop_url: shopDomainOf(shop),
        ...(botId !== null ? { bot_id: botId } : {}),
      }).unwrap();
      rememberBot(botId);
      setLeaving(true);
      window.location.assign(authorization_url);
    } catch (failure) {
      setError(failText(failure, storeFailText('shopify', 'connect')));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="connect-shopify-title" fullWidth maxWidth="sm">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle id="connect-shopify-title">Connect Shopify</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Enter your store's Shopify address. You will approve Parley in Shopify and come back here.
          </DialogContentText>
          <Stack spacing={2}>
            <TextInput
              id="shopify-shop"
              label="Store address"
              placeholder="your-store.myshopify.com"
              value={shop}
              onChange={(event) => setShop(event.target.value)}
              error={Boolean(error)}
              helperText="your-store.myshopify.com"
              autoFocus
              autoComplete="off"
            />
            <Stack direction="row" spacing={1} alignItems="center">
              <BotLinkSelect
                title="the new Shopify store"
                botId={botId}
                bots={bots}
                busy={connecting.isLoading || leaving}
                onChange={(value) => setBotId(value === '' ? null : Number(value))}
              />
            </Stack>
            {error ? <Alert severity="error">{error}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!shop.trim() || connecting.isLoading || leaving}
          >
            {leaving ? 'Opening Shopify…' : 'Continue to Shopify'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
