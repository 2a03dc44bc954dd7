import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Bot } from '@parley/contracts';
import { Link } from 'react-router';
import { BotAvatar } from './BotAvatar';

type Props = {
  bot: Bot;
  model: string;
  isNew: boolean;
  /** Absent when the user may not delete bots. */
  onDelete?: () => void;
};

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One bot in the Manage Bots list: who it is, what it knows, which model answers, and its actions. */
export function BotCard({ bot, model, isNew, onDelete }: Props) {
  const created = new Date(bot.created_at);
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={`Bot ${bot.bot_name}`}
      data-testid="bot-card"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 1.5 }}>
          <BotAvatar name={bot.bot_name} image={bot.profile_image} color={bot.brand_color} />
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" noWrap title={bot.bot_name}>
              {bot.bot_name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              Created {Number.isNaN(created.getTime()) ? '' : created.toLocaleDateString()}
            </Typography>
          </Stack>
          {isNew ? <Chip size="small" color="success" label="New" /> : null}
        </Stack>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ mb: 1.5, minHeight: 40, overflowWrap: 'anywhere' }}
        >
          {bot.description || 'No description'}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
          <Chip size="small" variant="outlined" label={`Model: ${model}`} />
          <Chip size="small" variant="outlined" label={plural(bot.file_group_ids.length, 'file group')} />
          <Chip size="small" variant="outlined" label={plural(bot.web_source_ids.length, 'website')} />
          <Chip
            size="small"
            variant="outlined"
            label={plural(bot.notion_workspace_ids.length, 'Notion workspace')}
          />
        </Stack>
      </CardContent>
      <CardActions>
        <Button size="small" component={Link} to={`/bot/${bot.bot_id}`} aria-label={`Open ${bot.bot_name}`}>
          Open
        </Button>
        <Button
          size="small"
          component={Link}
          to={`/bot/${bot.bot_id}/playground`}
          aria-label={`Playground of ${bot.bot_name}`}
        >
          Playground
        </Button>
        {onDelete ? (
          <Button size="small" color="error" onClick={onDelete} aria-label={`Delete ${bot.bot_name}`}>
            Delete
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}
