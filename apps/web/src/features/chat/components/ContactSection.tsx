import { contactFormDue, contactFormIn } from '@parley/chat-client';
import type { ChatMessage } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useLeaveContactMutation } from '../api';
import { useChatTexts } from '../texts';
import { LeadForm } from './LeadForm';

type Props = {
  conversationId: number | null;
  messages: readonly ChatMessage[];
  /** The visitor's token on the public chat page; the playground sends its session instead. */
  visitorToken?: string | null;
  /** The thank-you the server stored, shown in the conversation at once. */
  onSent: (message: ChatMessage) => void;
};

/**
 * The contact form the hand-off offers when nobody from the team can come (issue 31 item 5): name,
 * email and the question (pre-filled with the visitor's last one), sent for this conversation.
 * "Not now" puts off this offer; asking for a person again offers it again.
 */
export function ContactSection({ conversationId, messages, visitorToken, onSent }: Props) {
  const t = useChatTexts();
  const [leaveContact] = useLeaveContactMutation();
  const [putOff, setPutOff] = useState<number | null>(null);
  const due = contactFormDue(messages);
  if (!due || due.offeredAt === putOff || conversationId === null) return null;
  return (
    <LeadForm
      key={due.offeredAt}
      config={contactFormIn(t)}
      initial={{ question: due.question }}
      onDismiss={() => setPutOff(due.offeredAt)}
      onSubmit={async (fields) => {
        const body = { name: '', email: '', question: '', ...fields };
        const result = await leaveContact({
          conversationId,
          body: visitorToken ? { ...body, visitor_token: visitorToken } : body,
        });
        if ('error' in result && result.error) return serverDetail(result.error) ?? t.contactFailed;
        if (result.data) onSent(result.data);
        return null;
      }}
    />
  );
}
