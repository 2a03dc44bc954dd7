import CancelScheduleSendOutlined from '@mui/icons-material/CancelScheduleSendOutlined';
import ContentCopy from '@mui/icons-material/ContentCopy';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { MESSAGES, type PendingInvitation } from '@parley/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { copyText } from '../../../shared/lib/clipboard';
import { Can } from '../../permissions/components/Can';
import { useAbility } from '../../permissions/hooks/useAbility';
import { usePendingInvitationsQuery, useResendInvitationMutation, useRevokeInvitationMutation } from '../api';

const day = (iso: string) => new Date(iso).toLocaleDateString();
const hideOnPhones = { display: { xs: 'none', md: 'table-cell' } };

/**
 * Invitations sent and not yet answered: who, with which role, by whom, when; their sign-up link to
 * copy (people who may invite see it: without SMTP it is how the invitation reaches anyone), resend
 * or revoke. Expired ones stay, marked, so the inviter learns the person never joined.
 */
export function PendingInvitationsPanel() {
  const { data: invitations = [], isLoading, isError } = usePendingInvitationsQuery();
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  const showLinks = useAbility().can('create', 'Roles');
  return (
    <Card>
      <PanelHeader title="Pending invitations" />
      {showLinks && invitations.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          Each link signs up the person it was sent to, once, until it expires. Copy it to send it yourself.
          An expired invitation stays here until you resend or revoke it.
        </Typography>
      ) : null}
      {isLoading ? <LinearProgress aria-label="Loading invitations" /> : null}
      {isError ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {MESSAGES.users.unexpected}
        </Alert>
      ) : null}
      {!isLoading && !isError && invitations.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          No invitations are waiting for an answer.
        </Typography>
      ) : null}
      {invitations.length > 0 ? (
        <TableContainer>
          <Table aria-label="Pending invitations" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Email</TableCell>
                <TableCell>Role</TableCell>
                <TableCell sx={hideOnPhones}>Invited by</TableCell>
                <TableCell sx={hideOnPhones}>Sent</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Expires</TableCell>
                {showLinks ? <TableCell sx={hideOnPhones}>Link</TableCell> : null}
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invitations.map((invitation) => (
                <InvitationRow
                  key={invitation.id}
                  invitation={invitation}
                  showLink={showLinks}
                  onRevoke={setRevoking}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      <RevokeDialog invitation={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

type RowProps = {
  invitation: PendingInvitation;
  showLink: boolean;
  onRevoke: (i: PendingInvitation) => void;
};

function InvitationRow({ invitation, showLink, onRevoke }: RowProps) {
  const [resend, { isLoading }] = useResendInvitationMutation();
  const notify = useNotify();
  const { link } = invitation;
  const resendNow = async () => {
    const result = await resend(invitation.id);
    // A failure's detail is shown by the global error toast. Without SMTP the server says to send
    // the new link yourself: the list reloads with it.
    if ('data' in result && result.data) {
      if (result.data.mailed) notify.success(result.data.message);
      else notify.info(result.data.message);
    }
  };
  const copy = async () => {
    if (!link) return;
    if (await copyText(link)) notify.success(MESSAGES.users.inviteLinkCopied);
    else notify.error(`Could not copy the link: select it and copy it yourself. ${link}`);
  };
  return (
    <TableRow data-testid={`invitation-row-${invitation.email}`}>
      <TableCell sx={{ maxWidth: { xs: 160, sm: 280 }, overflowWrap: 'anywhere' }}>
        {invitation.email}
        {invitation.expired ? (
          // Phones have no Expires column: the state goes under the address.
          <Typography variant="caption" color="warning.main" sx={{ display: { xs: 'block', sm: 'none' } }}>
            Expired
          </Typography>
        ) : null}
      </TableCell>
      <TableCell>{invitation.role_name}</TableCell>
      <TableCell sx={hideOnPhones}>{invitation.invited_by ?? '—'}</TableCell>
      <TableCell sx={hideOnPhones}>{day(invitation.sent_at)}</TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
        {invitation.expired ? (
          <Chip size="small" color="warning" label={`Expired ${day(invitation.expires_at)}`} />
        ) : (
          day(invitation.expires_at)
        )}
      </TableCell>
      {showLink ? (
        <TableCell sx={{ ...hideOnPhones, maxWidth: 260 }}>
          {link ? (
            <Typography
              variant="body2"
              title={link}
              data-testid="invitation-link"
              sx={{ fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere', userSelect: 'all' }}
            >
              {link}
            </Typography>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {invitation.expired ? 'Expired: resend to get a new link' : 'Resend to get a link'}
            </Typography>
          )}
        </TableCell>
      ) : null}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
        {showLink ? (
          <Tooltip title={link ? 'Copy the sign-up link' : 'Resend the invitation to get a link'}>
            <span>
              <Button
                size="small"
                variant="outlined"
                startIcon={<ContentCopy fontSize="small" />}
                onClick={copy}
                disabled={!link}
                aria-label={`Copy link for ${invitation.email}`}
                sx={{ mr: 0.5 }}
              >
                Copy link
              </Button>
            </span>
          </Tooltip>
        ) : null}
        <Can I="create" a="Roles">
          <Tooltip
            title={invitation.expired ? 'Resend the invitation for another week' : 'Resend invitation'}
          >
            <span>
              <IconButton
                aria-label={`Resend the invitation to ${invitation.email}`}
                onClick={resendNow}
                disabled={isLoading}
              >
                <ForwardToInboxOutlined />
              </IconButton>
            </span>
          </Tooltip>
        </Can>
        <Can I="write" a="Roles">
          <Tooltip title="Revoke invitation">
            <IconButton
              aria-label={`Revoke the invitation to ${invitation.email}`}
              onClick={() => onRevoke(invitation)}
            >
              <CancelScheduleSendOutlined />
            </IconButton>
          </Tooltip>
        </Can>
      </TableCell>
    </TableRow>
  );
}

function RevokeDialog({
  invitation,
  onClose,
}: {
  invitation: PendingInvitation | null;
  onClose: () => void;
}) {
  const [revoke, { isLoading }] = useRevokeInvitationMutation();
  const notify = useNotify();
  const confirm = async () => {
    if (!invitation) return;
    const result = await revoke(invitation.id);
    if ('data' in result && result.data) notify.success(result.data.message);
    onClose();
  };
  return (
    <ConfirmDialog
      open={Boolean(invitation)}
      title="Revoke invitation"
      text={invitation ? `Revoke the invitation to ${invitation.email}? Its link will no longer work.` : ''}
      confirmLabel="Revoke"
      busy={isLoading}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
