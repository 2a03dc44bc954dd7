import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { HomeConversation } from '@parley/contracts';
import { Link } from 'react-router';
import { EmptyState } from './EmptyState';

/** The workspace's latest conversations, newest first (the server sends them only to those with the Inbox). */
export function HomeConversations({ conversations }: { conversations: HomeConversation[] }) {
  if (conversations.length === 0) {
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
      {conversations.map((conversation) => (
        <ListItemButton
          key={conversation.conversation_id}
          component={Link}
          // Opens this conversation in the inbox, as a notification's link does.
          to={`/inbox?conversation=${conversation.conversation_id}&bot=${conversation.bot_id}`}
        >
          <ListItemText
            primary={conversation.name}
            secondary={`${conversation.bot_name} · ${new Date(conversation.last_message_at).toLocaleString()}`}
          />
        </ListItemButton>
      ))}
    </List>
  );
}
