import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { PublicPage } from '../components/PublicPage';

const STEPS: [string, string][] = [
  ['Share your link', 'Create referral links and share them with your audience.'],
  ['They subscribe', 'Visitors who sign up through your link are counted as conversions.'],
  [
    'You earn',
    'Earn a commission on every payment they make; pending commissions are shown in your dashboard.',
  ],
];

/** /partner: the affiliate programme's public landing, until the affiliate issue adds the dashboard. */
export function PartnerLandingPage() {
  const signedIn = useAppSelector((state) => state.session.status === 'authenticated');
  return (
    <PublicPage
      title="Parley Partner Programme"
      intro="Recommend Parley and earn a share of every subscription you bring."
    >
      <Grid container spacing={2} sx={{ mb: 4 }}>
        {STEPS.map(([title, text]) => (
          <Grid key={title} size={{ xs: 12, md: 4 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                  {title}
                </Typography>
                <Typography color="text.secondary">{text}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Stack direction="row" spacing={2}>
        {signedIn ? (
          <Button component={Link} to="/home" variant="contained">
            Go to your console
          </Button>
        ) : (
          <>
            <Button component={Link} to="/register" variant="contained">
              Become a partner
            </Button>
            <Button component={Link} to="/login" variant="outlined">
              Log in
            </Button>
          </>
        )}
      </Stack>
    </PublicPage>
  );
}
