import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import PersonAddAlt from '@mui/icons-material/PersonAddAlt';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { MESSAGES, type Role, type User } from '@parley/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { Can } from '../../permissions/components/Can';
import { useDeleteUserMutation, useTenantUsersQuery } from '../api';
import { AssignBotsDialog } from './AssignBotsDialog';
import { AssignRoleDialog } from './AssignRoleDialog';
import { InviteDialog } from './InviteDialog';

type Props = { me: User; roles: Role[] };

/** The tenant's users with their roles: invite, assign a role, delete. */
export function UsersPanel({ me, roles }: Props) {
  const { data: users = [], isLoading, isError } = useTenantUsersQuery(me.tenant_id);
  const [inviting, setInviting] = useState(false);
  const [assigning, setAssigning] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [assigningBots, setAssigningBots] = useState<User | null>(null);
  return (
    <Card>
      <PanelHeader title="Users">
        <Can I="create" a="Roles">
          <Button variant="contained" startIcon={<PersonAddAlt />} onClick={() => setInviting(true)}>
            Invite user
          </Button>
        </Can>
      </PanelHeader>
      {isLoading ? <LinearProgress aria-label="Loading users" /> : null}
      {isError ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {MESSAGES.users.unexpected}
        </Alert>
      ) : null}
      <TableContainer>
        <Table aria-label="Users" size="small">
          <TableHead>
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Username</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Roles</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isMe={user.id === me.id}
                onAssign={setAssigning}
                onAssignBots={setAssigningBots}
                onDelete={setDeleting}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <InviteDialog open={inviting} roles={roles} onClose={() => setInviting(false)} />
      <AssignRoleDialog
        key={assigning?.id ?? 0}
        user={assigning}
        roles={roles}
        onClose={() => setAssigning(null)}
      />
      <AssignBotsDialog
        key={`bots-${assigningBots?.id ?? 0}`}
        me={me}
        // The list's copy, so a reload after a save shows the user's current all_bots.
        user={users.find((u) => u.id === assigningBots?.id) ?? assigningBots}
        onClose={() => setAssigningBots(null)}
      />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

type RowProps = {
  user: User;
  isMe: boolean;
  onAssign: (u: User) => void;
  onAssignBots: (u: User) => void;
  onDelete: (u: User) => void;
};

function RoleChips({ user }: { user: User }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {user.roles.map((role) => (
        <Chip key={role.id} size="small" label={role.name} color={role.is_owner ? 'primary' : 'default'} />
      ))}
    </Stack>
  );
}

function UserRow({ user, isMe, onAssign, onAssignBots, onDelete }: RowProps) {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return (
    <TableRow data-testid={`user-row-${user.email}`}>
      <TableCell sx={{ maxWidth: { xs: 180, sm: 280 } }}>
        <Typography fontWeight={600} noWrap>
          {name}
          {isMe ? ' (you)' : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {user.email}
        </Typography>
        {/* Phones have no room for a Roles column: the roles go under the name. */}
        <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
          <RoleChips user={user} />
        </Box>
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{user.username}</TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
        <RoleChips user={user} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
        <Can I="write" a="Roles">
          <Tooltip title="Assign role">
            <IconButton aria-label={`Assign a role to ${user.email}`} onClick={() => onAssign(user)}>
              <ManageAccountsOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title="Assign bots">
            <IconButton aria-label={`Assign bots to ${user.email}`} onClick={() => onAssignBots(user)}>
              <SmartToyOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title={isMe ? 'You cannot delete yourself' : 'Delete user'}>
            <span>
              <IconButton aria-label={`Delete ${user.email}`} onClick={() => onDelete(user)} disabled={isMe}>
                <DeleteOutline />
              </IconButton>
            </span>
          </Tooltip>
        </Can>
      </TableCell>
    </TableRow>
  );
}

function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [remove, { isLoading }] = useDeleteUserMutation();
  const notify = useNotify();
  const confirm = async () => {
    if (!user) return;
    const result = await remove(user.id);
    // The server's detail is shown by the global error toast on failure (spec section 8, Users).
    if ('data' in result && result.data) notify.success(result.data.message);
    onClose();
  };
  return (
    <ConfirmDialog
      open={Boolean(user)}
      title="Delete user"
      text={
        user
          ? `Delete ${user.email}? They lose access to this workspace at once, and invitations they sent that nobody has accepted are withdrawn.`
          : ''
      }
      confirmLabel="Delete"
      busy={isLoading}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
