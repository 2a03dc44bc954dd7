import StorefrontIcon from '@mui/icons-material/Storefront';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IntegrationStatus } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { canConnect, IntegrationNotice } from '../../integrations/components/IntegrationNotice';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useShopifyStoresQuery, useWooStoresQuery } from '../api';
import { failText, storeFailText } from '../model';
import { ConnectShopifyDialog } from './ConnectShopifyDialog';
import { ConnectWooDialog } from './ConnectWooDialog';
import { PlatformIcon } from './PlatformIcon';
import { StoreCard } from './StoreCard';

const POLL_MS = 1500;

/**
 * Integrations → Online stores: connect Shopify or WooCommerce, and the stores already connected.
 * Shopify says it is not set up on this install before asking for any store.
 */
export function StoresSection({ shopify: shopifyStatus }: { shopify: IntegrationStatus | undefined }) {
  const ability = useAbility();
  const [dialog, setDialog] = useState<'shopify' | 'woocommerce' | null>(null);
  const [polling, setPolling] = useState(false);
  const shopify = useShopifyStoresQuery(undefined, { pollingInterval: polling ? POLL_MS : 0 });
  const woo = useWooStoresQuery(undefined, { pollingInterval: polling ? POLL_MS : 0 });
  const stores = [...(shopify.data?.stores ?? []), ...(woo.data?.stores ?? [])];
  const syncing = stores.some((store) => store.sync.overallStatus === 'syncing');
  // While a store syncs, the cards' bars follow it.
  useEffect(() => setPolling(syncing), [syncing]);
  const mayConnect = ability.can('create', 'Create Bot');

  return (
    <Card variant="outlined" component="section" aria-label="Online stores" sx={{ mt: 3 }}>
      <CardContent>
        <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1 }}>
          <StorefrontIcon color="primary" />
          <Typography variant="h6" component="h2">
            Online stores
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Connect a Shopify or WooCommerce store: its products, pages, policies and orders are synced, trained
          into your bots, and customers can ask the bot about their orders.
        </Typography>
        <IntegrationNotice status={shopifyStatus} />
        {mayConnect ? (
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
            <Button
              variant="contained"
              startIcon={
                <PlatformIcon platform="shopify" sx={{ color: 'inherit' }} titleAccess={undefined} />
              }
              onClick={() => setDialog('shopify')}
              disabled={!shopifyStatus || !canConnect(shopifyStatus)}
            >
              Connect Shopify
            </Button>
            <Button
              variant="outlined"
              startIcon={<PlatformIcon platform="woocommerce" titleAccess={undefined} />}
              onClick={() => setDialog('woocommerce')}
            >
              Connect WooCommerce
            </Button>
          </Stack>
        ) : null}
        {shopify.isError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {failText(shopify.error, storeFailText('shopify', 'fetchStores'))}
          </Alert>
        ) : null}
        {woo.isError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {failText(woo.error, storeFailText('woocommerce', 'fetchStores'))}
          </Alert>
        ) : null}
        {shopify.isLoading || woo.isLoading ? (
          <CircularProgress size={24} aria-label="Loading stores" />
        ) : stores.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No store connected yet.
          </Typography>
        ) : (
          <Box
            role="list"
            aria-label="Connected stores"
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' }}
          >
            {stores.map((store) => (
              <Box role="listitem" key={`${store.platform}-${store.id}`}>
                <StoreCard store={store} />
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
      <ConnectShopifyDialog open={dialog === 'shopify'} onClose={() => setDialog(null)} />
      <ConnectWooDialog open={dialog === 'woocommerce'} onClose={() => setDialog(null)} />
    </Card>
  );
}
