import { CreateRoleBody, MESSAGES, type Role } from '@parley/contracts';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useCreateRoleMutation } from '../api';
import { failureText } from '../failure';
import { FormDialog } from './FormDialog';

type Props = { open: boolean; onClose: () => void; onCreated: (role: Role) => void };

export function CreateRoleDialog({ open, onClose, onCreated }: Props) {
  const [create, { error, isLoading, reset }] = useCreateRoleMutation();
  const notify = useNotify();
  const form = useZodForm(CreateRoleBody, { defaultValues: { name: '' } });
  const close = () => {
    form.reset();
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await create(body);
    if ('data' in result && result.data) {
      notify.success(MESSAGES.roles.created);
      onCreated(result.data);
      close();
    }
  });
  return (
    <FormDialog
      open={open}
      id="create-role"
      title="Create role"
      error={error ? failureText(MESSAGES.roles.createFailed, error) : null}
      busy={isLoading}
      submitLabel="Create role"
      onSubmit={onSubmit}
      onClose={close}
    >
      <TextInput label="Role name" autoFocus autoComplete="off" {...fieldProps(form, 'name')} />
    </FormDialog>
  );
}
