import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@parley/contracts';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, type LazyResolver, useLazyZodForm } from '../../../shared/lib/form';
import { useLoginMutation } from '../api';
import { AuthCard } from '../components/AuthCard';
import { GoogleSignIn } from '../components/GoogleSignIn';
import { PasswordField } from '../components/PasswordField';
import type { LoginForm } from '../form-resolvers';

let resolver: ReturnType<LazyResolver<typeof LoginForm>> | undefined;
const loadResolver: LazyResolver<typeof LoginForm> = () =>
  (resolver ??= import('../form-resolvers').then((m) => m.loginResolver));

/** /login: once signed in, the guard sends the user to the stored redirect, the returnUrl or /home. */
export function LoginPage() {
  const [login, { error, isLoading }] = useLoginMutation();
  const [params] = useSearchParams();
  const form = useLazyZodForm(loadResolver, { defaultValues: { username: '', password: '' } });
  const onSubmit = form.handleSubmit(async (body) => {
    await login(body)
      .unwrap()
      .catch(() => undefined);
  });
  const returnUrl = params.get('returnUrl');
  const registerHref = returnUrl ? `/register?returnUrl=${encodeURIComponent(returnUrl)}` : '/register';
  return (
    <AuthCard title="Welcome to Parley!" subtitle="Please sign in to your account">
      <Stack
        component="form"
        spacing={2.5}
        onSubmit={onSubmit}
        onInput={form.warmUp}
        noValidate
        aria-label="Sign in"
      >
        {error ? <Alert severity="error">{serverDetail(error) ?? MESSAGES.users.unexpected}</Alert> : null}
        <TextInput
          label="Email or username"
          autoComplete="username"
          autoFocus
          {...fieldProps(form, 'username')}
        />
        <PasswordField label="Password" autoComplete="current-password" {...fieldProps(form, 'password')} />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            Forgot password?
          </Link>
        </Box>
        <Button type="submit" variant="contained" size="large" disabled={isLoading}>
          {isLoading ? 'Signing in…' : 'Login'}
        </Button>
        <GoogleSignIn />
        <Typography variant="body2" textAlign="center">
          New on our platform?{' '}
          <Link component={RouterLink} to={registerHref}>
            Create an account
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
