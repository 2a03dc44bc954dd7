import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Bot } from '@parley/contracts';
import { useCallback, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { useBotsOfUserQuery } from '../api';

const BOT_PARAM = 'bot';

/** The bot an address names (`?bot=ID`), for the picker and a page's preload; null when none. */
export function botInAddress(params: URLSearchParams): number | null {
  const id = Number(params.get(BOT_PARAM));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export type BotSelection = {
  bots: Bot[];
  /** The chosen bot: the one named by `?bot=ID`, else the first of the list. */
  bot: Bot | null;
  select: (botId: number) => void;
  isLoading: boolean;
  isError: boolean;
};

/**
 * The signed-in user's bots and the one chosen, remembered in the address (`?bot=ID`) so a reload or a
 * shared link opens the same bot. With no valid choice the first bot is taken.
 */
export function useBotSelection(): BotSelection {
  const me = useAppSelector((state) => state.session.user);
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me });
  const [params, setParams] = useSearchParams();
  const list = bots.data ?? [];
  const wanted = botInAddress(params);
  const bot = list.find((b) => b.bot_id === wanted) ?? list[0] ?? null;

  const select = useCallback(
    (botId: number) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(BOT_PARAM, String(botId));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // Write the fallback choice into the address, so it names the bot on screen.
  useEffect(() => {
    if (bot && bot.bot_id !== wanted) select(bot.bot_id);
  }, [bot, wanted, select]);

  return { bots: list, bot, select, isLoading: bots.isLoading, isError: bots.isError };
}

type Props = {
  selection: BotSelection;
  label?: string;
  disabled?: boolean;
};

/**
 * Picks one of the user's bots. While the list loads a spinner shows; a user without bots is offered
 * the bot wizard (/bot/new) instead.
 */
export function BotPicker({ selection, label = 'Bot', disabled }: Props) {
  const { bots, bot, select, isLoading, isError } = selection;
  if (isLoading) return <CircularProgress size={28} aria-label="Loading bots" />;
  if (isError) return <Alert severity="error">Your bots could not be loaded.</Alert>;
  if (bots.length === 0) return <NoBots />;
  return (
    <TextField
      select
      id="bot-picker"
      label={label}
      size="small"
      value={bot?.bot_id ?? ''}
      onChange={(event) => select(Number(event.target.value))}
      disabled={disabled}
      fullWidth={false}
      sx={{ width: { xs: '100%', sm: 320 } }}
    >
      {bots.map((b) => (
        <MenuItem key={b.bot_id} value={b.bot_id}>
          {b.bot_name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The empty state of a page that works on a bot, when the user has none yet. */
export function NoBots() {
  return (
    <Alert
      severity="info"
      action={
        <Button component={Link} to="/bot/new" color="inherit" size="small">
          Create a bot
        </Button>
      }
    >
      You have no bots yet. Create a bot first, then come back to add its knowledge.
    </Alert>
  );
}
