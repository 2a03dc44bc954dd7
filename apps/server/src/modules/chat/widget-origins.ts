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
 * listed one (see originMatches), or Parley's own (the console's playground and the full-page chat).
 * Without an Origin header the caller is not a browser page, which this check is not about.
 */
export function originAllowed(allowed: string[], origin: string | undefined, ownOrigin: string): boolean {
  if (allowed.length === 0 || !origin) return true;
  const normalised = origin.toLowerCase();
  if (normalised === ownOrigin.toLowerCase()) return true;
  return allowed.some((pattern) => originMatches(pattern, normalised));
}

/**
 * A listed origin (normaliseOrigin's form) against a page's. The scheme and port must be the same;
 * www.shop.example and shop.example count as one site (owners list either and serve both), and
 * https://*.shop.example allows every subdomain of shop.example.
 */
export function originMatches(pattern: string, origin: string): boolean {
  const [listedScheme, listedHost] = splitOrigin(pattern);
  const [scheme, host] = splitOrigin(origin);
  if (listedScheme !== scheme) return false;
  if (listedHost.startsWith('*.')) return host.endsWith(listedHost.slice(1));
  return withoutWww(listedHost) === withoutWww(host);
}

const splitOrigin = (origin: string): [string, string] => {
  const at = origin.indexOf('://');
  return at < 0 ? ['', origin] : [origin.slice(0, at), origin.slice(at + 3)];
};
const withoutWww = (host: string) => (host.startsWith('www.') ? host.slice(4) : host);

export function requireOrigin(allowed: string[], origin: string | undefined, ownOrigin: string): void {
  if (!originAllowed(allowed, origin, ownOrigin)) throw forbidden(NOT_ALLOWED);
}
