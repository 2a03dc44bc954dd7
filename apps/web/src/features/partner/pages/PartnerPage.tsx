import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../../app/store';
import { Logo } from '../../../layouts/components/Logo';
import { UserMenu } from '../../../layouts/components/UserMenu';
import { PublicPage } from '../../public/components/PublicPage';
import { PartnerDashboard } from '../components/PartnerDashboard';
import { PartnerLanding } from '../components/PartnerLanding';
import { hasPartnerArea } from '../membership';

/**
 * /partner: the partner area of someone in the affiliate programme (a workspace member who joined
 * keeps their workspace; the account menu switches between the two, issue 31); anyone else gets the
 * programme, its terms and the way to join.
 */
export function PartnerPage() {
  const { status, user } = useAppSelector((state) => state.session);
  // The blank layout has no ability context: the same rule defineAbilityFor applies to read Partner.
  const isPartner = user !== null && hasPartnerArea(user);
  if (status === 'loading') return <CircularProgress aria-label="Loading" sx={{ m: 4 }} />;
  if (status === 'authenticated' && isPartner) {
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
        <Stack direction="row" alignItems="center" sx={{ mb: 3 }}>
          <Logo to="/partner" />
          <Typography variant="h5" component="h1" fontWeight={600} sx={{ flex: 1, ml: 2 }}>
            Partner dashboard
          </Typography>
          <UserMenu area="partner" />
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
