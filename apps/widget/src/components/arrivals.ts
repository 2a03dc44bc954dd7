import type { ChatMessage } from '@parley/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Calls `onArrival` with each message that comes to the visitor (the bot's, an agent's, a notice)
 * while the chat is in use: not their own, and not the first messages (a history as it loads, a new
 * chat's welcome), which are no news.
 */
export function useArrivals(messages: readonly ChatMessage[], onArrival: (message: ChatMessage) => void) {
  const last = messages.at(-1);
  const key = last ? `${last.conversation_id}:${last.seq}` : '';
  const seen = useRef('');
  const handler = useRef(onArrival);
  handler.current = onArrival;
  useEffect(() => {
    const before = seen.current;
    seen.current = key;
    if (before && last && key !== before && last.message_type !== 'user') handler.current(last);
  }, [key]);
}

/** How many messages came while the chat was closed (an agent's reply the visitor waited for); 0 once open. */
export function useUnread(messages: readonly ChatMessage[], open: boolean): number {
  const [unread, setUnread] = useState(0);
  useArrivals(messages, () => {
    if (!open) setUnread((n) => n + 1);
  });
  useEffect(() => {
    if (open) setUnread(0);
  }, [open]);
  return unread;
}
