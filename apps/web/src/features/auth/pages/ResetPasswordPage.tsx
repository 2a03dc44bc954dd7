import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { ChangePasswordBody, VerifyOtpBody } from '@parley/contracts';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import {
  useCompletePasswordResetMutation,
  useRequestPasswordResetMutation,
  useVerifyPasswordResetMutation,
} from '../api';
import { AuthCard } from '../components/AuthCard';
import { PasswordField } from '../components/PasswordField';

const NewPasswordForm = ChangePasswordBody.pick({ new_password: true })
  .extend({ confirm_password: ChangePasswordBody.shape.new_password })
  .refine((v) => v.new_password === v.confirm_password, {
    message: 'Passwords do not match',
    path: ['confirm_password'],
  });

type Verified = { email: string; otp: string };

/** /reset-password: verify the emailed code, then choose a new password (the server's OTP flow). */
export function ResetPasswordPage() {
  const [verified, setVerified] = useState<Verified | null>(null);
  return (
    <AuthCard
      title={verified ? 'Choose a new password' : 'Reset your password'}
      subtitle={verified ? `For ${verified.email}` : 'Enter the six-digit code we sent to your email.'}
    >
      {verified ? <NewPasswordStep verified={verified} /> : <CodeStep onVerified={setVerified} />}
    </AuthCard>
  );
}

function CodeStep({ onVerified }: { onVerified: (v: Verified) => void }) {
  const [params] = useSearchParams();
  const sent = (useLocation().state as { sent?: string } | null)?.sent;
  const [verify, { error, isLoading }] = useVerifyPasswordResetMutation();
  const [resend, resendState] = useRequestPasswordResetMutation();
  const form = useZodForm(VerifyOtpBody, { defaultValues: { email: params.get('email') ?? '', otp: '' } });
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await verify(body);
    if ('data' in result && result.data?.verified) onVerified(body);
  });
  const onResend = async () => {
    const ok = await form.trigger('email');
    if (ok) await resend({ email: form.getValues('email') });
  };
  const info = resendState.data?.message ?? sent;
  return (
    <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Verify the code">
      {info ? <Alert severity="info">{info}</Alert> : null}
      {error ? <Alert severity="error">{serverDetail(error)}</Alert> : null}
      <TextInput label="Email" type="email" autoComplete="email" {...fieldProps(form, 'email')} />
      <TextInput
        label="Code"
        autoComplete="one-time-code"
        autoFocus
        {...fieldProps(form, 'otp')}
        inputProps={{ inputMode: 'numeric', maxLength: 6, pattern: '[0-9]*' }}
      />
      <Button type="submit" variant="contained" size="large" disabled={isLoading}>
        Verify code
      </Button>
      <Button onClick={onResend} disabled={resendState.isLoading}>
        Send a new code
      </Button>
      <Link component={RouterLink} to="/login" variant="body2" textAlign="center">
        Back to login
      </Link>
    </Stack>
  );
}

function NewPasswordStep({ verified }: { verified: Verified }) {
  const [complete, { error, isLoading }] = useCompletePasswordResetMutation();
  const notify = useNotify();
  const navigate = useNavigate();
  const form = useZodForm(NewPasswordForm, { defaultValues: { new_password: '', confirm_password: '' } });
  const onSubmit = form.handleSubmit(async ({ new_password }) => {
    const result = await complete({ ...verified, new_password });
    if ('data' in result && result.data) {
      notify.success(result.data.message);
      navigate('/login', { replace: true });
    }
  });
  return (
    <Stack component="form" spacing={2.5} onSubmit={onSubmit} noValidate aria-label="Set a new password">
      {error ? <Alert severity="error">{serverDetail(error)}</Alert> : null}
      <PasswordField
        label="New password"
        autoComplete="new-password"
        autoFocus
        {...fieldProps(form, 'new_password')}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        {...fieldProps(form, 'confirm_password')}
      />
      <Button type="submit" variant="contained" size="large" disabled={isLoading}>
        Set new password
      </Button>
    </Stack>
  );
}
