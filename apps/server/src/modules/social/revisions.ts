import { BOT } from '@parley/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../core/db/database.js';
import type { AccountRow } from './accounts.service.js';
import type { MessagingItem } from './webhook.js';

/**
 * What a channel user did to a message they had sent: edited it (Messenger's `message_edit`), or
 * unsent it (Instagram's `is_deleted`). Meta names the message by its mid, which the message was
 * stored under as its client id.
 */
export type Revision =
  | { kind: 'edit'; mid: string; text: string; count: number }
  | { kind: 'unsent'; mid: string };

export function revisionOf(item: MessagingItem): Revision | null {
  const edit = item.message_edit;
  if (edit?.mid && edit.text?.trim())
    return {
      kind: 'edit',
      mid: edit.mid,
      text: edit.text.trim().slice(0, 4000),
      count: Number(edit.num_edit) || 1,
    };
  if (item.message?.is_deleted && item.message.mid) return { kind: 'unsent', mid: item.message.mid };
  return null;
}

/** The message a revision changed: its conversation and bot, and the text it had. */
export type Revised = { conversationId: number; botId: number; oldText: string };

/**
 * Applies a revision to the user's stored message, in one statement. An edit replaces the text
 * (also the copy in `message_metadata`) unless a later edit is already in, or the message was
 * unsent. An unsend wipes the text and attachments for good, as the user asked of the channel. The
 * conversation's name, when it was taken from that message, follows. Null when no message changed
 * (never stored, or nothing new).
 */
export async function reviseMessage(
  db: Db,
  account: AccountRow,
  userId: string,
  revision: Revision,
  now: Date,
): Promise<Revised | null> {
  const accountColumn =
    account.channel === 'instagram' ? sql`c.instagram_account_id` : sql`c.messenger_account_id`;
  const at = now.toISOString();
  const metadata = sql`coalesce(m.metadata, '{}'::jsonb)`;
  const edit = revision.kind === 'edit' ? revision : null;
  const change = edit
    ? sql`message = ${edit.text},
          metadata = jsonb_set(
            jsonb_set(${metadata}, '{edited}', jsonb_build_object('count', ${edit.count}::int, 'at', ${at}::text)),
            '{message_metadata,message}', to_jsonb(${edit.text}::text))`
    : sql`message = '', attachments = '[]'::jsonb,
          metadata = jsonb_set(${metadata} - 'edited', '{unsent_at}', to_jsonb(${at}::text))
                     #- '{message_metadata,message}'`;
  const newer = edit ? sql`AND coalesce((m.metadata->'edited'->>'count')::int, 0) < ${edit.count}` : sql``;
  // The name a question gives its conversation (appendMessage's nameFromQuestion).
  const nameOf = (text: SQL) => sql`left(trim(regexp_replace(${text}, '\\s+', ' ', 'g')), 60)`;
  const rows = await queryRows<{ conversation_id: number; bot_id: number; old_text: string }>(
    db,
    sql`WITH target AS (
          SELECT m.id, m.conversation_id, m.bot_id, m.message AS old_text
            FROM messages m JOIN conversations c ON c.id = m.conversation_id
           WHERE c.tenant_id = ${account.tenantId} AND c.channel = ${account.channel}
             AND c.visitor_id = ${userId} AND ${accountColumn} = ${account.externalId}
             AND m.message_type = 'user' AND m.sender_id = ${userId}
             AND m.metadata->>'client_id' = ${revision.mid}
             AND NOT coalesce(m.metadata ? 'unsent_at', false) ${newer}
             FOR UPDATE OF m),
        revised AS (
          UPDATE messages m SET ${change} FROM target WHERE m.id = target.id
       RETURNING target.conversation_id, target.bot_id, target.old_text),
        renamed AS (
          UPDATE conversations c
             SET name = ${edit ? nameOf(sql`${edit.text}::text`) : sql`${BOT.newConversationName}`}
            FROM revised
           WHERE c.id = revised.conversation_id AND c.name = ${nameOf(sql`revised.old_text`)}
       RETURNING c.id)
        SELECT conversation_id, bot_id, old_text FROM revised`,
  );
  const [row] = rows;
  return row ? { conversationId: row.conversation_id, botId: row.bot_id, oldText: row.old_text } : null;
}
