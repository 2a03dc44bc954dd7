import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AdminWorkspaceDetail } from '@parley/contracts';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useAdminWorkspaceQuery } from '../api';
import { formatDate, formatNumber } from '../format';
import { PlanGrantForm } from './PlanGrantForm';

const limit = (used: number, allowed: number, unlimited: boolean) =>
  unlimited ? `${formatNumber(used)} (no limits)` : `${formatNumber(used)} of ${formatNumber(allowed)}`;

/** One workspace: its plan against its usage, its members and its bots. */
export function WorkspaceDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useAdminWorkspaceQuery(id);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="workspace-title">
      <DialogTitle id="workspace-title">{detail.data?.name ?? 'Workspace'}</DialogTitle>
      <DialogContent>
        {detail.isLoading ? <CircularProgress aria-label="Loading workspace" /> : null}
        {detail.isError ? <Alert severity="error">The workspace could not be loaded.</Alert> : null}
        {detail.data ? <Detail workspace={detail.data} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function Detail({ workspace }: { workspace: AdminWorkspaceDetail }) {
  const { usage, limits, unlimited } = workspace;
  const canWrite = useAbility().can('write', 'Admin');
  return (
    <>
      <Typography variant="body2" gutterBottom>
        Plan <strong>{workspace.plan.name}</strong>
        {workspace.subscription_id ? ` (subscription ${workspace.subscription_id})` : ' (default plan)'} ·
        created {formatDate(workspace.created_at)} · last activity{' '}
        {workspace.last_activity_at ? formatDate(workspace.last_activity_at) : 'never'}
      </Typography>
      <Table size="small" aria-label="Usage">
        <TableBody>
          <TableRow>
            <TableCell>Bots</TableCell>
            <TableCell>{limit(usage.bots, limits.max_chatbots, unlimited)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell>Members</TableCell>
            <TableCell>{limit(usage.members, limits.max_team_members, unlimited)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell>Bot messages this month</TableCell>
            <TableCell>
              {limit(usage.messages_this_month, limits.messages_credits_per_month, unlimited)}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell>Trained characters</TableCell>
            <TableCell>
              {formatNumber(usage.trained_characters)} (per bot:{' '}
              {unlimited ? 'no limit' : formatNumber(limits.trained_characters_per_chatbot)})
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
        Plan
      </Typography>
      <PlanGrantForm workspace={workspace} canWrite={canWrite} />
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Members
      </Typography>
      <Table size="small" aria-label="Members">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Type</TableCell>
            <TableCell>Joined</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {workspace.members.map((member) => (
            <TableRow key={member.id}>
              <TableCell>{member.name}</TableCell>
              <TableCell>{member.email}</TableCell>
              <TableCell>{member.user_type}</TableCell>
              <TableCell>{formatDate(member.created_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Bots
      </Typography>
      <Table size="small" aria-label="Bots">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Public</TableCell>
            <TableCell align="right">Conversations</TableCell>
            <TableCell>Last message</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {workspace.bots.map((bot) => (
            <TableRow key={bot.id}>
              <TableCell>{bot.name}</TableCell>
              <TableCell>{bot.is_public ? 'Yes' : 'No'}</TableCell>
              <TableCell align="right">{formatNumber(bot.conversations)}</TableCell>
              <TableCell>{formatDate(bot.last_message_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
