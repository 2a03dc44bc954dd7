import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { Bot } from '@parley/contracts';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { useBotsAssignedQuery, useBotsOfUserQuery } from '../../bots/api';
import { BotAvatar } from '../../bots/components/BotAvatar';
import { useAbility } from '../../permissions/hooks/useAbility';
import { EmptyState } from './EmptyState';

/**
 * The bots this person works with: the workspace's bots for those who manage bots, the bots
 * assigned to them otherwise. Only those who may create a bot are invited to create one.
 */
export function HomeBots() {
  const me = useAppSelector((state) => state.session.user);
  const manages = useAbility().can('read', 'Create Bot');
  const all = useBotsOfUserQuery(me?.id ?? 0, { skip: !me || !manages });
  const assigned = useBotsAssignedQuery(
    { userId: me?.id ?? 0, tenantId: me?.tenant_id ?? 0 },
    { skip: !me || manages },
  );
  const { data, isLoading } = manages ? all : assigned;
  if (isLoading) return <CircularProgress size={24} aria-label="Loading your bots" />;
  const bots: Bot[] = data ?? [];
  if (bots.length === 0) {
    return manages ? (
      <EmptyState
        icon={<SmartToyOutlined />}
        title="No bots yet"
        text="Create your first bot and train it on your own content."
        action={
          <Button component={Link} to="/bot/new" variant="contained">
            Create a bot
          </Button>
        }
      />
    ) : (
      <EmptyState
        icon={<SmartToyOutlined />}
        title="No bots assigned to you"
        text="Bots your team assigns to you show up here."
      />
    );
  }
  return (
    <List dense aria-label="Your bots">
      {bots.slice(0, 6).map((bot) => (
        <ListItemButton
          key={bot.bot_id}
          component={Link}
          to={manages ? `/bot/${bot.bot_id}` : `/bot/${bot.bot_id}/playground`}
        >
          <ListItemAvatar>
            <BotAvatar name={bot.bot_name} image={bot.profile_image} color={bot.brand_color} size={36} />
          </ListItemAvatar>
          <ListItemText primary={bot.bot_name} secondary={bot.description || undefined} />
        </ListItemButton>
      ))}
    </List>
  );
}
