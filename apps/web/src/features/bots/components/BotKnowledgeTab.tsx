import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Bot } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useSaveBot } from '../hooks/useSaveBot';
import type { KnowledgeIds } from '../schemas';
import { KnowledgePicker } from './KnowledgePicker';
import { SaveBar } from './SaveBar';

const idsOf = (bot: Bot): KnowledgeIds => ({
  file_group_ids: bot.file_group_ids,
  web_source_ids: bot.web_source_ids,
  notion_workspace_ids: bot.notion_workspace_ids,
});

/** Attach or detach file groups, websites and Notion workspaces; Q&A is managed on its own page. */
export function BotKnowledgeTab({ bot }: { bot: Bot }) {
  const [value, setValue] = useState<KnowledgeIds>(() => idsOf(bot));
  const { save, busy } = useSaveBot(bot.bot_id);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await save(value);
    if (saved) setValue(idsOf(saved));
  };
  return (
    <Stack component="form" aria-label="Knowledge" onSubmit={submit}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          The bot answers from the sources ticked here.
        </Typography>
        <Button component={Link} to={`/bot/knowledge/qna?bot=${bot.bot_id}`}>
          Manage Q&amp;A
        </Button>
      </Stack>
      <KnowledgePicker value={value} onChange={setValue} />
      <SaveBar busy={busy} onReset={() => setValue(idsOf(bot))} />
    </Stack>
  );
}
