import {
  fillText,
  type PublicBot,
  type VisitorIdentity,
  WIDGET_TEXTS_ENGLISH,
  type WidgetTexts,
} from '@parley/contracts';

/** A failed call: the HTTP status (0 when the network failed) and the server's `detail`, if any. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | null;
  constructor(status: number, detail: string | null) {
    super(detail ?? textOf(WIDGET_TEXTS_ENGLISH, status));
    this.status = status;
    this.detail = detail;
  }

  /** What the visitor reads: the server's own words, else the widget's in its language. */
  textIn(t: WidgetTexts): string {
    return this.detail ?? textOf(t, this.status);
  }
}

const textOf = (t: WidgetTexts, status: number) =>
  status ? fillText(t.requestFailed, { status }) : t.unreachable;

/** Calls to the widget's public endpoints: cross-origin, without cookies. */
async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: 'omit', mode: 'cors' });
  } catch {
    throw new ApiError(0, null);
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const detail =
      body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string'
        ? body.detail
        : null;
    throw new ApiError(response.status, detail);
  }
  return body as T;
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function fetchBot(apiBase: string, uuid: string): Promise<PublicBot> {
  return call<PublicBot>(`${apiBase}/api/auth/bot/uuid/${encodeURIComponent(uuid)}`);
}

/** A signed visitor identity for the bot, renewed when the previous token is given and still valid. */
export function requestIdentity(
  apiBase: string,
  uuid: string,
  previousToken: string | null,
): Promise<VisitorIdentity> {
  return call<VisitorIdentity>(
    `${apiBase}/api/chat/visitor`,
    json({ bot_uuid: uuid, ...(previousToken ? { visitor_token: previousToken } : {}) }),
  );
}

/** The lead form; with the visitor's token, which proves the conversation theirs, the lead links to it. */
export function submitLead(
  apiBase: string,
  uuid: string,
  fields: Record<string, string>,
  conversation: { id: number; visitorToken: string } | null,
): Promise<{ id: number; message: string }> {
  return call(
    `${apiBase}/api/auth/bot/uuid/${encodeURIComponent(uuid)}/lead`,
    json({
      fields,
      ...(conversation ? { conversation_id: conversation.id, visitor_token: conversation.visitorToken } : {}),
    }),
  );
}

/** The contact form of a visitor nobody could come to; the thank-you arrives as a stored message. */
export function leaveContact(
  apiBase: string,
  visitorToken: string,
  conversationId: number,
  fields: Record<string, string>,
): Promise<unknown> {
  return call(
    `${apiBase}/api/chat/conversations/${conversationId}/contact`,
    json({ ...fields, visitor_token: visitorToken }),
  );
}

/** The visitor's thumbs on a bot answer (null takes it back); the server keeps one per visitor and answer. */
export function rateAnswer(
  apiBase: string,
  visitorToken: string,
  messageId: number,
  rating: 'up' | 'down' | null,
): Promise<{ message_id: number; rating: 'up' | 'down' | null }> {
  return call(
    `${apiBase}/api/analytics/ratings`,
    json({ message_id: messageId, rating, visitor_token: visitorToken }),
  );
}

/** Tells the bot's analytics that the visitor opened its booking page. */
export function reportBookingClick(apiBase: string, visitorToken: string, conversationId: number | null) {
  return call(
    `${apiBase}/api/analytics/booking-clicks`,
    json({ visitor_token: visitorToken, ...(conversationId ? { conversation_id: conversationId } : {}) }),
  );
}

/** A profile image path on the API host as an absolute address; anything not http(s) is dropped. */
export function imageUrl(apiBase: string, path: string | null): string | null {
  if (!path) return null;
  try {
    const url = new URL(path, apiBase);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
