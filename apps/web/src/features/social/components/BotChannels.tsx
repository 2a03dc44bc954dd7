import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useSocialAccountsQuery } from '../api';
import { ChannelMark } from './ChannelMark';

/** The Instagram and Messenger accounts a bot answers on, with the way to connect more. */
export function BotChannels({ botId }: { botId: number }) {
  const instagram = useSocialAccountsQuery('instagram');
  const messenger = useSocialAccountsQuery('messenger');
  const linked = [...(instagram.data ?? []), ...(messenger.data ?? [])].filter((a) => a.bot_id === botId);
  return (
    <Stack spacing={1} component="section" aria-label="Instagram and Messenger">
      <Typography variant="subtitle1" fontWeight={600} component="h3">
        Instagram and Messenger
      </Typography>
      {linked.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          This bot answers no Instagram or Messenger account yet.
        </Typography>
      ) : (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {linked.map((account) => (
            <Chip
              key={`${account.channel}-${account.id}`}
              icon={<ChannelMark channel={account.channel} fontSize="small" />}
              label={account.channel === 'instagram' ? `@${account.username}` : account.page_name}
              color={account.is_active ? 'default' : 'warning'}
              variant="outlined"
            />
          ))}
        </Stack>
      )}
      <div>
        <Button component={RouterLink} to="/integrations">
          Connect accounts in Integrations
        </Button>
      </div>
    </Stack>
  );
}
