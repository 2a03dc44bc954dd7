const ALLOWED = new Set(['http:', 'https:', 'mailto:']);
/** In an answer's text a phone number may be a link too: a visitor on a phone taps it to call. */
const LINKS = new Set([...ALLOWED, 'tel:']);

function withProtocol(url: string, allowed: ReadonlySet<string>): string {
  const trimmed = url.trim();
  try {
    return allowed.has(new URL(trimmed).protocol) ? trimmed : '';
  } catch {
    return '';
  }
}

/**
 * Links in a bot's answer come from text a model wrote or a customer's documents: only absolute
 * http(s) and mailto addresses survive; anything else (javascript:, data:, relative paths into the
 * console) becomes an empty link target.
 */
export const safeUrl = (url: string): string => withProtocol(url, ALLOWED);

/** A link written in an answer's Markdown: as safeUrl, and tel: (a business's phone number). */
export const safeLink = (url: string): string => withProtocol(url, LINKS);
