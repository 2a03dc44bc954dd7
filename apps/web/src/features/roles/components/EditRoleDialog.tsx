import { MESSAGES, type Role, UpdateRoleBody } from '@parley/contracts';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useUpdateRoleMutation } from '../api';
import { FormDialog } from './FormDialog';

type Props = { role: Role | null; onClose: () => void };

/** Renames a role or rewrites its description; its permissions and holders stay as they are. */
export function EditRoleDialog({ role, onClose }: Props) {
  const [update, { error, isLoading, reset }] = useUpdateRoleMutation();
  const notify = useNotify();
  // The parent mounts one dialog per role (key), so the defaults are that role's.
  const form = useZodForm(UpdateRoleBody, {
    defaultValues: { name: role?.name ?? '', description: role?.description ?? '' },
  });
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (body) => {
    if (!role) return;
    const result = await update({ id: role.id, body });
    if ('data' in result && result.data) {
      notify.success(MESSAGES.roles.updated);
      close();
    }
  });
  return (
    <FormDialog
      open={Boolean(role)}
      id="edit-role"
      title="Edit role"
      error={error ? (serverDetail(error) ?? MESSAGES.users.unexpected) : null}
      busy={isLoading}
      submitLabel="Save role"
      onSubmit={onSubmit}
      onClose={close}
    >
      <TextInput label="Role name" autoFocus autoComplete="off" {...fieldProps(form, 'name')} />
      <TextInput
        label="Description"
        autoComplete="off"
        multiline
        minRows={2}
        {...fieldProps(form, 'description')}
      />
    </FormDialog>
  );
}
