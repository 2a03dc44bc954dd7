import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { MESSAGES } from '@parley/contracts';
import { Link, useSearchParams } from 'react-router';
import { serverDetail } from '../../../shared/api/errors';
import { useInvitedUserQuery } from '../api';
import { AuthCard } from '../components/AuthCard';
import { SignupForm } from '../components/SignupForm';

/** /signup: with an invitation token, the invited email is filled in and the workspace shown. */
export function SignupPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) {
    return (
      <AuthCard title="Create your Parley account" subtitle="Build chatbots trained on your own content.">
        <SignupForm />
      </AuthCard>
    );
  }
  return <InvitationSignup token={token} />;
}

function InvitationSignup({ token }: { token: string }) {
  const { data: invitation, error, isLoading } = useInvitedUserQuery(token);
  if (isLoading) {
    return (
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label="Checking the invitation" />
      </Box>
    );
  }
  if (!invitation) {
    return (
      <AuthCard title="Invitation not valid">
        <Alert severity="error" sx={{ mb: 3 }}>
          {serverDetail(error) ?? MESSAGES.auth.invitationInvalid}
        </Alert>
        <Button component={Link} to="/login" variant="contained">
          Go to login
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={`Join ${invitation.tenant_name}`}
      subtitle={`${invitation.invited_by} invited you to ${invitation.tenant_name} as ${invitation.role_name}.`}
    >
      <SignupForm invitation={invitation} token={token} />
    </AuthCard>
  );
}
