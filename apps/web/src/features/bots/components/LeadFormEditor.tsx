import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_LEAD_FORM,
  LEAD_FORM_TRIGGERS,
  type LeadFormConfig,
  type LeadFormField,
  type LeadFormTrigger,
} from '@parley/contracts';
import type { z } from 'zod';
import { TextInput } from '../../../shared/components/TextInput';
import { LeadFieldRow } from './LeadFieldRow';

export const MAX_LEAD_FIELDS = 10;

/** As the form holds it: fields with defaults may still be missing (the schema fills them in). */
type LeadFormDraft = z.input<typeof LeadFormConfig>;

const TRIGGER_LABELS: Record<LeadFormTrigger, string> = {
  before_chat: 'Before the first message',
  after_messages: 'After some messages',
  no_answer: "When the bot can't answer",
};

type Props = { value: LeadFormDraft | null; onChange: (next: LeadFormConfig) => void; error?: string };

/** The visitor form (lead capture): on or off, its title and its fields. */
export function LeadFormEditor({ value, onChange, error }: Props) {
  const config: LeadFormConfig = value ? { ...DEFAULT_LEAD_FORM, ...value } : DEFAULT_LEAD_FORM;
  const setField = (index: number, field: LeadFormField) =>
    onChange({ ...config, fields: config.fields.map((f, i) => (i === index ? field : f)) });
  const removeField = (index: number) =>
    onChange({ ...config, fields: config.fields.filter((_f, i) => i !== index) });
  const addField = () =>
    onChange({
      ...config,
      fields: [
        ...config.fields,
        { name: `field_${config.fields.length + 1}`, label: '', type: 'text', required: false },
      ],
    });
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" fontWeight={600} sx={{ mb: 1 }}>
        Lead form
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={config.enabled}
            onChange={(event) => onChange({ ...config, enabled: event.target.checked })}
          />
        }
        label="Ask visitors for their details"
      />
      {config.enabled ? (
        <>
          <TextInput
            id="lead-form-title"
            label="Form title"
            value={config.title}
            onChange={(event) => onChange({ ...config, title: event.target.value })}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              select
              id="lead-form-show-when"
              label="Show the form"
              value={config.show_when}
              onChange={(event) => onChange({ ...config, show_when: event.target.value as LeadFormTrigger })}
              sx={{ minWidth: 240 }}
            >
              {LEAD_FORM_TRIGGERS.map((trigger) => (
                <MenuItem key={trigger} value={trigger}>
                  {TRIGGER_LABELS[trigger]}
                </MenuItem>
              ))}
            </TextField>
            {config.show_when === 'after_messages' ? (
              <TextInput
                id="lead-form-after-messages"
                label="After how many messages"
                type="number"
                value={String(config.after_messages)}
                inputProps={{ min: 1, max: 50 }}
                onChange={(event) =>
                  onChange({
                    ...config,
                    after_messages: Math.min(50, Math.max(1, Number(event.target.value) || 1)),
                  })
                }
              />
            ) : null}
          </Stack>
          {config.fields.map((field, index) => (
            <LeadFieldRow
              // biome-ignore lint/suspicious/noArrayIndexKey: fields are edited in place; their position is their identity.
              key={index}
              index={index}
              field={field}
              onChange={(next) => setField(index, next)}
              onRemove={() => removeField(index)}
            />
          ))}
          <div>
            <Button size="small" onClick={addField} disabled={config.fields.length >= MAX_LEAD_FIELDS}>
              Add field
            </Button>
          </div>
        </>
      ) : null}
      {error ? (
        <Typography variant="caption" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
