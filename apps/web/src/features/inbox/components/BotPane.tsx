import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { PaneTitle } from './PaneTitle';

export type InboxBot = { bot_id: number; bot_name: string; unread: boolean; conversations: number };

type Props = {
  bots: InboxBot[];
  selectedBotId: number | null;
  onSelect: (botId: number) => void;
  onNewChat: () => void;
  newChatBusy: boolean;
};

/** The bots, most recent first, each flagged while it has unread conversations (spec section 3 Inbox state). */
export function BotPane({ bots, selectedBotId, onSelect, onNewChat, newChatBusy }: Props) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <PaneTitle title="Bots">
        <Button
          size="small"
          startIcon={<AddCommentOutlined />}
          onClick={onNewChat}
          disabled={selectedBotId === null || newChatBusy}
        >
          New Chat
        </Button>
      </PaneTitle>
      {bots.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          No bots yet.
        </Typography>
      ) : (
        <List dense aria-label="Bots" sx={{ overflowY: 'auto', flex: 1 }}>
          {bots.map((bot) => (
            <ListItemButton
              key={bot.bot_id}
              selected={bot.bot_id === selectedBotId}
              onClick={() => onSelect(bot.bot_id)}
              data-testid="inbox-bot"
              data-bot-id={bot.bot_id}
              data-unread={bot.unread}
            >
              <ListItemText
                primary={bot.bot_name}
                secondary={`${bot.conversations} conversation${bot.conversations === 1 ? '' : 's'}`}
                slotProps={{ primary: { noWrap: true, fontWeight: bot.unread ? 700 : 400 } }}
              />
              {bot.unread ? (
                <Badge
                  color="error"
                  variant="dot"
                  aria-label="Unread"
                  sx={{ mr: 1 }}
                  data-testid="bot-unread"
                />
              ) : null}
            </ListItemButton>
          ))}
        </List>
      )}
    </Box>
  );
}
