import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { STORE_TEXTS, type Store } from '@parley/contracts';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useDisconnectStoreMutation, useStoreQuery, useTestWooMutation } from '../api';
import { ContentTable } from '../components/ContentTable';
import { PlatformIcon } from '../components/PlatformIcon';
import { StoreBots } from '../components/StoreBots';
import { SyncPanel } from '../components/SyncPanel';
import { TrainingPanel } from '../components/TrainingPanel';
import { useGlobalSync, useGlobalTraining } from '../hooks/useStoreRuns';
import {
  contentTabs,
  disconnectedText,
  failText,
  formatDateTime,
  PLATFORM_LABELS,
  parsePlatform,
  storeFailText,
} from '../model';

const SYNC_STATUS_FAILED = 'Failed to fetch sync status';

/** /integrations/stores/:platform/:id: one store, its sync and training, and its content by type. */
export function StorePage() {
  const params = useParams();
  const platform = parsePlatform(params.platform);
  const storeId = Number(params.id);
  const valid = platform !== null && Number.isInteger(storeId) && storeId > 0;
  const store = useStoreQuery(
    { platform: platform ?? 'shopify', storeId: valid ? storeId : 0 },
    { skip: !valid },
  );

  const back = (
    <Button component={RouterLink} to="/integrations" startIcon={<ArrowBack />} sx={{ mb: 1 }}>
      Integrations
    </Button>
  );
  if (!valid)
    return (
      <>
        {back}
        <Alert severity="error">Store not found</Alert>
      </>
    );
  if (store.isLoading) return <CircularProgress aria-label="Loading store" />;
  if (!store.data)
    return (
      <>
        {back}
        <Alert severity="error">{failText(store.error, storeFailText(platform, 'fetchStore'))}</Alert>
      </>
    );
  return (
    <>
      {back}
      <StoreView store={store.data} />
    </>
  );
}

function StoreView({ store }: { store: Store }) {
  const ability = useAbility();
  const notify = useNotify();
  const navigate = useNavigate();
  const ref = { platform: store.platform, storeId: store.id };
  const mayWrite = ability.can('write', 'Create Bot');
  const sync = useGlobalSync(ref);
  const training = useGlobalTraining(ref);
  const [test, testing] = useTestWooMutation();
  const [disconnect, disconnecting] = useDisconnectStoreMutation();
  const [confirming, setConfirming] = useState(false);
  const [search, setSearch] = useSearchParams();
  const tabs = contentTabs(store.platform);
  const tab = tabs.find((t) => t.type === search.get('tab')) ?? tabs[0]!;

  const onTest = async () => {
    try {
      const result = await test(store.id).unwrap();
      if (result.ok) notify.success(result.message);
      else notify.error(result.message || storeFailText('woocommerce', 'test'));
    } catch (error) {
      notify.error(failText(error, storeFailText('woocommerce', 'test')));
    }
  };
  const onDisconnect = async () => {
    try {
      await disconnect(ref).unwrap();
      notify.success(disconnectedText(store.platform));
      setConfirming(false);
      navigate('/integrations', { replace: true });
    } catch (error) {
      notify.error(failText(error, storeFailText(store.platform, 'disconnect')));
      setConfirming(false);
    }
  };

  return (
    <>
      <PageHeader
        title={store.name}
        subtitle={
          <Stack component="span" direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
            <PlatformIcon platform={store.platform} fontSize="small" />
            <span>
              {PLATFORM_LABELS[store.platform]} · {store.domain}
            </span>
            <Chip
              component="span"
              size="small"
              label={store.status === 'connected' ? 'Connected' : 'Disconnected'}
              color={store.status === 'connected' ? 'success' : 'warning'}
            />
            <span>Last synced: {formatDateTime(store.last_synced_at)}</span>
          </Stack>
        }
        actions={
          mayWrite ? (
            <>
              <Button variant="contained" onClick={sync.start} disabled={sync.busy}>
                Sync all
              </Button>
              <Button variant="contained" color="secondary" onClick={training.start} disabled={training.busy}>
                Train all
              </Button>
              {store.platform === 'woocommerce' ? (
                <Button variant="outlined" onClick={onTest} disabled={testing.isLoading}>
                  Test connection
                </Button>
              ) : null}
              <Button color="error" onClick={() => setConfirming(true)}>
                Disconnect store
              </Button>
            </>
          ) : null
        }
      />
      {store.status === 'disconnected' ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {STORE_TEXTS.storeDisconnected}
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' }, mb: 2 }}>
        <SyncPanel
          status={sync.status.data}
          error={sync.status.isError ? failText(sync.status.error, SYNC_STATUS_FAILED) : null}
        />
        <TrainingPanel
          status={training.status.data}
          error={
            training.status.isError
              ? failText(training.status.error, storeFailText(store.platform, 'trainingStatus'))
              : null
          }
        />
      </Box>
      <Box sx={{ mb: 2 }}>
        <StoreBots store={store} mayWrite={mayWrite} />
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Tabs
          value={tab.type}
          onChange={(_event, value: string) => setSearch({ tab: value }, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          aria-label="Store content"
          sx={{ mb: 2 }}
        >
          {tabs.map((t) => (
            <Tab
              key={t.type}
              value={t.type}
              label={t.label}
              id={`store-tab-${t.type}`}
              aria-controls="store-tabpanel"
            />
          ))}
        </Tabs>
        <Box role="tabpanel" id="store-tabpanel" aria-labelledby={`store-tab-${tab.type}`}>
          <ContentTable key={tab.type} store={store} tab={tab} mayWrite={mayWrite} />
        </Box>
      </Paper>
      <ConfirmDialog
        open={confirming}
        title={`Disconnect ${store.name}?`}
        text="Its synced records and what your bots learnt from them are removed. You can connect the store again later."
        confirmLabel="Disconnect"
        busy={disconnecting.isLoading}
        onConfirm={onDisconnect}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
