import ContactMailOutlined from '@mui/icons-material/ContactMailOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BOTS_SUBJECT, type HomeLead, type HomeLeads as Leads } from '@parley/contracts';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAbility } from '../../permissions/hooks/useAbility';
import { dayLabel, timeAgo } from '../when';
import { EmptyState } from './EmptyState';

// The charts library is large and the count says it all first: the bars follow when it has loaded.
const LeadsSparkline = lazy(async () => ({ default: (await import('./LeadsSparkline')).LeadsSparkline }));

// The bars' box, kept while they load so nothing moves.
const SPARK = { width: 140, height: 48 };
const WHAT_A_LEAD_IS = 'A lead is a visitor who left their name or email in a bot’s lead form.';

/** The leads page opens on the lead's bot; the newest leads are at the top of its first page. */
const leadLink = (lead: HomeLead) => `/leads?bot=${lead.bot_id}`;

function LeadLine({ lead }: { lead: HomeLead }) {
  return (
    <ListItemButton component={RouterLink} to={leadLink(lead)}>
      <ListItemText
        primary={lead.name || lead.email || 'A visitor (no name or email)'}
        secondary={
          <>
            {lead.bot_name} · <time dateTime={lead.created_at}>{timeAgo(lead.created_at)}</time>
          </>
        }
      />
    </ListItemButton>
  );
}

/** The week's count, large, beside its seven days as bars. */
function WeekFigure({ leads }: { leads: Leads }) {
  const days = leads.per_day.map((count, index) => `${dayLabel(leads.per_day.length - 1 - index)}: ${count}`);
  return (
    <Stack direction="row" spacing={3} alignItems="center">
      <div>
        <Typography variant="h4" component="p" data-testid="home-leads-count">
          {new Intl.NumberFormat().format(leads.last_7_days)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {leads.last_7_days === 1 ? 'lead' : 'leads'} in the last 7 days
        </Typography>
      </div>
      <Box
        role="img"
        aria-label={`Leads per day, oldest first. ${days.join('; ')}`}
        // The baseline shows the seven days even when most have no bar.
        sx={{ ...SPARK, borderBottom: 1, borderColor: 'divider' }}
      >
        <Suspense fallback={null}>
          <LeadsSparkline perDay={leads.per_day} {...SPARK} />
        </Suspense>
      </Box>
    </Stack>
  );
}

/**
 * Before the first lead: what a lead is, and where the form is turned on. Those who may change a
 * bot get a link to its lead form (the Appearance tab); the others are told who can.
 */
function NoLeads({ formEnabled, botId }: { formEnabled: boolean; botId: number | undefined }) {
  const mayEditBots = useAbility().can('write', BOTS_SUBJECT);
  if (formEnabled) {
    return (
      <EmptyState
        icon={<ContactMailOutlined />}
        title="No leads yet"
        text={`${WHAT_A_LEAD_IS} Your lead form is on: the next ones show up here.`}
      />
    );
  }
  if (!mayEditBots) {
    return (
      <EmptyState
        icon={<ContactMailOutlined />}
        title="No leads yet"
        text={`${WHAT_A_LEAD_IS} Whoever manages your bots can turn the form on in the bot’s Appearance settings.`}
      />
    );
  }
  return (
    <EmptyState
      icon={<ContactMailOutlined />}
      title="No leads yet"
      text={
        botId === undefined
          ? `${WHAT_A_LEAD_IS} Create a bot, then turn its lead form on in its Appearance settings.`
          : `${WHAT_A_LEAD_IS} Turn the form on in the bot’s Appearance settings to collect them.`
      }
      action={
        botId === undefined ? undefined : (
          <Button component={RouterLink} to={`/bot/${botId}?tab=appearance`} variant="outlined">
            Turn on the lead form
          </Button>
        )
      }
    />
  );
}

/**
 * New leads (sent only to those who read Leads, narrowed to the bots whose leads they may open):
 * the last 7 days' count with a bar per day, and the newest three, each opening its bot's leads.
 */
export function HomeLeads({ leads, botId }: { leads: Leads; botId: number | undefined }) {
  if (leads.items.length === 0) return <NoLeads formEnabled={leads.form_enabled} botId={botId} />;
  return (
    <Stack spacing={1}>
      <WeekFigure leads={leads} />
      <List dense aria-label="Newest leads">
        {leads.items.map((lead) => (
          <LeadLine key={lead.id} lead={lead} />
        ))}
      </List>
      <Link component={RouterLink} to="/leads" variant="body2">
        See all leads
      </Link>
    </Stack>
  );
}
