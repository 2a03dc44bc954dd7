/**
 * Meta's embedded signup handshake: what its popup posts, and what the callback page posts back.
 * Apart from model.ts so that the callback page, a route of its own, loads only this.
 */

export type SignupIds = { phone_number_id: string; waba_id: string };

/**
 * Meta's embedded signup session info (`WA_EMBEDDED_SIGNUP`, `FINISH`), posted to the opener as a
 * JSON string or an object. Anything else (another event, cancel, other messages) is null.
 */
export function signupIdsOf(data: unknown): SignupIds | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const message = value as { type?: unknown; event?: unknown; data?: unknown };
  if (message.type !== 'WA_EMBEDDED_SIGNUP') return null;
  if (typeof message.event !== 'string' || !message.event.startsWith('FINISH')) return null;
  const ids = message.data as { phone_number_id?: unknown; waba_id?: unknown } | undefined;
  if (!ids || typeof ids.phone_number_id !== 'string' || typeof ids.waba_id !== 'string') return null;
  return { phone_number_id: ids.phone_number_id, waba_id: ids.waba_id };
}

/** The message the callback page posts to the console that opened the signup. */
export const CODE_MESSAGE = 'PARLEY_WA_CODE';
/** The same-origin channel the callback page also posts on (it may have lost window.opener). */
export const CODE_CHANNEL = 'parley-whatsapp-signup';
export const CALLBACK_PATH = '/whatsapp/callback';

/** The callback page's message: the code, or why there is none; null for any other message. */
export function codeOf(data: unknown): { code: string } | { error: string | null } | null {
  if (!data || typeof data !== 'object') return null;
  const message = data as { type?: unknown; code?: unknown; error?: unknown };
  if (message.type !== CODE_MESSAGE) return null;
  if (typeof message.code === 'string' && message.code) return { code: message.code };
  return { error: typeof message.error === 'string' ? message.error : null };
}
