import { createHmac } from 'node:crypto';
import type { SocialChannel } from '@parley/contracts';
import { safeEqual } from '../../core/crypto.js';

/**
 * Meta signs each delivery: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the
 * app secret>`. Checked on the bytes as received, before anything is parsed or stored.
 */
export function signatureValid(
  raw: Buffer,
  header: string | undefined,
  appSecret: string | undefined,
): boolean {
  if (!appSecret || !header?.startsWith('sha256=')) return false;
  const expected = `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
  return safeEqual(header, expected);
}

/** One messaging item of a delivery (the Messenger Platform's shape, which Instagram shares). */
export type MessagingItem = {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: {
    mid?: string;
    text?: string;
    is_echo?: boolean;
    app_id?: number | string;
    quick_reply?: { payload?: string };
    attachments?: Array<{ type?: string; payload?: { url?: string; title?: string } }>;
    reply_to?: { mid?: string; story?: { url?: string; id?: string } };
    /** Instagram: the user unsent the message of this mid (no text comes with it). */
    is_deleted?: boolean;
  };
  /** The user edited a message they sent (Messenger's `message_edits` field; Instagram's shape too). */
  message_edit?: { mid?: string; text?: string; num_edit?: number | string };
  postback?: { mid?: string; title?: string; payload?: string };
  read?: { watermark?: number; mid?: string };
};

/** A messaging item of a connected account, keyed for de-duplication. */
export type InboundEvent = {
  /** The id Meta gives the account in webhooks: the page id, or the Instagram account id. */
  accountExternalId: string;
  /** The message or postback id: a replayed delivery carries the same one. */
  eventId: string;
  item: MessagingItem;
};

/**
 * The key a delivery is known by. An unsend and an edit name the mid of the message they change,
 * so they get keys of their own: under the message's own key they would pass for its replay.
 */
function eventIdOf(item: MessagingItem): string | undefined {
  const by = item.sender?.id;
  if (item.message_edit?.mid)
    return `edit:${by}:${item.message_edit.mid}:${item.message_edit.num_edit ?? ''}`;
  if (item.message?.is_deleted && item.message.mid) return `unsent:${by}:${item.message.mid}`;
  return item.message?.mid ?? item.postback?.mid;
}

/**
 * The events of a delivery worth a job: messages (echoes too), postbacks, edits and unsends. Reads
 * carry no content a conversation needs and are dropped here.
 */
export function eventsOf(channel: SocialChannel, payload: unknown): InboundEvent[] {
  const body = payload as { object?: string; entry?: Array<{ id?: string; messaging?: MessagingItem[] }> };
  const expected = channel === 'instagram' ? 'instagram' : 'page';
  if (body?.object !== expected || !Array.isArray(body.entry)) return [];
  const events: InboundEvent[] = [];
  for (const entry of body.entry) {
    for (const item of Array.isArray(entry?.messaging) ? entry.messaging : []) {
      const eventId = eventIdOf(item);
      const accountExternalId = item.message?.is_echo ? item.sender?.id : item.recipient?.id;
      if (!eventId || !accountExternalId || !item.sender?.id || !item.recipient?.id) continue;
      events.push({ accountExternalId: String(accountExternalId), eventId: String(eventId), item });
    }
  }
  return events;
}
