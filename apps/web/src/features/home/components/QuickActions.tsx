import AddCircleOutline from '@mui/icons-material/AddCircleOutline';
import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { Action, Subject } from '@parley/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAbility } from '../../permissions/hooks/useAbility';

type QuickAction = {
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
  action: Action;
  subject: Subject;
  /** Left out for those who may do this instead (the shortcut that does more is shown). */
  unless?: Action;
};

const ACTIONS: QuickAction[] = [
  {
    to: '/bot',
    title: 'Create a bot',
    text: 'Train a bot on your files, website and Q&A.',
    icon: <AddCircleOutline color="primary" />,
    action: 'create',
    subject: 'Create Bot',
  },
  {
    // Someone who may read bots but not create them is not offered to create one.
    to: '/bot',
    title: 'See your bots',
    text: 'Their knowledge, settings and playground.',
    icon: <SmartToyOutlined color="primary" />,
    action: 'read',
    subject: 'Create Bot',
    unless: 'create',
  },
  {
    to: '/inbox',
    title: 'Open the inbox',
    text: 'Answer the conversations that need a human.',
    icon: <SupportAgentOutlined color="primary" />,
    action: 'read',
    subject: 'Inbox',
  },
  {
    to: '/roles',
    title: 'Invite a teammate',
    text: 'Give colleagues a role and the access it grants.',
    icon: <GroupAddOutlined color="primary" />,
    action: 'create',
    subject: 'Roles',
  },
  {
    to: '/settings',
    title: 'Personalise the console',
    text: 'Choose the mode, colour and layout you like.',
    icon: <TuneOutlined color="primary" />,
    action: 'read',
    subject: 'Home',
  },
];

/** Shortcuts to what the user may do next; each shows only when their role allows it. */
export function QuickActions() {
  const ability = useAbility();
  const allowed = ACTIONS.filter(
    (a) => ability.can(a.action, a.subject) && !(a.unless && ability.can(a.unless, a.subject)),
  );
  return (
    <Grid
      container
      spacing={2}
      component="ul"
      sx={{ listStyle: 'none', p: 0, m: 0 }}
      aria-label="Quick actions"
    >
      {allowed.map((a) => (
        <Grid key={a.title} size={{ xs: 12, sm: 6, lg: 3 }} component="li">
          <Card sx={{ height: '100%' }}>
            <CardActionArea component={Link} to={a.to} sx={{ height: '100%' }}>
              <CardContent>
                {a.icon}
                <Typography variant="subtitle1" component="h3" fontWeight={600} sx={{ mt: 1 }}>
                  {a.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {a.text}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
