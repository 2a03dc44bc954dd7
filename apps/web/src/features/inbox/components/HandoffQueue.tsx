import ContactMail from '@mui/icons-material/ContactMail';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { INBOX_FILTERS, type InboxConversation, type InboxFilter } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { type InboxArgs, useInboxQuery } from '../api';
import { ChannelIcon } from './ChannelIcon';
import { waitedFor } from './waited';

const LABELS: Record<InboxFilter, string> = {
  needs_human: 'Needs a person',
  mine: 'Mine',
  with_agent: 'With an agent',
  bot: 'With the bot',
  closed: 'Closed',
};

type Props = {
  tenantId: number;
  selectedId: number | null;
  onOpen: (conversation: InboxConversation) => void;
  /** Each time the list loads: the page keeps what it shows of the open conversation current. */
  onList?: (conversations: readonly InboxConversation[]) => void;
};

/** Whether this browser may show desktop notifications: absent where there is no Notification API. */
function permissionNow(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/** What the queue lists when the inbox opens (the inbox page's preload asks for the same). */
export const FIRST_VIEW = { filter: 'needs_human', search: '', includeTests: false } as const satisfies Omit<
  InboxArgs,
  'tenantId'
>;

/**
 * The hand-off queue above the panes: a tab per filter with its unread and total counts, search by
 * visitor name, email or text, test chats on request, and the matching conversations (those waiting
 * for a person oldest first, with how long they have waited). Refreshed by the help-desk socket.
 */
export function HandoffQueue({ tenantId, selectedId, onOpen, onList }: Props) {
  const [filter, setFilter] = useState<InboxFilter>(FIRST_VIEW.filter);
  const [search, setSearch] = useState<string>(FIRST_VIEW.search);
  const [debounced, setDebounced] = useState<string>(FIRST_VIEW.search);
  const [includeTests, setIncludeTests] = useState<boolean>(FIRST_VIEW.includeTests);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), 300);
    return () => clearTimeout(timer);
  }, [search]);
  // The waiting times move on by themselves.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const { data } = useInboxQuery({ tenantId, filter, search: debounced, includeTests });
  useEffect(() => {
    if (data) onList?.(data.conversations);
  }, [data, onList]);
  // Asked once, from a click (browsers ignore a request nobody clicked for); gone once answered.
  const [permission, setPermission] = useState(permissionNow);
  const askPermission = () =>
    void Notification.requestPermission().then(setPermission, () => setPermission(permissionNow()));

  return (
    <Box data-testid="handoff-queue" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Stack direction="row" alignItems="center" spacing={2} sx={{ px: 2, pt: 1, flexWrap: 'wrap' }}>
        <Tabs
          value={filter}
          onChange={(_event, value: InboxFilter) => setFilter(value)}
          variant="scrollable"
          aria-label="Conversation filters"
          sx={{ flex: 1, minWidth: 0 }}
        >
          {INBOX_FILTERS.map((value) => {
            const counts = data?.counts[value];
            return (
              <Tab
                key={value}
                value={value}
                aria-label={`${LABELS[value]} (${counts?.total ?? 0})`}
                label={
                  <Badge
                    color="error"
                    badgeContent={counts?.unread ?? 0}
                    sx={{ pr: counts?.unread ? 1.5 : 0 }}
                  >
                    {`${LABELS[value]} · ${counts?.total ?? 0}`}
                  </Badge>
                }
              />
            );
          })}
        </Tabs>
        <TextField
          size="small"
          label="Search visitors"
          placeholder="Name, email or text"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <FormControlLabel
          control={
            <Switch checked={includeTests} onChange={(event) => setIncludeTests(event.target.checked)} />
          }
          label="Show test chats"
        />
        {permission === 'default' ? (
          <Button size="small" onClick={askPermission}>
            Enable desktop alerts
          </Button>
        ) : null}
      </Stack>
      <List dense aria-label={LABELS[filter]} sx={{ maxHeight: 220, overflowY: 'auto' }}>
        {data?.conversations.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            Nothing here.
          </Typography>
        ) : null}
        {data?.conversations.map((conversation) => (
          <ListItemButton
            key={conversation.conversation_id}
            selected={conversation.conversation_id === selectedId}
            onClick={() => onOpen(conversation)}
            data-testid="handoff-item"
            data-conversation-id={conversation.conversation_id}
          >
            <ChannelIcon channel={conversation.channel} fontSize="small" />
            <ListItemText
              sx={{ ml: 1 }}
              primary={`${conversation.visitor_name ?? conversation.visitor_email ?? 'Anonymous visitor'} · ${conversation.bot_name}`}
              secondary={
                filter === 'needs_human' && conversation.human_requested_at
                  ? `Waiting ${waitedFor(conversation.human_requested_at, now)}`
                  : (conversation.last_message?.message ?? '')
              }
              slotProps={{ secondary: { noWrap: true } }}
            />
            {conversation.contact_left_at ? (
              <Tooltip
                title={`${conversation.visitor_email ?? ''} · ${new Date(conversation.contact_left_at).toLocaleString()}`}
              >
                <Chip
                  size="small"
                  variant="outlined"
                  color="info"
                  icon={<ContactMail />}
                  label="left contact details"
                  data-testid="contact-left"
                  sx={{ mr: 1, flexShrink: 0 }}
                />
              </Tooltip>
            ) : null}
            {conversation.unread_count > 0 ? (
              <Badge color="error" badgeContent={conversation.unread_count} sx={{ mr: 1 }} />
            ) : null}
          </ListItemButton>
        ))}
      </List>
    </Box>
  );
}
