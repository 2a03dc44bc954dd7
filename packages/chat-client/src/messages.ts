import type { ChatMessage } from '@parley/contracts';

/**
 * The messages of a chat: each (conversation, seq) once, in seq order. Messages arrive from the
 * stream, the socket and a resume replay; merging is idempotent so a replay never doubles a bubble.
 * A live copy knows nothing of the reader's rating (only history reads carry it): the rating already
 * held stays.
 */
export function mergeMessages(
  current: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[];
  const byKey = new Map<string, ChatMessage>();
  for (const message of current) byKey.set(messageKey(message), message);
  for (const message of incoming) {
    const key = messageKey(message);
    const held = byKey.get(key)?.rating;
    byKey.set(
      key,
      message.rating === undefined && held !== undefined ? { ...message, rating: held } : message,
    );
  }
  return [...byKey.values()].sort((a, b) => a.conversation_id - b.conversation_id || a.seq - b.seq);
}

export function messageKey(message: Pick<ChatMessage, 'conversation_id' | 'seq'>): string {
  return `${message.conversation_id}:${message.seq}`;
}

/** The highest seq of a conversation in a list, 0 when it has none. */
export function lastSeq(messages: readonly ChatMessage[], conversationId: number): number {
  let max = 0;
  for (const m of messages) if (m.conversation_id === conversationId && m.seq > max) max = m.seq;
  return max;
}

/**
 * Whether the reader may rate the message with a thumb: an answer of the bot. Not the welcome (no
 * id), a notice past the month's credits, a consent reply (no answer mode), nor the reply to a
 * greeting or thanks, which answers nothing.
 */
export function rateable(message: Pick<ChatMessage, 'id' | 'answer_mode'>): boolean {
  const mode = message.answer_mode;
  // A message streamed live may carry no answer mode yet (undefined): nothing to rate either.
  return message.id > 0 && Boolean(mode) && mode !== 'limit' && mode !== 'small_talk';
}

/**
 * A message held while the chat connects is shown as the visitor's until the server's copy of it
 * arrives, or an answer does (the server may have stored it trimmed): what is still pending after
 * `arrived`.
 */
export function pendingAfter(pending: string | null, arrived: ChatMessage): string | null {
  if (pending === null) return null;
  return arrived.message_type !== 'user' || arrived.message === pending ? null : pending;
}
