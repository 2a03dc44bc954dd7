import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { SOCIAL_CHANNELS, SOCIAL_TEXTS, type SocialChannel } from '@parley/contracts';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useBotsOfUserQuery } from '../../bots/api';
import { useIntegrationStatusQuery } from '../../integrations/api';
import { failureText } from '../../roles/failure';
import { useExchangeSocialTokenMutation } from '../api';
import { ChannelCard } from './ChannelCard';

export const META_CALLBACK_PATH = '/integrations/meta/callback';

/** Instagram and Messenger cards; on Facebook Login's return, the code is exchanged first. */
export function SocialChannels() {
  const me = useAppSelector((state) => state.session.user);
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me });
  const status = useIntegrationStatusQuery();
  const exchanging = useMetaCallback();
  if (exchanging) return <CircularProgress aria-label="Connecting your accounts" />;
  return (
    <Stack spacing={3}>
      {bots.isError ? <Alert severity="error">Your bots could not be loaded.</Alert> : null}
      {SOCIAL_CHANNELS.map((channel) => (
        <ChannelCard
          key={channel}
          channel={channel}
          bots={bots.data ?? []}
          status={status.data?.integrations.find((i) => i.key === channel)}
        />
      ))}
    </Stack>
  );
}

/**
 * Facebook sends the browser back to /integrations/meta/callback?channel=…&code=…&state=…: the code
 * is exchanged once (a reload must not replay it), the outcome shown, and the address tidied.
 */
function useMetaCallback(): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const [params] = useSearchParams();
  const [exchange] = useExchangeSocialTokenMutation();
  const started = useRef(false);
  const onCallback = location.pathname === META_CALLBACK_PATH;
  const [busy, setBusy] = useState(onCallback);

  useEffect(() => {
    if (!onCallback || started.current) return;
    started.current = true;
    const channel = (params.get('channel') === 'instagram' ? 'instagram' : 'messenger') as SocialChannel;
    const done = () => {
      setBusy(false);
      navigate('/integrations', { replace: true });
    };
    const denied = params.get('error_description') ?? params.get('error');
    if (denied) {
      notify.error(`${SOCIAL_TEXTS.exchangeFailed[channel]}: ${denied}`);
      return done();
    }
    exchange({ channel, code: params.get('code') ?? '', state: params.get('state') ?? '' })
      .unwrap()
      .then((result) => notify.success(result.message))
      .catch((error) => notify.error(failureText(SOCIAL_TEXTS.exchangeFailed[channel], error)))
      .finally(done);
  }, [onCallback, params, exchange, navigate, notify]);
  return busy;
}
