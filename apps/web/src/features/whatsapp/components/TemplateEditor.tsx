import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  TemplateInput,
  WHATSAPP_TEXTS,
  type WhatsAppAccount,
  type WhatsAppTemplate,
} from '@parley/contracts';
import { useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useCreateTemplateMutation, useUpdateTemplateMutation, useUploadTemplateMediaMutation } from '../api';
import { variablesOf } from '../model';
import { TemplatePreview } from './TemplatePreview';

type ButtonDraft = {
  type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';
  text: string;
  url: string;
  phone_number: string;
};
type HeaderFormat = '' | (typeof HEADER_FORMATS)[number];

const BUTTON_LABELS: Record<ButtonDraft['type'], string> = {
  QUICK_REPLY: 'Quick reply',
  URL: 'Visit website',
  PHONE_NUMBER: 'Call phone number',
};

function draftButtons(template: WhatsAppTemplate | null): ButtonDraft[] {
  return (template?.buttons ?? []).map((b) => ({
    type: (b.type as ButtonDraft['type']) ?? 'QUICK_REPLY',
    text: String(b.text ?? ''),
    url: String(b.url ?? ''),
    phone_number: String(b.phone_number ?? ''),
  }));
}

type Props = { account: WhatsAppAccount; template: WhatsAppTemplate | null; onClose: () => void };

/** Creates or edits a template (drafts and rejected ones), with a live preview beside the form. */
export function TemplateEditor({ account, template, onClose }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const notify = useNotify();
  const [create, creating] = useCreateTemplateMutation();
  const [update, updating] = useUpdateTemplateMutation();
  const [upload, uploading] = useUploadTemplateMediaMutation();
  const [name, setName] = useState(template?.name ?? '');
  const [language, setLanguage] = useState(template?.language ?? 'en_US');
  const [category, setCategory] = useState(template?.category ?? 'MARKETING');
  const [headerFormat, setHeaderFormat] = useState<HeaderFormat>(
    (template?.header?.format as HeaderFormat) ?? '',
  );
  const [headerText, setHeaderText] = useState(template?.header?.text ?? '');
  const [headerExample, setHeaderExample] = useState(template?.header?.example ?? '');
  const [mediaHandle, setMediaHandle] = useState(template?.header?.media_handle ?? '');
  const [mediaName, setMediaName] = useState('');
  const [body, setBody] = useState(template?.body ?? '');
  const [examples, setExamples] = useState<string[]>(template?.body_examples ?? []);
  const [footer, setFooter] = useState(template?.footer ?? '');
  const [buttons, setButtons] = useState<ButtonDraft[]>(draftButtons(template));
  const [problem, setProblem] = useState<string | null>(null);

  const variables = variablesOf(body);
  const maxVariable = variables.at(-1) ?? 0;
  const bodyExamples = Array.from({ length: maxVariable }, (_, i) => examples[i] ?? '');
  const headerHasVariable = headerFormat === 'TEXT' && variablesOf(headerText).length > 0;
  const header =
    headerFormat === ''
      ? null
      : headerFormat === 'TEXT'
        ? {
            format: 'TEXT' as const,
            text: headerText,
            ...(headerHasVariable ? { example: headerExample } : {}),
          }
        : { format: headerFormat, media_handle: mediaHandle || undefined };

  const setExample = (n: number, value: string) =>
    setExamples((current) => {
      const next = [...current];
      while (next.length < n) next.push('');
      next[n - 1] = value;
      return next;
    });
  const setButton = (index: number, patch: Partial<ButtonDraft>) =>
    setButtons((current) => current.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  const onMedia = async (file: File | undefined) => {
    if (!file || headerFormat === '' || headerFormat === 'TEXT' || !me) return;
    try {
      const result = await upload({
        tenantId: me.tenant_id,
        accountId: account.id,
        mediaType: headerFormat.toLowerCase() as 'image' | 'video' | 'document',
        file,
      }).unwrap();
      setMediaHandle(result.handle);
      setMediaName(file.name);
    } catch (error) {
      notify.error(errorText(error as never, WHATSAPP_TEXTS.mediaUploadFailed));
    }
  };

  const onSave = async () => {
    const input = {
      account_id: account.id,
      name: name.trim(),
      language: language.trim(),
      category,
      header,
      body,
      body_examples: bodyExamples,
      footer: footer.trim() ? footer : null,
      buttons: buttons.map((b) =>
        b.type === 'URL'
          ? { type: b.type, text: b.text, url: b.url }
          : b.type === 'PHONE_NUMBER'
            ? { type: b.type, text: b.text, phone_number: b.phone_number }
            : { type: b.type, text: b.text },
      ),
    };
    const parsed = TemplateInput.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setProblem(issue ? `${issue.path.join('.') || 'Template'}: ${issue.message}` : 'Check the template');
      return;
    }
    setProblem(null);
    try {
      if (template) {
        const { account_id: _, ...fields } = parsed.data;
        await update({ id: template.id, accountId: account.id, body: fields }).unwrap();
        notify.success(WHATSAPP_TEXTS.templateUpdated);
      } else {
        await create(parsed.data).unwrap();
        notify.success(WHATSAPP_TEXTS.templateCreated);
      }
      onClose();
    } catch (error) {
      const text = errorText(
        error as never,
        template ? WHATSAPP_TEXTS.templateUpdateFailed : WHATSAPP_TEXTS.templateCreateFailed,
      );
      setProblem(text);
      notify.error(text);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="wa-template-title">
      <DialogTitle id="wa-template-title">{template ? `Edit ${template.name}` : 'New template'}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, pt: 1 }}>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Template name"
                value={name}
                onChange={(e) => setName(e.target.value.toLowerCase().replace(/\s+/g, '_'))}
                helperText="Lowercase letters, digits and underscores"
                fullWidth
                disabled={Boolean(template)}
              />
              <TextField
                label="Language"
                value={language}
                onChange={(e) => setLanguage(e.target.value)}
                helperText="For example en or en_US"
                sx={{ minWidth: 140 }}
              />
              <TextField
                select
                label="Category"
                value={category}
                onChange={(e) => setCategory(e.target.value)}
                sx={{ minWidth: 180 }}
              >
                {TEMPLATE_CATEGORIES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c.charAt(0) + c.slice(1).toLowerCase()}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="flex-start">
              <TextField
                select
                label="Header"
                value={headerFormat}
                onChange={(e) => setHeaderFormat(e.target.value as HeaderFormat)}
                sx={{ minWidth: 160 }}
              >
                <MenuItem value="">None</MenuItem>
                {HEADER_FORMATS.map((f) => (
                  <MenuItem key={f} value={f}>
                    {f.charAt(0) + f.slice(1).toLowerCase()}
                  </MenuItem>
                ))}
              </TextField>
              {headerFormat === 'TEXT' ? (
                <>
                  <TextField
                    label="Header text"
                    value={headerText}
                    onChange={(e) => setHeaderText(e.target.value)}
                    slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.header } }}
                    fullWidth
                  />
                  {headerHasVariable ? (
                    <TextField
                      label="Header example"
                      value={headerExample}
                      onChange={(e) => setHeaderExample(e.target.value)}
                      fullWidth
                    />
                  ) : null}
                </>
              ) : headerFormat ? (
                <Stack spacing={0.5}>
                  <Button
                    component="label"
                    variant="outlined"
                    startIcon={<UploadFile />}
                    disabled={uploading.isLoading}
                  >
                    {uploading.isLoading ? 'Uploading…' : `Upload ${headerFormat.toLowerCase()}`}
                    <input
                      hidden
                      type="file"
                      aria-label="Header media file"
                      accept={
                        headerFormat === 'IMAGE'
                          ? 'image/jpeg,image/png'
                          : headerFormat === 'VIDEO'
                            ? 'video/mp4'
                            : 'application/pdf'
                      }
                      onChange={(e) => void onMedia(e.target.files?.[0])}
                    />
                  </Button>
                  <Typography variant="caption" color="text.secondary">
                    {mediaHandle
                      ? `Uploaded${mediaName ? `: ${mediaName}` : ''}`
                      : 'An example file Meta reviews'}
                  </Typography>
                </Stack>
              ) : null}
            </Stack>
            <TextField
              label="Body"
              value={body}
              onChange={(e) => setBody(e.target.value)}
              multiline
              minRows={4}
              helperText={`Use {{1}}, {{2}}… for values filled in per message. ${body.length}/${TEMPLATE_LIMITS.body}`}
              slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.body } }}
            />
            {variables.length > 0 ? (
              <Stack spacing={1} aria-label="Variable examples" role="group">
                <Typography variant="subtitle2">Examples (Meta reviews the template with these)</Typography>
                {variables.map((n) => (
                  <TextField
                    key={n}
                    size="small"
                    label={`Example for {{${n}}}`}
                    value={examples[n - 1] ?? ''}
                    onChange={(e) => setExample(n, e.target.value)}
                  />
                ))}
              </Stack>
            ) : null}
            <TextField
              label="Footer"
              value={footer}
              onChange={(e) => setFooter(e.target.value)}
              helperText="Optional, without variables"
              slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.footer } }}
            />
            <Stack spacing={1}>
              <Typography variant="subtitle2">Buttons</Typography>
              {buttons.map((button, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: buttons are identified by their order
                <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems="center">
                  <Typography variant="body2" sx={{ minWidth: 130 }}>
                    {BUTTON_LABELS[button.type]}
                  </Typography>
                  <TextField
                    size="small"
                    label={`Button ${index + 1} text`}
                    value={button.text}
                    onChange={(e) => setButton(index, { text: e.target.value })}
                    slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.buttonText } }}
                  />
                  {button.type === 'URL' ? (
                    <TextField
                      size="small"
                      label={`Button ${index + 1} URL`}
                      value={button.url}
                      onChange={(e) => setButton(index, { url: e.target.value })}
                      fullWidth
                    />
                  ) : null}
                  {button.type === 'PHONE_NUMBER' ? (
                    <TextField
                      size="small"
                      label={`Button ${index + 1} phone number`}
                      value={button.phone_number}
                      onChange={(e) => setButton(index, { phone_number: e.target.value })}
                      fullWidth
                    />
                  ) : null}
                  <IconButton
                    aria-label={`Remove button ${index + 1}`}
                    onClick={() => setButtons((current) => current.filter((_, i) => i !== index))}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Stack>
              ))}
              <Stack direction="row" spacing={1} flexWrap="wrap">
                {(Object.keys(BUTTON_LABELS) as ButtonDraft['type'][]).map((type) => (
                  <Button
                    key={type}
                    size="small"
                    startIcon={<Add />}
                    disabled={buttons.length >= TEMPLATE_LIMITS.buttons}
                    onClick={() =>
                      setButtons((current) => [...current, { type, text: '', url: '', phone_number: '' }])
                    }
                  >
                    {`Add ${BUTTON_LABELS[type].toLowerCase()} button`}
                  </Button>
                ))}
              </Stack>
            </Stack>
            {problem ? <Alert severity="error">{problem}</Alert> : null}
          </Stack>
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              Preview
            </Typography>
            <TemplatePreview
              template={{ header, body, footer: footer || null, buttons }}
              values={bodyExamples}
            />
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={onSave} disabled={creating.isLoading || updating.isLoading}>
          {template ? 'Save template' : 'Create template'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
