import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AFFILIATE_TEXTS, type AffiliateTerms } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { userLoaded } from '../../auth/session-slice';
import { useBecomePartnerMutation } from '../api';

const STEPS: [string, string][] = [
  [
    'Share your link',
    'Create referral links, each with its own campaign, and share them with your audience.',
  ],
  ['They sign up', 'Visitors who sign up through your link become your referrals, shown to you anonymously.'],
  ['You earn', 'Earn a commission on every payment they make, net of tax, paid out once approved.'],
];

/** The programme's terms, read from the server so the page says what the server applies. */
function useTerms(): AffiliateTerms | null {
  const [terms, setTerms] = useState<AffiliateTerms | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/affiliation/partners/terms')
      .then((r) => (r.ok ? (r.json() as Promise<AffiliateTerms>) : null))
      .then((t) => live && setTerms(t))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return terms;
}

function termsOf(t: AffiliateTerms): string[] {
  return [
    `You earn ${t.commission_percent}% of every payment a workspace you referred makes, net of tax, for its first ${t.commission_months} months.`,
    `A visitor who follows your link is yours for ${t.cookie_days} days: a signup within that time is your referral.`,
    `A commission stays pending for ${t.refund_window_days} days, in case the payment is refunded (a refund reverses it), then it is approved and paid out with your next payout.`,
    'Clicks from bots and repeated clicks by one visitor on one day are not counted. You never see who your referrals are, only an anonymous name.',
    'Becoming a partner keeps your workspace: the account menu switches between your workspace and the partner area.',
  ];
}

/** What /partner shows a visitor or a signed-in user who is not a partner: the programme and the way in. */
export function PartnerLanding() {
  const session = useAppSelector((state) => state.session);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const terms = useTerms();
  const [become, { isLoading }] = useBecomePartnerMutation();
  const [confirming, setConfirming] = useState(false);
  const signedIn = session.status === 'authenticated' && session.user !== null;

  const join = async () => {
    setConfirming(false);
    const result = await become();
    if ('error' in result) {
      notify.error(serverDetail(result.error) ?? AFFILIATE_TEXTS.becomeFailed);
      return;
    }
    notify.success(result.data.message);
    // The server keeps the workspace and adds the partner area: the page shows the dashboard now.
    if (session.user) dispatch(userLoaded({ ...session.user, is_partner: true }));
  };

  return (
    <>
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
      <Typography variant="h6" component="h2" gutterBottom>
        Terms
      </Typography>
      {terms ? (
        <Stack component="ul" spacing={1} sx={{ pl: 3, mb: 4 }} aria-label="Programme terms">
          {termsOf(terms).map((line) => (
            <Typography component="li" key={line} color="text.secondary">
              {line}
            </Typography>
          ))}
        </Stack>
      ) : (
        <Alert severity="info" sx={{ mb: 4 }}>
          The terms are loading.
        </Alert>
      )}
      <Stack direction="row" spacing={2}>
        {signedIn ? (
          <>
            <Button variant="contained" disabled={isLoading} onClick={() => setConfirming(true)}>
              Become a partner
            </Button>
            <Button component={Link} to="/home" variant="outlined">
              Go to your console
            </Button>
          </>
        ) : (
          <>
            <Button component={Link} to="/register?returnUrl=%2Fpartner" variant="contained">
              Become a partner
            </Button>
            <Button component={Link} to="/login?returnUrl=%2Fpartner" variant="outlined">
              Log in
            </Button>
          </>
        )}
      </Stack>
      <ConfirmDialog
        open={confirming}
        title="Become a partner?"
        text="You keep your workspace and get a partner area with your links, referrals and commissions. Switch between the two from the account menu."
        confirmLabel="Become a partner"
        onConfirm={join}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
