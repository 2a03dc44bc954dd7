/**
 * The WhatsApp Business Account webhook (`object: whatsapp_business_account`): each entry's
 * changes carry messages and statuses (`field: messages`, keyed by the number's phone_number_id)
 * or a template's review (`field: message_template_status_update`, keyed by the business account).
 */
export type CloudInbound = {
  from: string;
  id: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  image?: CloudMedia;
  video?: CloudMedia;
  audio?: CloudMedia & { voice?: boolean };
  document?: CloudMedia & { filename?: string };
  sticker?: CloudMedia;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string; url?: string };
  contacts?: Array<{ name?: { formatted_name?: string }; phones?: Array<{ phone?: string }> }>;
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
  };
  button?: { text?: string; payload?: string };
  reaction?: { message_id?: string; emoji?: string };
  context?: { from?: string; id?: string };
  unsupported?: { type?: string };
  errors?: CloudStatus['errors'];
};
type CloudMedia = { id?: string; mime_type?: string; caption?: string; url?: string };

export type CloudStatus = {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  biz_opaque_callback_data?: string;
  errors?: Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }>;
};

/** A customer's message for one of the connected numbers, with the name WhatsApp shows for them. */
export type InboundMessage = {
  phoneNumberId: string;
  profileName: string | null;
  message: CloudInbound;
};

export type TemplateReview = {
  wabaId: string;
  templateId: string;
  name: string | null;
  language: string | null;
  event: string;
  reason: string | null;
};

export type WhatsAppDelivery = {
  messages: InboundMessage[];
  statuses: Array<CloudStatus & { phoneNumberId: string }>;
  templates: TemplateReview[];
};

type Change = {
  field?: string;
  value?: {
    metadata?: { phone_number_id?: string };
    contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
    messages?: CloudInbound[];
    statuses?: CloudStatus[];
    event?: string;
    message_template_id?: number | string;
    message_template_name?: string;
    message_template_language?: string;
    reason?: string | null;
  };
};

export function deliveryOf(payload: unknown): WhatsAppDelivery {
  const delivery: WhatsAppDelivery = { messages: [], statuses: [], templates: [] };
  const body = payload as { object?: string; entry?: Array<{ id?: string; changes?: Change[] }> };
  if (body?.object !== 'whatsapp_business_account' || !Array.isArray(body.entry)) return delivery;
  for (const entry of body.entry) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (!value) continue;
      if (change.field === 'message_template_status_update' && value.message_template_id && entry.id) {
        delivery.templates.push({
          wabaId: String(entry.id),
          templateId: String(value.message_template_id),
          name: value.message_template_name ?? null,
          language: value.message_template_language ?? null,
          event: String(value.event ?? ''),
          reason: value.reason && value.reason !== 'NONE' ? value.reason : null,
        });
      }
      if (change.field !== 'messages') continue;
      const phoneNumberId = value.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? null]));
      for (const message of Array.isArray(value.messages) ? value.messages : []) {
        if (!message?.id || !message.from) continue;
        delivery.messages.push({ phoneNumberId, profileName: names.get(message.from) ?? null, message });
      }
      for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
        if (!status?.id || !status.status) continue;
        delivery.statuses.push({ ...status, phoneNumberId });
      }
    }
  }
  return delivery;
}

/** What the customer sent, as text for the bot and the inbox: captions, places, cards and choices included. */
export function textOfInbound(message: CloudInbound): string {
  const media = message.image ?? message.video ?? message.document ?? message.audio ?? message.sticker;
  switch (message.type) {
    case 'text':
      return (message.text?.body ?? '').trim().slice(0, 4000) || '[message]';
    case 'interactive':
      return message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? '[choice]';
    case 'button':
      return message.button?.text ?? message.button?.payload ?? '[button]';
    case 'location': {
      const place = message.location ?? {};
      const where = [place.name, place.address].filter(Boolean).join(', ');
      return `[location] ${where ? `${where} ` : ''}(${place.latitude}, ${place.longitude})`.trim();
    }
    case 'contacts':
      return `[contact] ${(message.contacts ?? [])
        .map((c) =>
          [c.name?.formatted_name, ...(c.phones ?? []).map((p) => p.phone)].filter(Boolean).join(' '),
        )
        .join('; ')}`.trim();
    case 'reaction':
      return `[reaction] ${message.reaction?.emoji ?? ''}`.trim();
    case 'unsupported':
      // WhatsApp passes on no content (a poll, an edit, a view-once photo...): say what it was.
      return message.unsupported?.type
        ? `[unsupported message: ${message.unsupported.type}]`
        : '[unsupported message]';
    default:
      if (media?.caption?.trim()) return media.caption.trim().slice(0, 4000);
      if (message.type === 'document' && message.document?.filename)
        return `[document] ${message.document.filename}`;
      if (message.type === 'audio' && message.audio?.voice) return '[voice message]';
      return `[${message.type ?? 'message'}]`;
  }
}

/** The file part of a message (photo, video, voice note, document, sticker), when it has one. */
export function mediaOfInbound(message: CloudInbound): (CloudMedia & { filename?: string }) | null {
  const kinds = ['image', 'video', 'audio', 'document', 'sticker'] as const;
  const kind = kinds.find((k) => k === message.type);
  return kind ? (message[kind] ?? null) : null;
}

/** Whether the message is a question for the bot: reactions, stickers and unsupported kinds are not. */
export function isConversational(message: CloudInbound): boolean {
  return !['reaction', 'unsupported', 'system', 'sticker'].includes(message.type ?? '');
}

/**
 * A photo, video, voice note or document with no words: the bot cannot read it (it would answer
 * "I don't know"), so it says so once and the file waits for the agents.
 */
export function isWordlessMedia(message: CloudInbound): boolean {
  return message.type !== 'sticker' && !mediaOfInbound(message)?.caption?.trim() && !!mediaOfInbound(message);
}

/** A reaction taken back: WhatsApp sends it with no emoji; nothing to file. */
export const isUnreaction = (message: CloudInbound) =>
  message.type === 'reaction' && !message.reaction?.emoji;
