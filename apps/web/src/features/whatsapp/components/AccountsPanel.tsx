import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Bot, WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useBotsOfUserQuery } from '../../bots/api';
import { useAbility } from '../../permissions/hooks/useAbility';
import { BotLinkSelect } from '../../social/components/BotLinkSelect';
import { useLinkWhatsAppBotMutation, useRemoveWhatsAppAccountMutation } from '../api';
import { QUALITY_COLORS } from '../model';
import { accountErrorText } from './ConnectNumber';

type Props = { accounts: WhatsAppAccount[]; selectedId: number | null; onSelect: (id: number) => void };

/** The workspace's numbers: quality, linked bot (link, unlink) and removal after a confirmation. */
export function AccountsPanel({ accounts, selectedId, onSelect }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me });
  if (accounts.length === 0)
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">
          No WhatsApp number connected yet. Use “Connect a WhatsApp number” to sign in with Meta and choose
          one.
        </Typography>
      </Paper>
    );
  return (
    <Paper variant="outlined">
      <List aria-label="WhatsApp numbers">
        {accounts.map((account) => (
          <AccountRow
            key={account.id}
            account={account}
            bots={bots.data ?? []}
            selected={account.id === selectedId}
            onSelect={() => onSelect(account.id)}
          />
        ))}
      </List>
    </Paper>
  );
}

function AccountRow({
  account,
  bots,
  selected,
  onSelect,
}: {
  account: WhatsAppAccount;
  bots: Bot[];
  selected: boolean;
  onSelect: () => void;
}) {
  const ability = useAbility();
  const notify = useNotify();
  const [link, linking] = useLinkWhatsAppBotMutation();
  const [remove, removing] = useRemoveWhatsAppAccountMutation();
  const [confirming, setConfirming] = useState(false);
  const mayWrite = ability.can('write', 'Create Bot');
  const title = account.display_phone_number;

  const onBot = async (value: string) => {
    try {
      const { message } = await link({
        accountId: account.id,
        botId: value === '' ? null : Number(value),
      }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(accountErrorText(error));
    }
  };
  const onRemove = async () => {
    try {
      const { message } = await remove(account.id).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(accountErrorText(error));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <ListItem
      aria-label={title}
      divider
      sx={{ flexWrap: 'wrap', gap: 2, bgcolor: selected ? 'action.selected' : undefined }}
    >
      <ListItemAvatar>
        <Avatar sx={{ bgcolor: '#25D366' }}>{account.verified_name.slice(0, 1).toUpperCase() || '#'}</Avatar>
      </ListItemAvatar>
      <ListItemText
        sx={{ flex: '1 1 240px' }}
        primary={
          <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
            <span>{title}</span>
            <Chip
              size="small"
              label={`Quality ${account.quality_rating}`}
              color={QUALITY_COLORS[account.quality_rating] ?? 'default'}
            />
            {account.is_active ? null : (
              <Tooltip title={account.inactive_reason ?? ''}>
                <Chip size="small" color="warning" label="Inactive" />
              </Tooltip>
            )}
            {selected ? <Chip size="small" variant="outlined" label="Selected" /> : null}
          </Stack>
        }
        secondary={
          <>
            {account.verified_name || 'No verified name'} · Bot: {account.bot_name ?? 'none (agents only)'}
            {account.is_active ? '' : ` · ${account.inactive_reason ?? ''}`}
          </>
        }
      />
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
        {selected ? null : (
          <Button size="small" onClick={onSelect}>
            Select
          </Button>
        )}
        {mayWrite ? (
          <>
            <BotLinkSelect
              title={title}
              botId={account.bot_id}
              bots={bots}
              busy={linking.isLoading}
              onChange={onBot}
            />
            <Button size="small" color="error" onClick={() => setConfirming(true)}>
              Remove
            </Button>
          </>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${title}?`}
        text="The bot stops answering this number and its business account is unsubscribed. Conversations stay in the inbox; templates, contacts and campaigns of the number are removed."
        confirmLabel="Remove"
        busy={removing.isLoading}
        onConfirm={onRemove}
        onClose={() => setConfirming(false)}
      />
    </ListItem>
  );
}
