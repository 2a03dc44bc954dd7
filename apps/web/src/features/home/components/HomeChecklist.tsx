import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { ChecklistItem, ChecklistStep } from '@parley/contracts';
import { Link } from 'react-router';

type StepText = { title: string; text: string; whoCan: string; to: (botId?: number) => string };

/** The spec gives no texts for Home's checklist; these are short and plain. */
const STEPS: Record<ChecklistStep, StepText> = {
  create_bot: {
    title: 'Create a bot',
    text: 'Name it and say what it is for.',
    whoCan: 'Someone who manages bots can do this.',
    to: () => '/bot/new',
  },
  add_knowledge: {
    title: 'Add knowledge',
    text: 'Upload files, crawl a website, connect Notion or write Q&A pairs.',
    whoCan: 'Someone who manages bots can do this.',
    to: () => '/bot/knowledge/files',
  },
  try_bot: {
    title: 'Try it',
    text: 'Ask your bot a question in the playground.',
    whoCan: 'Someone who manages bots can do this.',
    to: (botId) => (botId ? `/bot/${botId}/playground` : '/bot'),
  },
  embed_widget: {
    title: 'Put it on your website',
    text: 'Paste the embed code into your site; this ticks once a visitor chats.',
    whoCan: 'Someone who manages bots can do this.',
    to: (botId) => (botId ? `/bot/${botId}?tab=embed` : '/bot'),
  },
  invite_teammate: {
    title: 'Invite a teammate',
    text: 'Send a colleague an invitation with a role.',
    whoCan: 'Someone who manages users can do this.',
    to: () => '/roles',
  },
};

function StepIcon({ done }: { done: boolean }) {
  return (
    <ListItemIcon sx={{ minWidth: 40 }}>
      {done ? (
        <CheckCircle color="success" titleAccess="Done" />
      ) : (
        <RadioButtonUnchecked color="disabled" titleAccess="Not done yet" />
      )}
    </ListItemIcon>
  );
}

/**
 * One step, a link to where it is done (a done step too: there is always more to add or try). A
 * step the person may not do is still shown, without a link, saying who can do it: the list is the
 * workspace's progress, and hiding steps would make it look further along than it is.
 */
function Step({ item, botId }: { item: ChecklistItem; botId?: number }) {
  const step = STEPS[item.step];
  const secondary = item.allowed ? step.text : step.whoCan;
  const body = (
    <>
      <StepIcon done={item.done} />
      <ListItemText
        primary={step.title}
        secondary={secondary}
        slotProps={{ primary: { sx: item.done ? { color: 'text.secondary' } : undefined } }}
      />
    </>
  );
  if (!item.allowed) return <ListItem>{body}</ListItem>;
  return (
    <ListItem disablePadding>
      <ListItemButton component={Link} to={step.to(botId)}>
        {body}
      </ListItemButton>
    </ListItem>
  );
}

/**
 * A new workspace's first steps, ticked by the server from what exists. Once every step is done
 * it folds into one line, so it no longer takes Home's space from the bots and conversations.
 */
export function HomeChecklist({ items, botId }: { items: ChecklistItem[]; botId?: number }) {
  const done = items.filter((item) => item.done).length;
  if (done === items.length) {
    return (
      <Alert severity="success" sx={{ mb: 2 }}>
        You're all set: every getting-started step is done.
      </Alert>
    );
  }
  return (
    <Card sx={{ mb: 2 }}>
      <CardHeader
        title="Get started"
        subheader={`${done} of ${items.length} done`}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <LinearProgress
        variant="determinate"
        value={(done / items.length) * 100}
        aria-label="Getting-started progress"
        sx={{ mx: 2 }}
      />
      <CardContent sx={{ pt: 1 }}>
        <List dense aria-label="Getting started">
          {items.map((item) => (
            <Step key={item.step} item={item} botId={botId} />
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
