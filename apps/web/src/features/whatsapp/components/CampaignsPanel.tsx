import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { WHATSAPP_TEXTS, type WhatsAppAccount, type WhatsAppCampaign } from '@parley/contracts';
import { lazy, Suspense, useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useCampaignActionMutation, useCampaignsQuery } from '../api';
import { CAMPAIGN_POLL_MS, CAMPAIGN_STATUS_COLORS, funnelOf, isLive } from '../model';
import { CampaignWizard } from './CampaignWizard';

// The chart library is large: loaded when a campaign's details are first opened.
const CampaignDetail = lazy(async () => ({ default: (await import('./CampaignDetail')).CampaignDetail }));

/** The number's campaigns with their status and counts; new (wizard), send, pause, resume, delete, details. */
export function CampaignsPanel({ account }: { account: WhatsAppAccount }) {
  const ability = useAbility();
  const [polling, setPolling] = useState(false);
  const campaigns = useCampaignsQuery(account.id, { pollingInterval: polling ? CAMPAIGN_POLL_MS : 0 });
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const live = (campaigns.data ?? []).some((c) => isLive(c));
  if (live !== polling) setPolling(live);
  const open = campaigns.data?.find((c) => c.id === openId) ?? null;

  return (
    <>
      {ability.can('create', 'Create Bot') ? (
        <Button variant="contained" onClick={() => setCreating(true)} sx={{ mb: 2 }}>
          New campaign
        </Button>
      ) : null}
      {campaigns.isLoading ? <CircularProgress aria-label="Loading campaigns" /> : null}
      {campaigns.isError ? <Alert severity="error">The campaigns could not be loaded.</Alert> : null}
      {campaigns.data?.length === 0 ? <Typography color="text.secondary">No campaign yet.</Typography> : null}
      {campaigns.data?.length ? (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 3 }}>
          <Table size="small" aria-label="Campaigns">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Template</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Recipients</TableCell>
                <TableCell align="right">Sent</TableCell>
                <TableCell align="right">Delivered</TableCell>
                <TableCell align="right">Read</TableCell>
                <TableCell align="right">Failed</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {campaigns.data.map((campaign) => (
                <CampaignRow
                  key={campaign.id}
                  campaign={campaign}
                  open={campaign.id === openId}
                  onOpen={() => setOpenId(campaign.id === openId ? null : campaign.id)}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {open ? (
        <Suspense fallback={<CircularProgress aria-label="Loading the campaign" />}>
          <CampaignDetail campaign={open} />
        </Suspense>
      ) : null}
      {creating ? <CampaignWizard account={account} onClose={() => setCreating(false)} /> : null}
    </>
  );
}

function CampaignRow({
  campaign,
  open,
  onOpen,
}: {
  campaign: WhatsAppCampaign;
  open: boolean;
  onOpen: () => void;
}) {
  const ability = useAbility();
  const notify = useNotify();
  const [act, acting] = useCampaignActionMutation();
  const [confirming, setConfirming] = useState(false);
  const mayWrite = ability.can('write', 'Create Bot');
  const { counts, status } = campaign;
  const funnel = funnelOf(counts);

  const run = async (action: 'send' | 'pause' | 'resume' | 'delete') => {
    try {
      const { message } = await act({ id: campaign.id, accountId: campaign.account_id, action }).unwrap();
      notify.success(message || (action === 'delete' ? WHATSAPP_TEXTS.campaignDeleted : ''));
    } catch (error) {
      notify.error(
        errorText(error as never, `The campaign could not be ${action === 'send' ? 'sent' : `${action}d`}`),
      );
    } finally {
      setConfirming(false);
    }
  };

  return (
    <TableRow aria-label={campaign.name} selected={open}>
      <TableCell sx={{ fontWeight: 500 }}>
        {campaign.name}
        {campaign.scheduled_at && status === 'scheduled' ? (
          <Typography variant="caption" display="block" color="text.secondary">
            {new Date(campaign.scheduled_at).toLocaleString()}
          </Typography>
        ) : null}
        {campaign.error ? (
          <Typography variant="caption" display="block" color="error">
            {campaign.error}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell>{campaign.template_name ?? '—'}</TableCell>
      <TableCell>
        <Chip
          size="small"
          label={status}
          color={CAMPAIGN_STATUS_COLORS[status] ?? 'default'}
          data-testid="campaign-status"
        />
      </TableCell>
      <TableCell align="right">{counts.recipients}</TableCell>
      <TableCell align="right">{funnel.sent}</TableCell>
      <TableCell align="right">{funnel.delivered}</TableCell>
      <TableCell align="right">{funnel.read}</TableCell>
      <TableCell align="right">{counts.failed}</TableCell>
      <TableCell align="right">
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <Button size="small" onClick={onOpen}>
            {open ? 'Hide details' : 'Details'}
          </Button>
          {mayWrite && status === 'draft' ? (
            <Button size="small" variant="outlined" onClick={() => run('send')} disabled={acting.isLoading}>
              Send
            </Button>
          ) : null}
          {mayWrite && status === 'sending' ? (
            <Button size="small" onClick={() => run('pause')} disabled={acting.isLoading}>
              Pause
            </Button>
          ) : null}
          {mayWrite && status === 'paused' ? (
            <Button size="small" onClick={() => run('resume')} disabled={acting.isLoading}>
              Resume
            </Button>
          ) : null}
          {mayWrite && status !== 'sending' ? (
            <Button size="small" color="error" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          ) : null}
        </Stack>
        <ConfirmDialog
          open={confirming}
          title={`Delete ${campaign.name}?`}
          text="The campaign, its logs and its analytics are removed. Messages already sent stay with the customers."
          confirmLabel="Delete"
          busy={acting.isLoading}
          onConfirm={() => run('delete')}
          onClose={() => setConfirming(false)}
        />
      </TableCell>
    </TableRow>
  );
}
