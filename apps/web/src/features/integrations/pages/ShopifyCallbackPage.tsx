import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { StoreResponse } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { AppDispatch } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { storesApi } from '../../stores/api';
import {
  callbackBody,
  connectedText,
  failText,
  SHOPIFY_BOT_KEY,
  storeFailText,
  storePath,
} from '../../stores/model';

type Outcome = { ok: true; response: StoreResponse } | { ok: false; error: string };

/**
 * One exchange per authorization code: a code works once, and React's StrictMode (and a remount)
 * runs the effect twice. Both runs share the first call's outcome.
 */
const exchanges = new Map<string, Promise<Outcome>>();

function readBot(): string | null {
  try {
    return window.sessionStorage.getItem(SHOPIFY_BOT_KEY);
  } catch {
    return null;
  }
}

function forgetBot(): void {
  try {
    window.sessionStorage.removeItem(SHOPIFY_BOT_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/**
 * /integrations/shopify/callback: Shopify returns here after the merchant approves the app. A visitor
 * without a session is sent to /login first and brought back (startup rules), so the callback is
 * never lost. Every query parameter goes to the server (Shopify's HMAC covers them all), with the bot
 * chosen before leaving; on success the store's page opens.
 */
export function ShopifyCallbackPage() {
  const [params] = useSearchParams();
  const dispatch = useDispatch<AppDispatch>();
  const navigate = useNavigate();
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  const query = params.toString();

  useEffect(() => {
    const search = new URLSearchParams(query);
    const code = search.get('code');
    if (!code || !search.get('shop')) {
      setError(search.get('error_description') ?? search.get('error') ?? storeFailText('shopify', 'connect'));
      return;
    }
    let exchange = exchanges.get(code);
    if (!exchange) {
      const body = callbackBody(search, readBot());
      exchange = dispatch(storesApi.endpoints.shopifyCallback.initiate(body))
        .unwrap()
        .then(
          (response): Outcome => ({ ok: true, response }),
          (failure: unknown): Outcome => ({
            ok: false,
            error: failText(failure, storeFailText('shopify', 'connect')),
          }),
        );
      exchanges.set(code, exchange);
    }
    let live = true;
    void exchange.then((outcome) => {
      if (!live) return;
      if (outcome.ok) {
        forgetBot();
        exchanges.delete(code);
        notify.success(connectedText('shopify'));
        navigate(storePath(outcome.response.store), { replace: true });
      } else {
        setError(outcome.error);
      }
    });
    return () => {
      live = false;
    };
  }, [query, dispatch, navigate, notify]);

  return (
    <>
      <PageHeader title="Shopify" />
      {error ? (
        <Box>
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
          <Button component={RouterLink} to="/integrations" variant="contained">
            Back to Integrations
          </Button>
        </Box>
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
          <CircularProgress size={24} aria-label="Connecting your Shopify store" />
          <Typography>Connecting your Shopify store…</Typography>
        </Box>
      )}
    </>
  );
}
