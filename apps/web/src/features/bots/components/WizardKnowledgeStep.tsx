import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect } from 'react';
import { useAppSelector } from '../../../app/store';
import { useWebSourcesQuery } from '../../crawler/api';
import { useFileGroupsQuery } from '../../files/api';
import { useNotionStatusQuery } from '../../notion/api';
import { useBotsOfUserQuery } from '../api';
import { unusedKnowledge } from '../knowledge-defaults';
import type { KnowledgeIds } from '../schemas';
import { KnowledgePicker } from './KnowledgePicker';
import { WizardNav } from './WizardNav';

type Props = {
  value: KnowledgeIds;
  onChange: (next: KnowledgeIds) => void;
  /** Whether the step's defaults were applied already (once per wizard, so an untick stays). */
  defaulted: boolean;
  /** The sources no bot uses yet, ticked when the lists first arrive. */
  onDefaults: (unused: KnowledgeIds) => void;
  onBack: () => void;
  onNext: () => void;
};

/** Step 2: the knowledge the bot answers from (it can change later on the bot's page). */
export function WizardKnowledgeStep({ value, onChange, defaulted, onDefaults, onBack, onNext }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const groups = useFileGroupsQuery(me?.id ?? 0, { skip: !me });
  const sources = useWebSourcesQuery(me?.tenant_id ?? 0, { skip: !me });
  const notion = useNotionStatusQuery();
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me });

  useEffect(() => {
    if (defaulted || !groups.data || !sources.data || !bots.data || notion.isLoading) return;
    onDefaults(
      unusedKnowledge(
        {
          file_group_ids: groups.data.map((g) => g.id),
          web_source_ids: sources.data.map((s) => s.source_id),
          notion_workspace_ids: (notion.data?.workspaces ?? []).map((w) => w.id),
        },
        bots.data,
      ),
    );
  }, [defaulted, groups.data, sources.data, bots.data, notion.isLoading, notion.data, onDefaults]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onNext();
  };
  return (
    <Stack component="form" aria-label="Bot knowledge" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Pick what this bot learns from. What no other bot uses yet is ticked, and what you add here comes back
        ticked. Q&amp;A pairs are added per bot once it exists.
      </Typography>
      <KnowledgePicker value={value} onChange={onChange} />
      <WizardNav onBack={onBack} nextLabel="Next" />
    </Stack>
  );
}
