import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { BOT } from '@parley/contracts';
import type { FormEvent } from 'react';
import { useCompanyModels } from '../hooks/useCompanyModels';
import { knowledgeCount } from '../knowledge-defaults';
import { modelLabel } from '../model-label';
import type { DetailsFields, InstructionsFields, KnowledgeIds } from '../schemas';
import { BotAvatar } from './BotAvatar';
import { WizardNav } from './WizardNav';

type Props = {
  details: DetailsFields;
  knowledge: KnowledgeIds;
  instructions: InstructionsFields;
  image: File | null;
  imagePreview: string | null;
  error: string | null;
  busy: boolean;
  /** Back to the Knowledge step (from the warning about a bot with nothing to answer from). */
  onKnowledge: () => void;
  onBack: () => void;
  onCreate: () => void;
};

/** Step 4: everything chosen so far, and Create. */
export function WizardReviewStep({
  details,
  knowledge,
  instructions,
  image,
  imagePreview,
  error,
  busy,
  onKnowledge,
  onBack,
  onCreate,
}: Props) {
  const models = useCompanyModels();
  // The built-in answerer quotes the sources: it has no temperature and never searches the internet.
  const builtIn = instructions.llm_model === null;
  const rows: [string, string][] = [
    ['Name', details.bot_name],
    ['Description', details.description || '—'],
    ['Profile image', image ? image.name : 'None'],
    ['File groups', String(knowledge.file_group_ids.length)],
    ['Websites', String(knowledge.web_source_ids.length)],
    ['Notion workspaces', String(knowledge.notion_workspace_ids.length)],
    [
      'Instructions',
      instructions.prompt
        ? `${instructions.prompt.slice(0, 120)}${instructions.prompt.length > 120 ? '…' : ''}`
        : 'None',
    ],
    ['Model', modelLabel(instructions.llm_model, models)],
    ...(builtIn ? [] : [['Temperature', instructions.temperature.toFixed(1)] as [string, string]]),
    ['Sources per answer', String(instructions.max_citations)],
    [
      'Talk to a person',
      { always: 'Always', after_miss: 'After a miss', never: 'Never' }[instructions.human_button],
    ],
    ...(builtIn ? [] : [['Internet search', instructions.internet ? 'On' : 'Off'] as [string, string]]),
  ];
  const noKnowledge = knowledgeCount(knowledge) === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCreate();
  };
  return (
    <Stack component="form" aria-label="Review" onSubmit={submit} spacing={2}>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {noKnowledge ? (
        <Alert
          severity="warning"
          aria-label="No knowledge"
          action={
            <Button color="inherit" size="small" onClick={onKnowledge}>
              Choose knowledge
            </Button>
          }
        >
          This bot has no knowledge yet: until you give it files, websites or Notion pages (or add Q&amp;A
          pairs once it exists), it can only say that it does not know.
        </Alert>
      ) : null}
      <BotAvatar name={details.bot_name} image={imagePreview} color={BOT.defaultBrandColor} size={64} />
      <Table size="small" aria-label="Bot summary">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ width: 200, fontWeight: 600 }}>
                {label}
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <WizardNav onBack={onBack} nextLabel={busy ? 'Creating…' : 'Create bot'} busy={busy} />
    </Stack>
  );
}
