import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type InvitedUser, MESSAGES, SignupBody } from '@parley/contracts';
import { Link as RouterLink } from 'react-router';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useSignupMutation } from '../api';
import { PasswordField } from './PasswordField';

type Props = { invitation?: InvitedUser; token?: string };

/**
 * Registration, or acceptance of an invitation when one is given: the email is then the invited one
 * and the new account joins the inviting workspace. The server's detail is shown on failure.
 */
export function SignupForm({ invitation, token }: Props) {
  const [signup, { error, isLoading }] = useSignupMutation();
  const form = useZodForm(SignupBody, {
    defaultValues: { first_name: '', last_name: '', email: invitation?.email ?? '', password: '' },
  });
  const onSubmit = form.handleSubmit(async (body) => {
    const payload = { ...body, ...(token ? { token } : {}) };
    if (!payload.username) delete payload.username;
    if (!payload.company_name) delete payload.company_name;
    await signup(payload)
      .unwrap()
      .catch(() => undefined);
  });
  return (
    <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Create account">
      {error ? <Alert severity="error">{serverDetail(error) ?? MESSAGES.users.unexpected}</Alert> : null}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextInput
          label="First name"
          autoComplete="given-name"
          autoFocus
          {...fieldProps(form, 'first_name')}
        />
        <TextInput label="Last name" autoComplete="family-name" {...fieldProps(form, 'last_name')} />
      </Stack>
      <TextInput
        label="Email"
        type="email"
        autoComplete="email"
        {...fieldProps(form, 'email')}
        readOnly={Boolean(invitation)}
      />
      <TextInput
        label="Username (optional)"
        autoComplete="username"
        {...fieldProps(form, 'username', { optional: true })}
      />
      {invitation ? null : (
        <TextInput
          label="Company name (optional)"
          autoComplete="organization"
          {...fieldProps(form, 'company_name', { optional: true })}
        />
      )}
      <PasswordField label="Password" autoComplete="new-password" {...fieldProps(form, 'password')} />
      <Button type="submit" variant="contained" size="large" disabled={isLoading}>
        {isLoading ? 'Creating account…' : invitation ? 'Join workspace' : 'Sign up'}
      </Button>
      <Typography variant="body2" textAlign="center">
        Already have an account?{' '}
        <Link component={RouterLink} to="/login">
          Sign in instead
        </Link>
      </Typography>
    </Stack>
  );
}
