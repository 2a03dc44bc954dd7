import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ConversationWithMessages, WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useSendConversationTemplateMutation, useTemplatesQuery, useWhatsappAccountsQuery } from '../api';
import { headerFieldOf, variablesOf } from '../model';
import { TemplatePreview } from './TemplatePreview';

/** The conversation's account: the one whose number the customer writes to. */
export function accountOf(
  accounts: readonly WhatsAppAccount[],
  conversation: Pick<ConversationWithMessages, 'whatsapp_phone_number_id'>,
): WhatsAppAccount | null {
  const phoneId = conversation.whatsapp_phone_number_id;
  return phoneId ? (accounts.find((a) => a.phone_number_id === phoneId) ?? null) : null;
}

/**
 * The inbox's reply box once WhatsApp's 24-hour window has closed: an approved template of the
 * conversation's number, its numbered variables filled in, a preview, and send.
 */
export function ConversationTemplate({ conversation }: { conversation: ConversationWithMessages }) {
  const notify = useNotify();
  const accounts = useWhatsappAccountsQuery();
  const account = accountOf(accounts.data ?? [], conversation);
  const templates = useTemplatesQuery(account?.id ?? 0, { skip: !account });
  const [send, sending] = useSendConversationTemplateMutation();
  const [templateId, setTemplateId] = useState<number | ''>('');
  const [values, setValues] = useState<string[]>([]);
  const [headerValue, setHeaderValue] = useState('');
  const approved = (templates.data ?? []).filter((t) => t.status === 'APPROVED');
  const template = approved.find((t) => t.id === templateId) ?? null;
  const count = template ? Math.max(template.variable_count, variablesOf(template.body).at(-1) ?? 0) : 0;
  const filled = Array.from({ length: count }, (_, i) => values[i] ?? '');
  const header = headerFieldOf(template);
  const headerMissing = header?.kind === 'link' && !/^https:\/\/\S+$/.test(headerValue.trim());

  const onSend = async () => {
    if (!template) return;
    try {
      const { message } = await send({
        conversationId: conversation.id,
        body: {
          template_id: template.id,
          variables: filled,
          ...(header && headerValue.trim() ? { header_value: headerValue.trim() } : {}),
        },
      }).unwrap();
      notify.success(message);
      setTemplateId('');
      setValues([]);
      setHeaderValue('');
    } catch (error) {
      notify.error(errorText(error as never, 'The template could not be sent'));
    }
  };

  if (accounts.isSuccess && !account)
    return (
      <Alert severity="warning" sx={{ m: 1 }}>
        The WhatsApp number of this conversation is no longer connected.
      </Alert>
    );
  return (
    <Box sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider' }} data-testid="send-template">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Send a template
      </Typography>
      {templates.isSuccess && approved.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          This number has no approved template yet (WhatsApp → Templates).
        </Typography>
      ) : (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
          <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
            <TextField
              select
              size="small"
              label="Template"
              value={templateId}
              onChange={(e) => {
                setTemplateId(Number(e.target.value));
                setValues([]);
              }}
            >
              {approved.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.name} ({t.language})
                </MenuItem>
              ))}
            </TextField>
            {header ? (
              <TextField
                size="small"
                label={
                  header.kind === 'link'
                    ? `Link of the header ${header.media} (https)`
                    : 'Header text for {{1}}'
                }
                value={headerValue}
                onChange={(e) => setHeaderValue(e.target.value)}
              />
            ) : null}
            {filled.map((value, index) => (
              <TextField
                // biome-ignore lint/suspicious/noArrayIndexKey: variables are numbered by position
                key={index}
                size="small"
                label={`Variable {{${index + 1}}}`}
                value={value}
                onChange={(e) => setValues(filled.map((v, i) => (i === index ? e.target.value : v)))}
              />
            ))}
            <Box>
              <Button
                variant="contained"
                onClick={onSend}
                disabled={!template || sending.isLoading || headerMissing || filled.some((v) => !v.trim())}
              >
                Send template
              </Button>
            </Box>
          </Stack>
          {template ? (
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <TemplatePreview
                template={{
                  header: template.header,
                  body: template.body,
                  footer: template.footer,
                  buttons: template.buttons.map((b) => ({
                    type: String(b.type ?? ''),
                    text: String(b.text ?? ''),
                  })),
                }}
                values={filled}
              />
            </Box>
          ) : null}
        </Stack>
      )}
    </Box>
  );
}
