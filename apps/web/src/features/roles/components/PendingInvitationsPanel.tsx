import CancelScheduleSendOutlined from '@mui/icons-material/CancelScheduleSendOutlined';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
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
import { Can } from '../../permissions/components/Can';
import { usePendingInvitationsQuery, useResendInvitationMutation, useRevokeInvitationMutation } from '../api';

const day = (iso: string) => new Date(iso).toLocaleDateString();
const hideOnPhones = { display: { xs: 'none', md: 'table-cell' } };

/** Invitations sent and not yet answered: who, with which role, by whom, when; resend or revoke. */
export function PendingInvitationsPanel() {
  const { data: invitations = [], isLoading, isError } = usePendingInvitationsQuery();
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  return (
    <Card>
      <PanelHeader title="Pending invitations" />
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
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invitations.map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} onRevoke={setRevoking} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      <RevokeDialog invitation={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

type RowProps = { invitation: PendingInvitation; onRevoke: (i: PendingInvitation) => void };

function InvitationRow({ invitation, onRevoke }: RowProps) {
  const [resend, { isLoading }] = useResendInvitationMutation();
  const notify = useNotify();
  const resendNow = async () => {
    const result = await resend(invitation.id);
    // A failure's detail is shown by the global error toast.
    if ('data' in result && result.data) notify.success(result.data.message);
  };
  return (
    <TableRow data-testid={`invitation-row-${invitation.email}`}>
      <TableCell sx={{ maxWidth: { xs: 160, sm: 280 }, overflowWrap: 'anywhere' }}>
        {invitation.email}
      </TableCell>
      <TableCell>{invitation.role_name}</TableCell>
      <TableCell sx={hideOnPhones}>{invitation.invited_by ?? '—'}</TableCell>
      <TableCell sx={hideOnPhones}>{day(invitation.sent_at)}</TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{day(invitation.expires_at)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
        <Can I="create" a="Roles">
          <Tooltip title="Resend invitation">
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
