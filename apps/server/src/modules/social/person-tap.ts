import type { ConversationRow } from '../chat/chat.queries.js';
import type { HandoffService } from '../handoff/handoff.service.js';

/** Where a tap on "Talk to a person" was stored: its conversation as the write left it, and its number. */
export type StoredTap = { conversation: ConversationRow; seq: number };

/**
 * A visitor tapped "Talk to a person" (a quick reply, a WhatsApp reply button). The tap was stored
 * for agents only, so the bot never answers its words (whatever the button's language); the
 * hand-off then takes it as a typed request would: the conversation waits for a person, the visitor
 * reads the same notice, and a second tap hears "already waiting" without queueing again. A person
 * already holding the conversation just reads the tap in the inbox. A job run again after its
 * first run stored the tap asks only if nothing followed the tap (that run got as far as asking).
 */
export async function requestPersonOnTap(
  handoff: HandoffService,
  stored: StoredTap | undefined,
  replayed: boolean,
): Promise<void> {
  if (!stored) return;
  const { conversation, seq } = stored;
  if (conversation.isHelpdeskInControl) return;
  if (replayed && conversation.lastSeq !== seq) return;
  await handoff.requestHuman(conversation, seq);
}
