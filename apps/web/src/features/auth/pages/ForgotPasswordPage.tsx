import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { EmailBody } from '@parley/contracts';
import { Link as RouterLink, useNavigate } from 'react-router';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useRequestPasswordResetMutation } from '../api';
import { AuthCard } from '../components/AuthCard';

/** /forgot-password: asks for a six-digit code by email, then moves on to /reset-password. */
export function ForgotPasswordPage() {
  const [requestReset, { error, isLoading }] = useRequestPasswordResetMutation();
  const navigate = useNavigate();
  const form = useZodForm(EmailBody, { defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    const result = await requestReset({ email });
    if ('data' in result && result.data) {
      navigate(`/reset-password?email=${encodeURIComponent(email)}`, {
        state: { sent: result.data.message },
      });
    }
  });
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we'll send you a code to reset your password."
    >
      <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Request a reset code">
        {error ? <Alert severity="error">{serverDetail(error)}</Alert> : null}
        <TextInput label="Email" type="email" autoComplete="email" autoFocus {...fieldProps(form, 'email')} />
        <Button type="submit" variant="contained" size="large" disabled={isLoading}>
          Send code
        </Button>
        <Link component={RouterLink} to="/login" variant="body2" textAlign="center">
          Back to login
        </Link>
      </Stack>
    </AuthCard>
  );
}
