import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  type Bot,
  type IntegrationStatus,
  SOCIAL_TEXTS,
  type SocialAccount,
  type SocialChannel,
} from '@parley/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { canConnect, IntegrationNotice } from '../../integrations/components/IntegrationNotice';
import { useAbility } from '../../permissions/hooks/useAbility';
import { failureText } from '../../roles/failure';
import {
  useDeleteSocialAccountMutation,
  useLinkSocialBotMutation,
  useSocialAccountsQuery,
  useSocialAuthorizeMutation,
} from '../api';
import { BotLinkSelect } from './BotLinkSelect';
import { ChannelMark } from './ChannelMark';
import { PageTokenDialog } from './PageTokenDialog';

export const CHANNEL_NAMES: Record<SocialChannel, string> = {
  instagram: 'Instagram',
  messenger: 'Messenger',
};
const BLURB: Record<SocialChannel, string> = {
  instagram: 'Answer direct messages of the Instagram professional accounts linked to your Facebook pages.',
  messenger: 'Answer Messenger conversations of your Facebook pages.',
};

/** One channel: connect (Facebook Login or a page token), its accounts, their bot, disconnect. */
export function ChannelCard({
  channel,
  bots,
  status,
}: {
  channel: SocialChannel;
  bots: Bot[];
  /** Whether this install is set up for the channel and the plan includes it; undefined while loading. */
  status: IntegrationStatus | undefined;
}) {
  const name = CHANNEL_NAMES[channel];
  const ability = useAbility();
  const notify = useNotify();
  const accounts = useSocialAccountsQuery(channel);
  const [authorize, authorizing] = useSocialAuthorizeMutation();
  const [pasting, setPasting] = useState(false);

  const onConnect = async () => {
    try {
      const { url } = await authorize(channel).unwrap();
      window.location.assign(url);
    } catch (error) {
      notify.error(failureText(SOCIAL_TEXTS.connectFailed[channel], error));
    }
  };

  return (
    <Card variant="outlined" component="section" aria-label={name}>
      <CardContent>
        <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1 }}>
          <ChannelMark channel={channel} />
          <Typography variant="h6" component="h2">
            {name}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {BLURB[channel]}
        </Typography>
        <IntegrationNotice status={status} />
        {ability.can('create', 'Create Bot') ? (
          <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
            <Button
              variant="contained"
              onClick={onConnect}
              disabled={authorizing.isLoading || !status || !canConnect(status)}
            >
              Connect {name}
            </Button>
            <Button onClick={() => setPasting(true)} disabled={!status || !canConnect(status)}>
              Connect with a page token
            </Button>
          </Stack>
        ) : null}
        {accounts.isLoading ? <CircularProgress size={24} aria-label={`Loading ${name} accounts`} /> : null}
        {accounts.isError ? <Alert severity="error">{SOCIAL_TEXTS.fetchFailed[channel]}</Alert> : null}
        {accounts.data?.length === 0 ? (
          <Typography color="text.secondary">No {name} account connected yet.</Typography>
        ) : null}
        <List aria-label={`${name} accounts`} dense>
          {(accounts.data ?? []).map((account) => (
            <AccountRow key={account.id} account={account} bots={bots} />
          ))}
        </List>
      </CardContent>
      <PageTokenDialog channel={channel} bots={bots} open={pasting} onClose={() => setPasting(false)} />
    </Card>
  );
}

function AccountRow({ account, bots }: { account: SocialAccount; bots: Bot[] }) {
  const { channel } = account;
  const ability = useAbility();
  const notify = useNotify();
  const [link, linking] = useLinkSocialBotMutation();
  const [remove, removing] = useDeleteSocialAccountMutation();
  const [confirming, setConfirming] = useState(false);
  const title =
    channel === 'instagram' ? `@${account.username ?? account.instagram_account_id}` : account.page_name;
  const subtitle = channel === 'instagram' ? `Page: ${account.page_name}` : `Page id ${account.page_id}`;
  const mayWrite = ability.can('write', 'Create Bot');

  const onBot = async (value: string) => {
    const botId = value === '' ? null : Number(value);
    try {
      const { message } = await link({ channel, accountId: account.id, botId }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(failureText(SOCIAL_TEXTS.connectFailed[channel], error));
    }
  };
  const onDisconnect = async () => {
    try {
      const { message } = await remove({ channel, id: account.id }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(failureText(SOCIAL_TEXTS.disconnectFailed[channel], error));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <ListItem
      aria-label={title}
      divider
      secondaryAction={
        mayWrite ? (
          <Stack direction="row" spacing={1} alignItems="center">
            <BotLinkSelect
              title={title}
              botId={account.bot_id}
              bots={bots}
              busy={linking.isLoading}
              onChange={onBot}
            />
            <Button size="small" color="error" onClick={() => setConfirming(true)}>
              Disconnect
            </Button>
          </Stack>
        ) : null
      }
      sx={{ pr: mayWrite ? 52 : 2 }}
    >
      <ListItemAvatar>
        <Avatar>{title.replace('@', '').slice(0, 1).toUpperCase()}</Avatar>
      </ListItemAvatar>
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} alignItems="center">
            <span>{title}</span>
            {account.is_active ? (
              <Chip size="small" color="success" label="Active" />
            ) : (
              <Tooltip title={account.inactive_reason ?? ''}>
                <Chip size="small" color="warning" label="Inactive" />
              </Tooltip>
            )}
          </Stack>
        }
        secondary={account.is_active ? subtitle : `${subtitle} · ${account.inactive_reason ?? ''}`}
      />
      <ConfirmDialog
        open={confirming}
        title={`Disconnect ${title}?`}
        text="The bot stops answering its messages and the page is unsubscribed. Conversations stay in the inbox."
        confirmLabel="Disconnect"
        busy={removing.isLoading}
        onConfirm={onDisconnect}
        onClose={() => setConfirming(false)}
      />
    </ListItem>
  );
}
