import Alert from '@mui/material/Alert';
import { leadFormDue } from '@parley/chat-client';
import type { ChatMessage, LeadFormConfig } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { browserStore } from '../../../shared/lib/storage';
import { useSubmitLeadMutation } from '../api';
import { useChatTexts } from '../texts';
import { LeadForm } from './LeadForm';

type Props = {
  uuid: string;
  config: LeadFormConfig | null;
  conversationId: number | null;
  /** A visitor's identity (the full-page chat): proves the conversation theirs, so the lead links to it. */
  visitorToken?: string | null;
  /** The conversation so far: the form shows when its trigger says (before the chat, after N messages, no answer). */
  messages: readonly Pick<ChatMessage, 'message_type' | 'answer_mode' | 'actions'>[];
};

const doneKey = (uuid: string) => `parley.lead.${uuid}`;

/**
 * The bot's lead form when it is enabled, sent to POST /auth/bot/uuid/{uuid}/lead with the current
 * conversation. Once sent (or dismissed) it gives way to a thank-you line and stays away on reload.
 */
export function LeadSection({ uuid, config, conversationId, visitorToken, messages }: Props) {
  const t = useChatTexts();
  const [submitLead] = useSubmitLeadMutation();
  const [state, setState] = useState<'form' | 'sent' | 'dismissed'>(() => {
    const stored = browserStore().getItem(doneKey(uuid));
    return stored === 'sent' || stored === 'dismissed' ? stored : 'form';
  });
  if (!config?.enabled || config.fields.length === 0 || state === 'dismissed') return null;
  if (state === 'form' && !leadFormDue(config, messages)) return null;
  if (state === 'sent') return <Alert severity="success">{t.thanks}</Alert>;

  const finish = (next: 'sent' | 'dismissed') => {
    browserStore().setItem(doneKey(uuid), next);
    setState(next);
  };
  return (
    <LeadForm
      config={config}
      onDismiss={() => finish('dismissed')}
      onSubmit={async (fields) => {
        const result = await submitLead({
          uuid,
          body: {
            fields,
            ...(conversationId ? { conversation_id: conversationId } : {}),
            ...(conversationId && visitorToken ? { visitor_token: visitorToken } : {}),
          },
        });
        if ('error' in result && result.error) return serverDetail(result.error) ?? t.leadFailed;
        finish('sent');
        return null;
      }}
    />
  );
}
