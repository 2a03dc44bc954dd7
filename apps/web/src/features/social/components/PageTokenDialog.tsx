import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type Bot, SOCIAL_TEXTS, type SocialChannel } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useNotify } from '../../../shared/hooks/useNotify';
import { failureText } from '../../roles/failure';
import { useCreateSocialAccountMutation } from '../api';

type Props = { channel: SocialChannel; bots: Bot[]; open: boolean; onClose: () => void };

/** The manual path beside Facebook Login: a page id and its page access token (from Meta's tools). */
export function PageTokenDialog({ channel, bots, open, onClose }: Props) {
  const notify = useNotify();
  const [create, creating] = useCreateSocialAccountMutation();
  const [pageId, setPageId] = useState('');
  const [token, setToken] = useState('');
  const [botId, setBotId] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await create({
        channel,
        body: {
          page_id: pageId.trim(),
          access_token: token.trim(),
          ...(botId ? { bot_id: Number(botId) } : {}),
        },
      }).unwrap();
      notify.success(SOCIAL_TEXTS.connected[channel]);
      setPageId('');
      setToken('');
      onClose();
    } catch (failure) {
      setError(failureText(SOCIAL_TEXTS.connectFailed[channel], failure));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`${channel}-token-title`} fullWidth maxWidth="sm">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={`${channel}-token-title`}>Connect with a page token</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            {channel === 'instagram'
              ? 'The id of the Facebook page your Instagram professional account is linked to, and that page’s access token.'
              : 'The id of your Facebook page and its page access token.'}
          </DialogContentText>
          <DialogContentText variant="body2" sx={{ mb: 2 }}>
            The page id is on your Facebook page under About → Page transparency (or in Meta Business Suite,
            Settings → Business assets → Pages). A page access token comes from Meta’s Graph API Explorer:
            choose the app, Get Page Access Token, pick the page, then copy the token.{' '}
            <Link component={RouterLink} to={`/help/connecting-${channel}`}>
              More in Connecting {channel === 'instagram' ? 'Instagram' : 'Messenger'}
            </Link>
            .
          </DialogContentText>
          <Stack spacing={2}>
            <TextField
              label="Page id"
              value={pageId}
              onChange={(e) => setPageId(e.target.value)}
              required
              helperText="Digits only, e.g. 104522889012345"
            />
            <TextField
              label="Page access token"
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              required
              autoComplete="off"
            />
            <TextField select label="Bot" value={botId} onChange={(e) => setBotId(e.target.value)}>
              <MenuItem value="">
                <em>No bot (agents only)</em>
              </MenuItem>
              {bots.map((bot) => (
                <MenuItem key={bot.bot_id} value={String(bot.bot_id)}>
                  {bot.bot_name}
                </MenuItem>
              ))}
            </TextField>
            {error ? (
              <DialogContentText color="error" role="alert">
                {error}
              </DialogContentText>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={creating.isLoading || !pageId.trim() || !token.trim()}
          >
            Connect
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
