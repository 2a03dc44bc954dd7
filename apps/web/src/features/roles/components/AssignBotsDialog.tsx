import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { User } from '@parley/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAssignBotsMutation, useBotsAssignedQuery, useBotsOfUserQuery } from '../../bots/api';
import { failureText } from '../failure';
import { FormDialog } from './FormDialog';

const ASSIGN_FAILED = 'Failed to assign bots';
type Props = { me: User; user: User | null; onClose: () => void };

/**
 * Which bots a user answers for (their inbox and bot list follow it): every bot, new ones included
 * (a new teammate's default, issue 31), or only the ones ticked here (the owner restricts them).
 */
export function AssignBotsDialog({ me, user, onClose }: Props) {
  const notify = useNotify();
  const bots = useBotsOfUserQuery(me.id, { skip: !user });
  const assigned = useBotsAssignedQuery({ userId: user?.id ?? 0, tenantId: me.tenant_id }, { skip: !user });
  const [assign, { error, isLoading, reset }] = useAssignBotsMutation();
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  // The user's setting, again whenever the users list reloads with a new one.
  const userAllBots = user?.all_bots !== false;
  const [allBots, setAllBots] = useState(userAllBots);
  useEffect(() => setAllBots(userAllBots), [userAllBots]);
  useEffect(() => {
    if (assigned.data) setChosen(new Set(assigned.data.map((bot) => bot.bot_id)));
  }, [assigned.data]);

  const toggle = (botId: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(botId)) next.delete(botId);
      else next.add(botId);
      return next;
    });
  const close = () => {
    reset();
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const result = await assign({ userId: user.id, body: { bot_ids: [...chosen], all_bots: allBots } });
    if ('data' in result) {
      notify.success('Bots assigned successfully');
      close();
    }
  };
  return (
    <FormDialog
      open={Boolean(user)}
      id="assign-bots"
      title="Assign bots"
      error={error ? failureText(ASSIGN_FAILED, error) : null}
      busy={isLoading}
      submitLabel="Save"
      onSubmit={submit}
      onClose={close}
    >
      <Typography color="text.secondary">
        {user ? `${user.first_name} ${user.last_name} (${user.email}) answers for:` : ''}
      </Typography>
      {bots.isLoading || assigned.isLoading ? <LinearProgress aria-label="Loading bots" /> : null}
      {bots.data?.length === 0 ? <Typography>No bots yet.</Typography> : null}
      <FormControlLabel
        control={<Switch checked={allBots} onChange={(event) => setAllBots(event.target.checked)} />}
        label="Every bot, new ones included"
      />
      <FormGroup aria-label="Only these bots">
        {(bots.data ?? []).map((bot) => (
          <FormControlLabel
            key={bot.bot_id}
            disabled={allBots}
            control={
              <Checkbox checked={allBots || chosen.has(bot.bot_id)} onChange={() => toggle(bot.bot_id)} />
            }
            label={bot.bot_name}
          />
        ))}
      </FormGroup>
      {allBots ? null : (
        <Typography variant="body2" color="text.secondary">
          Only the bots ticked here: bots created later are not included.
        </Typography>
      )}
    </FormDialog>
  );
}
