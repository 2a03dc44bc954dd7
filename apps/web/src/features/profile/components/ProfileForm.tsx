import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import { MESSAGES, UpdateProfileBody, type User } from '@parley/contracts';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useUpdateProfileMutation } from '../api';

/** Name and username; the email is the sign-in identity and stays as it is. */
export function ProfileForm({ user }: { user: User }) {
  const [update, { error, isLoading }] = useUpdateProfileMutation();
  const notify = useNotify();
  const form = useZodForm(UpdateProfileBody, {
    defaultValues: { first_name: user.first_name, last_name: user.last_name, username: user.username },
  });
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await update({ id: user.id, body });
    if ('data' in result && result.data) {
      notify.success(MESSAGES.users.profileUpdated);
      form.reset({
        first_name: result.data.first_name,
        last_name: result.data.last_name,
        username: result.data.username,
      });
    }
  });
  return (
    <Card>
      <CardHeader title="Profile details" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Profile details">
          {error ? <Alert severity="error">{serverDetail(error) ?? MESSAGES.users.unexpected}</Alert> : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextInput label="First name" autoComplete="given-name" {...fieldProps(form, 'first_name')} />
            <TextInput label="Last name" autoComplete="family-name" {...fieldProps(form, 'last_name')} />
          </Stack>
          <TextInput label="Username" autoComplete="username" {...fieldProps(form, 'username')} />
          <TextInput label="Email" value={user.email} readOnly id="profile-email" />
          <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
            Save changes
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
