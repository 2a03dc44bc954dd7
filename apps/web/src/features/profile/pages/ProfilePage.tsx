import Grid from '@mui/material/Grid';
import { useAppSelector } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { PasswordForm } from '../components/PasswordForm';
import { ProfileForm } from '../components/ProfileForm';

/** /profile: the signed-in user's own details and password. */
export function ProfilePage() {
  const user = useAppSelector((state) => state.session.user);
  if (!user) return null;
  return (
    <>
      <PageHeader title="Profile" subtitle={`${user.email} · ${user.tenant_name}`} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ProfileForm key={user.id} user={user} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <PasswordForm userId={user.id} />
        </Grid>
      </Grid>
    </>
  );
}
