import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Feature, MESSAGES, type Role } from '@parley/contracts';
import { useState } from 'react';
import { Can } from '../../permissions/components/Can';
import { CreateRoleDialog } from './CreateRoleDialog';
import { DeleteRoleDialog } from './DeleteRoleDialog';
import { EditRoleDialog } from './EditRoleDialog';
import { PermissionMatrix } from './PermissionMatrix';

type Props = { roles: Role[]; features: Feature[]; failed: boolean };

/** Pick a role to see and edit its permissions; create, rename and delete roles (never Owner). */
export function RolesPanel({ roles, features, failed }: Props) {
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Role | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const selected = roles.find((r) => r.id === selectedId) ?? roles.find((r) => !r.is_owner) ?? roles[0];
  return (
    <Card>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flex: '1 1 160px' }}>
          Roles &amp; permissions
        </Typography>
        <TextField
          select
          label="Role"
          id="role-select"
          value={selected?.id ?? ''}
          onChange={(event) => setSelectedId(Number(event.target.value))}
          sx={{ width: { xs: '100%', sm: 240 } }}
          fullWidth={false}
        >
          {roles.map((role) => (
            <MenuItem key={role.id} value={role.id}>
              {role.name}
              {role.is_owner ? ' (owner)' : ''}
            </MenuItem>
          ))}
        </TextField>
        {selected && !selected.is_owner ? (
          <Can I="write" a="Roles">
            <Button startIcon={<EditOutlined />} onClick={() => setEditing(selected)}>
              Edit role
            </Button>
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(selected)}>
              Delete role
            </Button>
          </Can>
        ) : null}
        <Can I="create" a="Roles">
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            Create role
          </Button>
        </Can>
      </Box>
      {selected?.description ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {selected.description}
        </Typography>
      ) : null}
      {failed ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {MESSAGES.roles.fetchFailed}
        </Alert>
      ) : null}
      {selected ? <PermissionMatrix key={selected.id} role={selected} features={features} /> : null}
      <CreateRoleDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(role) => setSelectedId(role.id)}
      />
      <EditRoleDialog key={`edit-${editing?.id ?? 0}`} role={editing} onClose={() => setEditing(null)} />
      <DeleteRoleDialog
        key={`delete-${deleting?.id ?? 0}`}
        role={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => setSelectedId(null)}
      />
    </Card>
  );
}
