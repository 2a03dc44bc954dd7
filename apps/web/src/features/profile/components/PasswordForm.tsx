import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import { ChangePasswordBody, MESSAGES } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { PasswordField } from '../../auth/components/PasswordField';
import { useChangePasswordMutation } from '../api';

const PasswordChange = ChangePasswordBody.extend({
  confirm_password: ChangePasswordBody.shape.new_password,
}).refine((v) => v.new_password === v.confirm_password, {
  message: 'Passwords do not match',
  path: ['confirm_password'],
});

/**
 * Change password: the current one is checked by the server, whose detail shows on failure. On
 * success the page says that every other device was signed out (the server ended their sessions).
 */
export function PasswordForm({ userId }: { userId: number }) {
  const [change, { error, isLoading }] = useChangePasswordMutation();
  const [changed, setChanged] = useState(false);
  const notify = useNotify();
  const form = useZodForm(PasswordChange, {
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit(async ({ current_password, new_password }) => {
    const result = await change({ id: userId, body: { current_password, new_password } });
    setChanged(Boolean('data' in result && result.data));
    if ('data' in result && result.data) {
      notify.success(MESSAGES.users.passwordChanged);
      form.reset();
    }
  });
  return (
    <Card>
      <CardHeader title="Change password" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Change password">
          {error ? <Alert severity="error">{serverDetail(error) ?? MESSAGES.users.unexpected}</Alert> : null}
          {changed && !error ? <Alert severity="info">{MESSAGES.users.otherDevicesSignedOut}</Alert> : null}
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            {...fieldProps(form, 'current_password')}
          />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            {...fieldProps(form, 'new_password')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            {...fieldProps(form, 'confirm_password')}
          />
          <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
