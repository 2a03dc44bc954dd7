import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Bot, BotInput } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { useSaveBot } from '../hooks/useSaveBot';
import { SaveBar } from './SaveBar';

const toText = (origins: string[]) => origins.join('\n');
const toList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter(Boolean);

/** Which sites may embed the widget: one origin per line; empty means any site. */
export function AllowedOriginsForm({ bot }: { bot: Bot }) {
  const [text, setText] = useState(toText(bot.allowed_origins));
  const [error, setError] = useState<string | null>(null);
  const { save, busy } = useSaveBot(bot.bot_id);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The same rule as the server, so a bad origin is named before anything is sent.
    const parsed = BotInput.shape.allowed_origins.safeParse(toList(text));
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid origin');
    setError(null);
    const saved = await save({ allowed_origins: parsed.data });
    if (saved) setText(toText(saved.allowed_origins));
  };
  return (
    <Stack component="form" noValidate aria-label="Allowed sites" onSubmit={submit} spacing={1}>
      <Typography variant="subtitle1" fontWeight={600} component="h3">
        Allowed sites
      </Typography>
      <Typography variant="body2" color="text.secondary">
        The sites that may show this bot, one per line, like https://shop.example (www.shop.example is
        included; https://*.shop.example allows every subdomain). Leave empty to allow any site.
      </Typography>
      <TextField
        id="allowed-origins"
        label="Allowed sites"
        multiline
        minRows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={Boolean(error)}
        helperText={error ?? ' '}
      />
      <SaveBar
        busy={busy}
        dirty={text !== toText(bot.allowed_origins)}
        onReset={() => setText(toText(bot.allowed_origins))}
      />
    </Stack>
  );
}
