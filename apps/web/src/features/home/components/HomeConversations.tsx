import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { useGroupedQuery } from '../../inbox/api';
import { EmptyState } from './EmptyState';

const RECENT = 5;

/** The latest conversations of every bot, newest first (shown only to those with the Inbox). */
export function HomeConversations() {
  const me = useAppSelector((state) => state.session.user);
  const { data, isLoading } = useGroupedQuery({ tenantId: me?.tenant_id ?? 0 }, { skip: !me });
  if (isLoading) return <CircularProgress size={24} aria-label="Loading recent conversations" />;
  const recent = (data ?? [])
    .flatMap((bot) => bot.conversations.map((conversation) => ({ bot: bot.bot_name, conversation })))
    .sort((a, b) => b.conversation.last_message_at.localeCompare(a.conversation.last_message_at))
    .slice(0, RECENT);
  if (recent.length === 0) {
    return (
      <EmptyState
        icon={<ForumOutlined />}
        title="No conversations yet"
        text="When visitors talk to your bots, the latest conversations show up here."
        action={
          <Button component={Link} to="/inbox" variant="outlined">
            Open the inbox
          </Button>
        }
      />
    );
  }
  return (
    <List dense aria-label="Recent conversations">
      {recent.map(({ bot, conversation }) => (
        <ListItemButton key={conversation.conversation_id} component={Link} to="/inbox">
          <ListItemText
            primary={conversation.convName}
            secondary={`${bot} · ${new Date(conversation.last_message_at).toLocaleString()}`}
          />
        </ListItemButton>
      ))}
    </List>
  );
}
