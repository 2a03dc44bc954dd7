import { mergeMessages } from '@parley/chat-client';
import type { HelpdeskConversation } from '@parley/contracts';

/** Older messages at most this far from the top of the thread start loading. */
export const LOAD_EARLIER_PX = 120;

/** Older messages read (GET ...?before_seq&limit) put above what the thread holds. */
export function withEarlier(
  current: HelpdeskConversation,
  page: Pick<HelpdeskConversation, 'messages' | 'has_earlier'>,
): HelpdeskConversation {
  return {
    ...current,
    messages: mergeMessages(current.messages, page.messages),
    has_earlier: page.has_earlier ?? false,
  };
}

/**
 * The open thread read again (a delivery failure, a close, coming back to it): its newest page
 * replaces the newest, and the older messages the agent scrolled to stay, as long as they meet the
 * new page without a gap (else, with many new messages meanwhile, the newest page alone is kept).
 */
export function refreshedThread(
  current: HelpdeskConversation,
  incoming: HelpdeskConversation,
): HelpdeskConversation {
  const first = incoming.messages[0]?.seq;
  const last = current.messages.at(-1)?.seq;
  if (first === undefined || last === undefined || last < first) return incoming;
  const older = current.messages.filter((m) => m.seq < first);
  if (older.length === 0) return incoming;
  return { ...incoming, messages: [...older, ...incoming.messages], has_earlier: current.has_earlier };
}
