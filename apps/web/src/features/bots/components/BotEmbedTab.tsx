import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Bot } from '@parley/contracts';
import { BotChannels } from '../../social/components/BotChannels';
import { cspDirectives, directLink, embedSnippet } from '../embed';
import { AllowedOriginsForm } from './AllowedOriginsForm';
import { CopyField } from './CopyField';

/** The snippet to paste before </body>, and the direct link to the bot's chat page. */
export function BotEmbedTab({ bot }: { bot: Bot }) {
  const origin = window.location.origin;
  const link = directLink(origin, bot.uuid);
  return (
    <Stack spacing={3}>
      <Stack spacing={1}>
        <Typography variant="subtitle1" fontWeight={600} component="h3">
          Website widget
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Paste this just before the closing &lt;/body&gt; tag of every page that should show the chat.
        </Typography>
        <CopyField id="embed-snippet" label="Embed code" value={embedSnippet(origin, bot.uuid)} multiline />
        <Typography variant="body2" color="text.secondary">
          If your site sends a Content-Security-Policy, add these sources to it (no inline script or style is
          needed):
        </Typography>
        <CopyField id="embed-csp" label="Content-Security-Policy sources" value={cspDirectives(origin)} />
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1" fontWeight={600} component="h3">
          Direct link
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Share this link to open the chat on a page of its own.
        </Typography>
        <CopyField id="embed-link" label="Direct link" value={link} />
        <div>
          <Button href={link} target="_blank" rel="noopener">
            Open chat page
          </Button>
        </div>
      </Stack>
      <AllowedOriginsForm bot={bot} />
      <BotChannels botId={bot.bot_id} />
    </Stack>
  );
}
