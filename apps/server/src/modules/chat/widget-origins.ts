import { forbidden } from '../../core/errors.js';

/**
 * Endpoints the website widget calls from customers' sites: open to any origin without credentials
 * (CORS `*`); which sites may embed a bot is checked per bot where a visitor gets an identity.
 */
export const WIDGET_PUBLIC_PATHS =
  /^\/api\/(chat\/visitor$|auth\/bot\/uuid\/[^/]+(\/lead)?$|auth\/public-bots$|chat\/bots\/images\/|chat\/attachments\/|chat\/conversations\/\d+\/contact$|analytics\/(ratings|booking-clicks)$)/;

export const NOT_ALLOWED = 'This site is not allowed to embed this bot';

/**
 * Whether a page at `origin` may embed the bot: any when the bot lists no origins; otherwise a
 * listed one, or Parley's own (the console's playground and the full-page chat). Without an Origin
 * header the caller is not a browser page, which this check is not about.
 */
export function originAllowed(allowed: string[], origin: string | undefined, ownOrigin: string): boolean {
  if (allowed.length === 0 || !origin) return true;
  const normalised = origin.toLowerCase();
  return normalised === ownOrigin.toLowerCase() || allowed.includes(normalised);
}

export function requireOrigin(allowed: string[], origin: string | undefined, ownOrigin: string): void {
  if (!originAllowed(allowed, origin, ownOrigin)) throw forbidden(NOT_ALLOWED);
}
