import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { MessageUsage } from '../../bots/components/MessageUsage';
import { Can } from '../../permissions/components/Can';
import { HomeBots } from '../components/HomeBots';
import { HomeConversations } from '../components/HomeConversations';
import { QuickActions } from '../components/QuickActions';
import { greeting } from '../greeting';

/** /home: the landing page after login: the person's bots, recent conversations and this month's usage, as far as their permissions reach. */
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
              <HomeBots />
            </CardContent>
          </Card>
        </Grid>
        <Can I="read" a="Inbox">
          <Grid size={{ xs: 12, md: 6 }}>
            <Card sx={{ height: '100%' }}>
              <CardHeader
                title="Recent conversations"
                slotProps={{ title: { component: 'h2', variant: 'h6' } }}
              />
              <CardContent>
                <HomeConversations />
              </CardContent>
            </Card>
          </Grid>
        </Can>
        <Can I="read" a="Create Bot">
          <Grid size={{ xs: 12 }}>
            <Card>
              <CardHeader title="This month" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
              <CardContent>
                <MessageUsage tenantId={user.tenant_id} />
              </CardContent>
            </Card>
          </Grid>
        </Can>
      </Grid>
    </>
  );
}
