import { InviteUserBody, MESSAGES, type Role } from '@parley/contracts';
import { SelectField } from '../../../shared/components/SelectField';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useInviteUserMutation } from '../api';
import { failureText } from '../failure';
import { FormDialog } from './FormDialog';

type Props = { open: boolean; roles: Role[]; onClose: () => void };

/** Invite by email with a role; the server mails a link to /signup?token=... */
export function InviteDialog({ open, roles, onClose }: Props) {
  const [invite, { error, isLoading, reset }] = useInviteUserMutation();
  const notify = useNotify();
  const form = useZodForm(InviteUserBody, { defaultValues: { email: '', role_id: undefined } });
  const close = () => {
    form.reset();
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await invite(body);
    if ('data' in result && result.data) {
      // Without SMTP the server says so: the link is in the pending invitations, to copy.
      if (result.data.mailed) notify.success(result.data.message);
      else notify.info(result.data.message);
      close();
    }
  });
  return (
    <FormDialog
      open={open}
      id="invite"
      title="Invite a user"
      error={error ? failureText(MESSAGES.users.inviteFailed, error) : null}
      busy={isLoading}
      submitLabel="Send invitation"
      onSubmit={onSubmit}
      onClose={close}
    >
      <TextInput label="Email" type="email" autoComplete="off" autoFocus {...fieldProps(form, 'email')} />
      <SelectField
        control={form.control}
        name="role_id"
        label="Role"
        options={roles.map((role) => ({
          value: role.id,
          label: role.description ? `${role.name}: ${role.description}` : role.name,
        }))}
      />
    </FormDialog>
  );
}
