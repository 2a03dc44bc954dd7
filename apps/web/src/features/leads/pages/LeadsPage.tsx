import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useWorkingBots } from '../../bots/hooks/useWorkingBots';
import { LeadsPanel } from '../components/LeadsPanel';

/**
 * /leads: what visitors left through the lead forms of the bots the person works with, one bot at a
 * time (the bot in the URL, so a link can name it). For anyone who reads Leads: an agent reaches it
 * without managing bots, where the bot page's Leads tab needs Manage Bots (issue 31).
 */
export function LeadsPage() {
  const bots = useWorkingBots();
  const [params, setParams] = useSearchParams();
  const list = bots.data ?? [];
  const wanted = Number(params.get('bot'));
  const bot = list.find((b) => b.bot_id === wanted) ?? list[0];

  const picker =
    list.length > 1 && bot ? (
      <TextField
        select
        size="small"
        label="Bot"
        value={bot.bot_id}
        onChange={(event) => setParams({ bot: event.target.value }, { replace: true })}
        sx={{ minWidth: 220 }}
      >
        {list.map((b) => (
          <MenuItem key={b.bot_id} value={b.bot_id}>
            {b.bot_name}
          </MenuItem>
        ))}
      </TextField>
    ) : null;

  return (
    <>
      <PageHeader
        title="Leads"
        subtitle={
          bot && list.length === 1
            ? `What visitors left through ${bot.bot_name}'s lead form.`
            : "What visitors left through your bots' lead forms."
        }
        actions={picker}
      />
      {bots.isLoading ? <CircularProgress aria-label="Loading bots" /> : null}
      {bots.isError ? <Alert severity="error">The bots could not be loaded.</Alert> : null}
      {!bots.isLoading && !bots.isError && list.length === 0 ? (
        <Typography color="text.secondary">
          No bots yet: leads appear here once a bot with a lead form is on a website.
        </Typography>
      ) : null}
      {bot ? <LeadsPanel key={bot.bot_id} botId={bot.bot_id} /> : null}
    </>
  );
}
