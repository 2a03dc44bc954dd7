import Typography from '@mui/material/Typography';
import { MESSAGES, type Role } from '@parley/contracts';
import type { FormEvent } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useDeleteRoleMutation } from '../api';
import { FormDialog } from './FormDialog';

type Props = { role: Role | null; onClose: () => void; onDeleted: () => void };

/**
 * Deletes a role nobody holds. A refusal (teammates have it, an invitation offers it) stays in the
 * dialog, since it says what to do first and is too long for a two-second toast.
 */
export function DeleteRoleDialog({ role, onClose, onDeleted }: Props) {
  const [remove, { error, isLoading, reset }] = useDeleteRoleMutation();
  const notify = useNotify();
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!role) return;
    const result = await remove(role.id);
    if ('data' in result && result.data) {
      notify.success(result.data.message);
      onDeleted();
      close();
    }
  };
  return (
    <FormDialog
      open={Boolean(role)}
      id="delete-role"
      title="Delete role"
      error={error ? (serverDetail(error) ?? MESSAGES.users.unexpected) : null}
      busy={isLoading}
      submitLabel="Delete role"
      onSubmit={onSubmit}
      onClose={close}
    >
      <Typography>
        {role
          ? `Delete the role ${role.name}? A role can be deleted only once no teammate has it and no pending invitation offers it.`
          : ''}
      </Typography>
    </FormDialog>
  );
}
