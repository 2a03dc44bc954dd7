const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

/**
 * Links in a bot's answer come from text a model wrote or a customer's documents: only absolute
 * http(s) and mailto addresses survive; anything else (javascript:, data:, relative paths into the
 * console) becomes an empty link target.
 */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  try {
    const parsed = new URL(trimmed);
    return ALLOWED.has(parsed.protocol) ? trimmed : '';
  } catch {
    return '';
  }
}
