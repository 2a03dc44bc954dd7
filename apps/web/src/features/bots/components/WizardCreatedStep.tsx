import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Bot } from '@parley/contracts';
import { Link } from 'react-router';
import { BotAvatar } from './BotAvatar';

/** After creation: where to go next with the new bot. */
export function WizardCreatedStep({ bot }: { bot: Bot }) {
  return (
    <Stack spacing={2} alignItems="flex-start" role="region" aria-label="Bot created">
      <Stack direction="row" spacing={2} alignItems="center">
        <BotAvatar name={bot.bot_name} image={bot.profile_image} color={bot.brand_color} size={64} />
        <div>
          <Typography variant="h6" component="h2">
            {bot.bot_name} is ready
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Try it in the playground, adjust its appearance, then paste the embed code on your website.
          </Typography>
        </div>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        <Button variant="contained" component={Link} to={`/bot/${bot.bot_id}`}>
          Open bot page
        </Button>
        <Button variant="outlined" component={Link} to={`/bot/${bot.bot_id}/playground`}>
          Open playground
        </Button>
        <Button variant="outlined" component={Link} to={`/bot/${bot.bot_id}?tab=embed`}>
          Get embed code
        </Button>
        <Button component={Link} to="/bot">
          Back to bots
        </Button>
      </Stack>
    </Stack>
  );
}
