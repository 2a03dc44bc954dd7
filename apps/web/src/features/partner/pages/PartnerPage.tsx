import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../../app/store';
import { Logo } from '../../../layouts/components/Logo';
import { useLogout } from '../../auth/hooks/useLogout';
import { PublicPage } from '../../public/components/PublicPage';
import { PartnerDashboard } from '../components/PartnerDashboard';
import { PartnerLanding } from '../components/PartnerLanding';

/**
 * /partner: a partner's dashboard (the only area a partner account has, spec section 6); anyone
 * else gets the programme, its terms and the way to join.
 */
export function PartnerPage() {
  const { status, user } = useAppSelector((state) => state.session);
  // The blank layout has no ability context; user_type decides (the same rule defineAbilityFor applies).
  const isPartner = user?.user_type.toLowerCase() === 'partner';
  const logout = useLogout();
  if (status === 'loading') return <CircularProgress aria-label="Loading" sx={{ m: 4 }} />;
  if (status === 'authenticated' && isPartner) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
        <Stack direction="row" alignItems="center" sx={{ mb: 3 }}>
          <Logo to="/partner" />
          <Typography variant="h5" component="h1" fontWeight={600} sx={{ flex: 1, ml: 2 }}>
            Partner dashboard
          </Typography>
          <Button onClick={logout}>Log out</Button>
        </Stack>
        <PartnerDashboard />
      </Container>
    );
  }
  return (
    <PublicPage
      title="Parley Partner Programme"
      intro="Recommend Parley and earn a share of every subscription you bring."
    >
      <PartnerLanding />
    </PublicPage>
  );
}
