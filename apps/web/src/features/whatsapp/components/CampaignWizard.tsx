import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CampaignInput, type VariableSource, type WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import {
  useCampaignActionMutation,
  useContactsQuery,
  useCreateCampaignMutation,
  useTemplatesQuery,
} from '../api';
import { headerFieldOf, variablesOf } from '../model';
import { type PreviewTemplate, TemplatePreview } from './TemplatePreview';

const STEPS = ['Name', 'Template', 'Audience', 'Variables', 'Schedule'] as const;
type SourceKind = 'phone' | 'name' | 'email' | 'attribute' | 'text';
type VariableDraft = { kind: SourceKind; value: string };
const SOURCE_LABELS: Record<SourceKind, string> = {
  phone: 'Contact phone',
  name: 'Contact name',
  email: 'Contact email',
  attribute: 'Contact attribute',
  text: 'Fixed text',
};

function sourceOf(draft: VariableDraft): VariableSource {
  if (draft.kind === 'text') return { type: 'text', text: draft.value };
  if (draft.kind === 'attribute') return { type: 'field', field: draft.value.trim() };
  return { type: 'field', field: draft.kind };
}

/** What the preview shows for a variable: the fixed text, or the field's name in brackets. */
function sampleOf(draft: VariableDraft): string {
  if (draft.kind === 'text') return draft.value;
  if (draft.kind === 'attribute') return draft.value ? `[${draft.value}]` : '';
  return `[${draft.kind}]`;
}

/** A campaign step by step: name, approved template, audience, variables, when; then created and sent. */
export function CampaignWizard({ account, onClose }: { account: WhatsAppAccount; onClose: () => void }) {
  const notify = useNotify();
  const templates = useTemplatesQuery(account.id);
  const contacts = useContactsQuery({ accountId: account.id, skip: 0, limit: 1 });
  const [create, creating] = useCreateCampaignMutation();
  const [act, acting] = useCampaignActionMutation();
  const [step, setStep] = useState(0);
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState<number | ''>('');
  const [tags, setTags] = useState<string[]>([]);
  const [drafts, setDrafts] = useState<VariableDraft[]>([]);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [headerValue, setHeaderValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Created but not yet sent (the send failed): a retry sends it rather than creating another.
  const [createdId, setCreatedId] = useState<number | null>(null);

  const approved = (templates.data ?? []).filter((t) => t.status === 'APPROVED');
  const template = approved.find((t) => t.id === templateId) ?? null;
  const count = template ? Math.max(template.variable_count, variablesOf(template.body).at(-1) ?? 0) : 0;
  const variables = Array.from(
    { length: count },
    (_, i) => drafts[i] ?? { kind: 'name' as const, value: '' },
  );
  const header = headerFieldOf(template);
  const preview: PreviewTemplate | null = template
    ? {
        header: template.header,
        body: template.body,
        footer: template.footer,
        buttons: template.buttons.map((b) => ({ type: String(b.type ?? ''), text: String(b.text ?? '') })),
      }
    : null;

  const setDraft = (index: number, patch: Partial<VariableDraft>) =>
    setDrafts(() => variables.map((d, i) => (i === index ? { ...d, ...patch } : d)));

  const stepProblem = (): string | null => {
    if (step === 0 && !name.trim()) return 'Name is required';
    if (step === 1 && !template) return 'Choose an approved template';
    if (step === 3 && variables.some((v) => (v.kind === 'text' || v.kind === 'attribute') && !v.value.trim()))
      return 'Give every variable its attribute name or text';
    if (step === 3 && header?.kind === 'link' && !/^https:\/\/\S+$/.test(headerValue.trim()))
      return `Give the https link of the header ${header.media}`;
    if (step === 4 && when === 'later' && (!at || Number.isNaN(new Date(at).getTime())))
      return 'Choose when to send';
    return null;
  };

  const onNext = () => {
    const issue = stepProblem();
    setProblem(issue);
    if (!issue) setStep((s) => s + 1);
  };

  const onFinish = async () => {
    const issue = stepProblem();
    if (issue) return setProblem(issue);
    const parsed = CampaignInput.safeParse({
      account_id: account.id,
      name: name.trim(),
      template_id: templateId,
      audience_tags: tags,
      variables: variables.map(sourceOf),
      ...(header && headerValue.trim() ? { header_value: headerValue.trim() } : {}),
      scheduled_at: when === 'later' ? new Date(at).toISOString() : null,
    });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the campaign');
    setProblem(null);
    try {
      let id = createdId;
      if (id === null) {
        id = (await create(parsed.data).unwrap()).campaign.id;
        setCreatedId(id);
      }
      const sent = await act({ id, accountId: account.id, action: 'send' }).unwrap();
      notify.success(sent.message);
      onClose();
    } catch (error) {
      const text = errorText(error as never, 'The campaign could not be created');
      setProblem(text);
      notify.error(text);
    }
  };

  const busy = creating.isLoading || acting.isLoading;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="wa-campaign-title">
      <DialogTitle id="wa-campaign-title">New campaign</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3, mt: 1 }}>
          {STEPS.map((label) => (
            <Step key={label}>
              <StepLabel>{label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: '1fr', md: step > 0 ? '3fr 2fr' : '1fr' },
          }}
        >
          <Stack spacing={2}>
            {step === 0 ? (
              <TextField
                label="Campaign name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoFocus
              />
            ) : null}
            {step === 1 ? (
              approved.length === 0 ? (
                <Alert severity="info">
                  No approved template yet: create one under Templates and submit it; Meta's review usually
                  takes minutes.
                </Alert>
              ) : (
                <TextField
                  select
                  label="Template"
                  value={templateId}
                  onChange={(e) => {
                    setTemplateId(Number(e.target.value));
                    setDrafts([]);
                  }}
                >
                  {approved.map((t) => (
                    <MenuItem key={t.id} value={t.id}>
                      {t.name} ({t.language})
                    </MenuItem>
                  ))}
                </TextField>
              )
            ) : null}
            {step === 2 ? (
              <>
                <Typography variant="body2" color="text.secondary">
                  Contacts with any of the chosen tags; with none chosen, every contact. Opted-out contacts
                  never receive campaigns.
                </Typography>
                <FormGroup aria-label="Audience tags">
                  {(contacts.data?.tags ?? []).map((tag) => (
                    <FormControlLabel
                      key={tag}
                      label={tag}
                      control={
                        <Checkbox
                          checked={tags.includes(tag)}
                          onChange={(e) =>
                            setTags((current) =>
                              e.target.checked ? [...current, tag] : current.filter((t) => t !== tag),
                            )
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
                {contacts.data && contacts.data.tags.length === 0 ? (
                  <Typography variant="body2">
                    Your contacts have no tags: the campaign goes to everyone.
                  </Typography>
                ) : null}
                <Typography variant="subtitle2">
                  Audience: {tags.length === 0 ? 'every contact' : `contacts tagged ${tags.join(', ')}`}
                </Typography>
              </>
            ) : null}
            {step === 3 && header ? (
              <TextField
                size="small"
                label={
                  header.kind === 'link'
                    ? `Link of the header ${header.media} (https)`
                    : 'Header text for {{1}}'
                }
                value={headerValue}
                onChange={(e) => setHeaderValue(e.target.value)}
                placeholder={header.kind === 'text' ? (template?.header?.example ?? '') : 'https://'}
                fullWidth
                sx={{ mb: 2 }}
              />
            ) : null}
            {step === 3 ? (
              variables.length === 0 ? (
                <Typography>This template has no variables.</Typography>
              ) : (
                variables.map((draft, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: variables are numbered by position
                  <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                    <TextField
                      select
                      size="small"
                      label={`Value for {{${index + 1}}}`}
                      value={draft.kind}
                      onChange={(e) => setDraft(index, { kind: e.target.value as SourceKind, value: '' })}
                      sx={{ minWidth: 200 }}
                    >
                      {(Object.keys(SOURCE_LABELS) as SourceKind[]).map((kind) => (
                        <MenuItem key={kind} value={kind}>
                          {SOURCE_LABELS[kind]}
                        </MenuItem>
                      ))}
                    </TextField>
                    {draft.kind === 'attribute' || draft.kind === 'text' ? (
                      <TextField
                        size="small"
                        label={
                          draft.kind === 'text'
                            ? `Text for {{${index + 1}}}`
                            : `Attribute for {{${index + 1}}}`
                        }
                        value={draft.value}
                        onChange={(e) => setDraft(index, { value: e.target.value })}
                        fullWidth
                      />
                    ) : null}
                  </Stack>
                ))
              )
            ) : null}
            {step === 4 ? (
              <>
                <RadioGroup
                  aria-label="When to send"
                  value={when}
                  onChange={(e) => setWhen(e.target.value as 'now' | 'later')}
                >
                  <FormControlLabel value="now" control={<Radio />} label="Send now" />
                  <FormControlLabel value="later" control={<Radio />} label="Schedule" />
                </RadioGroup>
                {when === 'later' ? (
                  <TextField
                    type="datetime-local"
                    label="Send at"
                    value={at}
                    onChange={(e) => setAt(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                ) : null}
                <Typography variant="body2" color="text.secondary">
                  {name} · {template?.name} · {tags.length === 0 ? 'every contact' : tags.join(', ')}
                </Typography>
              </>
            ) : null}
            {problem ? <Alert severity="error">{problem}</Alert> : null}
          </Stack>
          {step > 0 && preview ? (
            <TemplatePreview template={preview} values={variables.map(sampleOf)} />
          ) : null}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {step > 0 ? <Button onClick={() => setStep((s) => s - 1)}>Back</Button> : null}
        {step < STEPS.length - 1 ? (
          <Button variant="contained" onClick={onNext}>
            Next
          </Button>
        ) : (
          <Button variant="contained" onClick={onFinish} disabled={busy}>
            {when === 'now' ? 'Create and send' : 'Create and schedule'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
