import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AFFILIATE_TEXTS, type ReferralLink } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { TablePager } from '../../../shared/components/TablePager';
import { useNotify } from '../../../shared/hooks/useNotify';
import {
  useCreateLinkMutation,
  useDeleteLinkMutation,
  useReferralLinksQuery,
  useUpdateLinkMutation,
} from '../api';
import { formatRate } from '../model';
import { useAffiliatePaging } from './PartnerTables';

type Draft = { code: string; destination: string; campaign: string };

/** The partner's referral links: create, edit, delete, copy, with their clicks and conversions. */
export function LinksSection() {
  const notify = useNotify();
  const { paging, pagerProps } = useAffiliatePaging();
  const links = useReferralLinksQuery(paging);
  const [createLink, creating] = useCreateLinkMutation();
  const [updateLink, updating] = useUpdateLinkMutation();
  const [deleteLink, deleting] = useDeleteLinkMutation();
  const [editing, setEditing] = useState<ReferralLink | 'new' | null>(null);
  const [removing, setRemoving] = useState<ReferralLink | null>(null);

  const save = async (draft: Draft) => {
    const campaign = draft.campaign.trim();
    const result =
      editing === 'new'
        ? await createLink({
            ...(draft.code.trim() ? { code: draft.code.trim() } : {}),
            destination: draft.destination.trim() || '/register',
            ...(campaign ? { campaign } : {}),
          })
        : await updateLink({
            id: (editing as ReferralLink).id,
            body: { destination: draft.destination.trim() || '/register', campaign: campaign || null },
          });
    if ('error' in result) {
      const fallback =
        editing === 'new' ? AFFILIATE_TEXTS.createLinkFailed : AFFILIATE_TEXTS.updateLinkFailed;
      notify.error(serverDetail(result.error) ?? fallback);
      return;
    }
    notify.success(result.data.message);
    setEditing(null);
  };

  const remove = async () => {
    if (!removing) return;
    const result = await deleteLink(removing.id);
    setRemoving(null);
    if ('error' in result) notify.error(serverDetail(result.error) ?? AFFILIATE_TEXTS.deleteLinkFailed);
    else notify.success(result.data.message);
  };

  const copy = (link: ReferralLink) => {
    void navigator.clipboard?.writeText(link.url).then(
      () => notify.info('Link copied'),
      () => undefined,
    );
  };

  return (
    <Box component="section" aria-label="Referral links" sx={{ mb: 4 }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Referral links
        </Typography>
        <Button startIcon={<Add />} variant="contained" onClick={() => setEditing('new')}>
          New link
        </Button>
      </Stack>
      {links.isLoading ? <CircularProgress aria-label="Loading referral links" /> : null}
      {links.isError ? <Alert severity="error">{AFFILIATE_TEXTS.loadLinksFailed}</Alert> : null}
      {links.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Referral links">
              <TableHead>
                <TableRow>
                  <TableCell>Link</TableCell>
                  <TableCell>Lands on</TableCell>
                  <TableCell>Campaign</TableCell>
                  <TableCell align="right">Clicks</TableCell>
                  <TableCell align="right">Conversions</TableCell>
                  <TableCell align="right">Rate</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {links.data.items.map((link) => (
                  <TableRow key={link.id}>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{link.url}</TableCell>
                    <TableCell>{link.destination}</TableCell>
                    <TableCell>{link.campaign ?? ''}</TableCell>
                    <TableCell align="right">{link.clicks}</TableCell>
                    <TableCell align="right">{link.conversions}</TableCell>
                    <TableCell align="right">{formatRate(link.conversion_rate)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <IconButton aria-label={`Copy ${link.code}`} onClick={() => copy(link)}>
                        <ContentCopy fontSize="small" />
                      </IconButton>
                      <IconButton aria-label={`Edit ${link.code}`} onClick={() => setEditing(link)}>
                        <Edit fontSize="small" />
                      </IconButton>
                      <IconButton aria-label={`Delete ${link.code}`} onClick={() => setRemoving(link)}>
                        <Delete fontSize="small" />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {links.data.total === 0 ? (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              No links yet: create one and share it.
            </Typography>
          ) : null}
          <TablePager {...pagerProps(links.data.total)} />
        </>
      ) : null}
      {editing ? (
        <LinkDialog
          link={editing === 'new' ? null : editing}
          busy={creating.isLoading || updating.isLoading}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Delete this link?"
        text="The link stops working. Its referrals and commissions stay."
        confirmLabel="Delete"
        busy={deleting.isLoading}
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
}

type DialogProps = {
  link: ReferralLink | null;
  busy: boolean;
  onSave: (draft: Draft) => void;
  onClose: () => void;
};

function LinkDialog({ link, busy, onSave, onClose }: DialogProps) {
  const [draft, setDraft] = useState<Draft>({
    code: link?.code ?? '',
    destination: link?.destination ?? '/register',
    campaign: link?.campaign ?? '',
  });
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  return (
    <Dialog open onClose={onClose} aria-labelledby="link-dialog-title" fullWidth maxWidth="sm">
      <DialogTitle id="link-dialog-title">{link ? 'Edit referral link' : 'New referral link'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Code"
            value={draft.code}
            onChange={set('code')}
            disabled={link !== null}
            helperText={
              link ? 'The code of a link cannot change.' : 'Optional: 3 to 32 letters, digits or dashes.'
            }
          />
          <TextField
            label="Lands on"
            value={draft.destination}
            onChange={set('destination')}
            helperText="A page of Parley: /register (signup) or any public page, such as /partner."
          />
          <TextField label="Campaign" value={draft.campaign} onChange={set('campaign')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={busy} onClick={() => onSave(draft)}>
          {link ? 'Save' : 'Create link'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
