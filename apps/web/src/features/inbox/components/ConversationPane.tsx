import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type GroupedConversation, SOCIAL_CHANNELS } from '@parley/contracts';
import type { GroupedArgs } from '../api';
import { ChannelIcon } from './ChannelIcon';
import { PaneTitle } from './PaneTitle';

export type InboxFilters = {
  channel: GroupedArgs['channel'] | '';
  holder: GroupedArgs['holder'] | '';
  search: string;
};

type Props = {
  title: string;
  conversations: GroupedConversation[];
  unreadCounts: Record<number, number>;
  selectedId: number | null;
  loading: boolean;
  filters: InboxFilters;
  onFilters: (filters: InboxFilters) => void;
  onSelect: (conversation: GroupedConversation) => void;
  onDelete: (conversation: GroupedConversation) => void;
};

/** Who holds a conversation: the bot, or the agent's name. */
export function holderLabel(
  conversation: Pick<GroupedConversation, 'is_helpdesk_in_control' | 'admin_name'>,
) {
  return conversation.is_helpdesk_in_control ? (conversation.admin_name ?? 'Agent') : 'Bot';
}

/**
 * Instagram and Messenger give the person's name, WhatsApp their profile name and number: shown
 * before the conversation's first words.
 */
function socialName(conversation: GroupedConversation): string | null {
  const profile = conversation.user_profile;
  if (conversation.channel === 'whatsapp')
    return [profile.name?.trim(), profile.phoneNumber?.trim()].filter(Boolean).join(' · ') || null;
  const social = (SOCIAL_CHANNELS as readonly string[]).includes(conversation.channel);
  return social ? profile.name?.trim() || null : null;
}

function preview(conversation: GroupedConversation): string {
  const last = conversation.last_message;
  if (!last) return 'No messages yet';
  const who = last.message_type === 'user' ? '' : last.message_type === 'helpdesk' ? 'Agent: ' : 'Bot: ';
  const text = last.message.trim() || (last.attachments.length ? 'Attachment' : '');
  return `${who}${text}`;
}

/**
 * A bot's conversations, most recent first: name, channel, last message, unread count and who holds
 * it; filtered by channel and holder, and searched.
 */
export function ConversationPane({
  title,
  conversations,
  unreadCounts,
  selectedId,
  loading,
  filters,
  onFilters,
  onSelect,
  onDelete,
}: Props) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <PaneTitle title={title} />
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          gap: 1,
          p: 1.5,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <TextField
          size="small"
          type="search"
          placeholder="Search conversations"
          value={filters.search}
          onChange={(event) => onFilters({ ...filters, search: event.target.value })}
          slotProps={{ htmlInput: { 'aria-label': 'Search conversations', maxLength: 200 } }}
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <TextField
            select
            size="small"
            label="Channel"
            value={filters.channel}
            onChange={(event) =>
              onFilters({ ...filters, channel: event.target.value as InboxFilters['channel'] })
            }
            sx={{ flex: 1 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">All</MenuItem>
            <MenuItem value="bot">Web</MenuItem>
            <MenuItem value="instagram">Instagram</MenuItem>
            <MenuItem value="messenger">Messenger</MenuItem>
            <MenuItem value="whatsapp">WhatsApp</MenuItem>
          </TextField>
          <TextField
            select
            size="small"
            label="Handled by"
            value={filters.holder}
            onChange={(event) =>
              onFilters({ ...filters, holder: event.target.value as InboxFilters['holder'] })
            }
            sx={{ flex: 1 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Anyone</MenuItem>
            <MenuItem value="bot">Bot</MenuItem>
            <MenuItem value="human">Human</MenuItem>
          </TextField>
        </Box>
      </Box>
      {conversations.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {loading ? 'Loading conversations…' : 'No conversations yet.'}
        </Typography>
      ) : (
        <List dense aria-label="Conversations" sx={{ overflowY: 'auto', flex: 1, py: 0 }}>
          {conversations.map((conversation) => {
            const unread = unreadCounts[conversation.conversation_id] ?? 0;
            const human = conversation.is_helpdesk_in_control;
            const person = socialName(conversation);
            return (
              <ListItem
                key={conversation.conversation_id}
                disablePadding
                data-testid="inbox-conversation"
                data-conversation-id={conversation.conversation_id}
                data-unread={unread}
                secondaryAction={
                  <IconButton
                    edge="end"
                    size="small"
                    aria-label={`Delete conversation ${conversation.convName}`}
                    onClick={() => onDelete(conversation)}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                }
              >
                <ListItemButton
                  selected={conversation.conversation_id === selectedId}
                  onClick={() => onSelect(conversation)}
                  sx={{ pr: 6 }}
                >
                  <ListItemAvatar sx={{ minWidth: 48 }}>
                    <Badge
                      overlap="circular"
                      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
                      badgeContent={
                        <ChannelIcon
                          channel={conversation.channel}
                          sx={{ fontSize: 14, bgcolor: 'background.paper', borderRadius: '50%' }}
                        />
                      }
                    >
                      <Avatar
                        src={conversation.user_profile.profilePicture ?? undefined}
                        alt={conversation.user_profile.name ?? ''}
                        sx={{ width: 34, height: 34 }}
                      >
                        {(conversation.user_profile.name ?? conversation.convName).slice(0, 1).toUpperCase()}
                      </Avatar>
                    </Badge>
                  </ListItemAvatar>
                  <ListItemText
                    primary={
                      person ? (
                        <>
                          <span data-testid="conversation-person">{person}</span>
                          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                            {` · ${conversation.convName}`}
                          </Box>
                        </>
                      ) : (
                        conversation.convName
                      )
                    }
                    secondary={preview(conversation)}
                    slotProps={{
                      primary: {
                        noWrap: true,
                        fontWeight: unread ? 700 : 500,
                      },
                      secondary: { noWrap: true },
                    }}
                    sx={{ minWidth: 0 }}
                  />
                  <Box
                    sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 0.5, ml: 1 }}
                  >
                    <Chip
                      size="small"
                      label={holderLabel(conversation)}
                      color={human ? 'success' : 'default'}
                      variant={human ? 'filled' : 'outlined'}
                      data-testid="conversation-holder"
                      sx={{ maxWidth: 110 }}
                    />
                    {unread > 0 ? (
                      <Chip
                        size="small"
                        color="error"
                        label={unread}
                        aria-label={`${unread} unread`}
                        data-testid="unread-count"
                      />
                    ) : null}
                  </Box>
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      )}
    </Box>
  );
}
