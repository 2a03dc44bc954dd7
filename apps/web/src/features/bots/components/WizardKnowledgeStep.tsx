import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import type { KnowledgeIds } from '../schemas';
import { KnowledgePicker } from './KnowledgePicker';
import { WizardNav } from './WizardNav';

type Props = {
  value: KnowledgeIds;
  onChange: (next: KnowledgeIds) => void;
  onBack: () => void;
  onNext: () => void;
};

/** Step 2: the knowledge the bot answers from (it can change later on the bot's page). */
export function WizardKnowledgeStep({ value, onChange, onBack, onNext }: Props) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onNext();
  };
  return (
    <Stack component="form" aria-label="Bot knowledge" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Pick what this bot learns from. Q&amp;A pairs are added per bot once it exists.
      </Typography>
      <KnowledgePicker value={value} onChange={onChange} />
      <WizardNav onBack={onBack} nextLabel="Next" />
    </Stack>
  );
}
