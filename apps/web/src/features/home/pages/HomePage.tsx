import ForumOutlined from '@mui/icons-material/ForumOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { Can } from '../../permissions/components/Can';
import { EmptyState } from '../components/EmptyState';
import { QuickActions } from '../components/QuickActions';
import { greeting } from '../greeting';

/** /home: the landing page after login. Bots and conversations fill in with their issues. */
export function HomePage() {
  const user = useAppSelector((state) => state.session.user);
  if (!user) return null;
  return (
    <>
      <PageHeader
        title={`${greeting(new Date().getHours())}, ${user.first_name}!`}
        subtitle={`Welcome to ${user.tenant_name}. Here is where things stand.`}
      />
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Quick actions
      </Typography>
      <QuickActions />
      <Grid container spacing={2} sx={{ mt: 2 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card sx={{ height: '100%' }}>
            <CardHeader title="Your bots" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
            <CardContent>
              <EmptyState
                icon={<SmartToyOutlined />}
                title="No bots yet"
                text="Create your first bot and train it on your own content."
                action={
                  <Can I="read" a="Create Bot">
                    <Button component={Link} to="/bot" variant="contained">
                      Create a bot
                    </Button>
                  </Can>
                }
              />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card sx={{ height: '100%' }}>
            <CardHeader
              title="Recent conversations"
              slotProps={{ title: { component: 'h2', variant: 'h6' } }}
            />
            <CardContent>
              <EmptyState
                icon={<ForumOutlined />}
                title="No conversations yet"
                text="When visitors talk to your bots, the latest conversations show up here."
                action={
                  <Can I="read" a="Inbox">
                    <Button component={Link} to="/inbox" variant="outlined">
                      Open the inbox
                    </Button>
                  </Can>
                }
              />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}
