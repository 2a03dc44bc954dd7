import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { STORE_TEXTS, type Store } from '@parley/contracts';
import { useState } from 'react';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useLinkStoreBotMutation } from '../api';
import { useMyBots } from '../hooks/useMyBots';
import { botNames, failText } from '../model';

/** Which bots answer from the store (store.bot_ids): connect one more, or disconnect one. */
export function StoreBots({ store, mayWrite }: { store: Store; mayWrite: boolean }) {
  const notify = useNotify();
  const bots = useMyBots();
  const [link, linking] = useLinkStoreBotMutation();
  const [chosen, setChosen] = useState('');
  const linked = botNames(store.bot_ids, bots);
  const available = bots.filter((bot) => !store.bot_ids.includes(bot.bot_id));

  const onLink = async (botId: number, connect: boolean) => {
    try {
      const { message } = await link({
        platform: store.platform,
        storeId: store.id,
        botId,
        link: connect,
      }).unwrap();
      notify.success(message || (connect ? STORE_TEXTS.botLinked : STORE_TEXTS.botUnlinked));
      if (connect) setChosen('');
    } catch (error) {
      notify.error(
        failText(error, connect ? 'The bot could not be connected' : 'The bot could not be disconnected'),
      );
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-label="Bots">
      <PanelHeader title="Bots answering from this store" />
      <Stack spacing={1} sx={{ px: 2, pb: 2 }}>
        {linked.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No bot answers from this store yet. Connect one so it can answer about products and orders.
          </Typography>
        ) : (
          <List dense aria-label="Connected bots" disablePadding>
            {linked.map((bot) => (
              <ListItem
                key={bot.id}
                aria-label={bot.name}
                disableGutters
                secondaryAction={
                  mayWrite ? (
                    <Button
                      size="small"
                      onClick={() => onLink(bot.id, false)}
                      disabled={linking.isLoading}
                      aria-label={`Disconnect ${bot.name}`}
                    >
                      Disconnect
                    </Button>
                  ) : null
                }
              >
                <ListItemText primary={bot.name} />
              </ListItem>
            ))}
          </List>
        )}
        {mayWrite && available.length > 0 ? (
          <Stack direction="row" spacing={1} alignItems="center">
            <TextField
              select
              size="small"
              label="Bot to connect"
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
              sx={{ minWidth: 200 }}
              disabled={linking.isLoading}
            >
              {available.map((bot) => (
                <MenuItem key={bot.bot_id} value={String(bot.bot_id)}>
                  {bot.bot_name}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              onClick={() => onLink(Number(chosen), true)}
              disabled={!chosen || linking.isLoading}
            >
              Connect bot
            </Button>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
