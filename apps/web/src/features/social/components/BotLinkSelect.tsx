import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Bot } from '@parley/contracts';

/**
 * The bot a channel account answers with: a select (empty: agents only) and Unlink. Shared by the
 * Instagram, Messenger and WhatsApp accounts. `onChange('')` unlinks.
 */
export function BotLinkSelect({
  title,
  botId,
  bots,
  busy,
  onChange,
}: {
  title: string;
  botId: number | null;
  bots: readonly Pick<Bot, 'bot_id' | 'bot_name'>[];
  busy: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <TextField
        select
        size="small"
        label="Bot"
        value={botId ?? ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={busy}
        sx={{ minWidth: 180 }}
        slotProps={{ htmlInput: { 'aria-label': `Bot for ${title}` } }}
      >
        <MenuItem value="">
          <em>No bot (agents only)</em>
        </MenuItem>
        {bots.map((bot) => (
          <MenuItem key={bot.bot_id} value={bot.bot_id}>
            {bot.bot_name}
          </MenuItem>
        ))}
      </TextField>
      {botId !== null ? (
        <Button size="small" onClick={() => onChange('')} disabled={busy}>
          Unlink
        </Button>
      ) : null}
    </>
  );
}
