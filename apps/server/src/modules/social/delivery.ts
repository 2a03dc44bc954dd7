import type { Delivery } from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { PermanentJobError } from '../../core/jobs/queue.js';
import type { ChatHub } from '../chat/chat.hub.js';
import type { ConversationRow } from '../chat/chat.queries.js';
import { messages } from '../chat/chat.schema.js';

/**
 * A channel message's delivery as its send job left it: how far it got, the channel's id, and
 * whether the channel refused the person button (the rest then goes as plain text, channel-actions.ts).
 */
export type DeliveryState = Delivery & { parts_sent?: number; wamid?: string; plain?: boolean };

/**
 * Records a message's delivery on the message (`metadata.delivery`). Given the conversation (a
 * failure), the inbox is told it changed, so the agent sees the failure on the message at once.
 */
export async function recordDelivery(
  db: Db,
  hub: ChatHub,
  messageId: number,
  delivery: DeliveryState,
  conversation?: ConversationRow,
): Promise<void> {
  await db
    .update(messages)
    .set({
      metadata: sql`jsonb_set(coalesce(${messages.metadata}, '{}'::jsonb), '{delivery}', ${JSON.stringify(delivery)}::jsonb)`,
    })
    .where(eq(messages.id, messageId));
  if (conversation)
    await hub.conversationChanged({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      botId: conversation.botId,
      deleted: false,
    });
}

/**
 * A send job's failure: a final one (permanent, or on the last attempt) is recorded on the message
 * and shown in the inbox; a permanent one also stops the queue's retries. The caller rethrows the
 * error otherwise, so the queue tries again.
 */
export async function settleSendFailure(
  db: Db,
  hub: ChatHub,
  failure: {
    messageId: number;
    conversation: ConversationRow;
    permanent: boolean;
    lastAttempt: boolean;
    reason: string;
  },
): Promise<void> {
  if (!failure.permanent && !failure.lastAttempt) return;
  await recordDelivery(
    db,
    hub,
    failure.messageId,
    { status: 'failed', error: failure.reason },
    failure.conversation,
  );
  if (failure.permanent) throw new PermanentJobError(failure.reason);
}
