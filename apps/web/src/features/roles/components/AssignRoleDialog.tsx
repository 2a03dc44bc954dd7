import Typography from '@mui/material/Typography';
import { AssignRoleBody, MESSAGES, type Role, type User } from '@parley/contracts';
import { SelectField } from '../../../shared/components/SelectField';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useZodForm } from '../../../shared/lib/form';
import { useAssignRoleMutation } from '../api';
import { failureText } from '../failure';
import { FormDialog } from './FormDialog';

type Props = { user: User | null; roles: Role[]; onClose: () => void };

/** Gives a user a role; their menu follows from their next request. */
export function AssignRoleDialog({ user, roles, onClose }: Props) {
  const [assign, { error, isLoading, reset }] = useAssignRoleMutation();
  const notify = useNotify();
  // The parent mounts one dialog per user (key), so the defaults are that user's.
  const form = useZodForm(AssignRoleBody, {
    defaultValues: { user_id: user?.id, role_id: user?.roles[0]?.id },
  });
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await assign(body);
    if ('data' in result) {
      notify.success(MESSAGES.roles.roleAssigned);
      close();
    }
  });
  return (
    <FormDialog
      open={Boolean(user)}
      id="assign-role"
      title="Assign a role"
      error={error ? failureText(MESSAGES.roles.assignRoleFailed, error) : null}
      busy={isLoading}
      submitLabel="Assign role"
      onSubmit={onSubmit}
      onClose={close}
    >
      <Typography color="text.secondary">
        {user ? `${user.first_name} ${user.last_name} (${user.email})` : ''}
      </Typography>
      <SelectField
        control={form.control}
        name="role_id"
        label="Role"
        options={roles.map((role) => ({ value: role.id, label: role.name }))}
      />
    </FormDialog>
  );
}
