import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { BOTS_SUBJECT, type HomeBot, type HomeSummary } from '@parley/contracts';
import { Link } from 'react-router';
import { BotAvatar } from '../../bots/components/BotAvatar';
import { useAbility } from '../../permissions/hooks/useAbility';
import { EmptyState } from './EmptyState';

type Props = Pick<HomeSummary, 'bots' | 'bot_count' | 'bots_scope'>;

function BotLine({ bot }: { bot: HomeBot }) {
  return (
    <>
      <ListItemAvatar>
        <BotAvatar name={bot.bot_name} image={bot.profile_image} color={bot.brand_color} size={36} />
      </ListItemAvatar>
      <ListItemText primary={bot.bot_name} secondary={bot.description || undefined} />
    </>
  );
}

function NoBots({ scope }: { scope: HomeSummary['bots_scope'] }) {
  const mayCreate = useAbility().can('create', BOTS_SUBJECT);
  if (scope === 'assigned') {
    return (
      <EmptyState
        icon={<SmartToyOutlined />}
        title="No bots assigned to you"
        text="Bots your team assigns to you show up here."
      />
    );
  }
  // Only those who may create a bot are asked to.
  return mayCreate ? (
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
      title="No bots yet"
      text="The bots your team creates show up here."
    />
  );
}

/**
 * The bots this person works with (the server chose them: a bot manager's bots, or the ones
 * assigned to someone who does not manage bots). Only bot managers can open a bot's pages, so
 * only their list links to them.
 */
export function HomeBots({ bots, bot_count, bots_scope }: Props) {
  if (bots.length === 0) return <NoBots scope={bots_scope} />;
  const linked = bots_scope === 'workspace';
  return (
    <>
      <List dense aria-label="Your bots">
        {bots.map((bot) =>
          linked ? (
            <ListItemButton key={bot.bot_id} component={Link} to={`/bot/${bot.bot_id}`}>
              <BotLine bot={bot} />
            </ListItemButton>
          ) : (
            <ListItem key={bot.bot_id}>
              <BotLine bot={bot} />
            </ListItem>
          ),
        )}
      </List>
      {linked && bot_count > bots.length && (
        <Button component={Link} to="/bot" size="small">
          See all {bot_count} bots
        </Button>
      )}
    </>
  );
}
