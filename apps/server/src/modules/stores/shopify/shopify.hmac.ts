import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Shopify's two signatures. OAuth redirects: hex HMAC-SHA256 over the query's other parameters,
 * sorted by key, as `key=value` joined by `&` (`signature` is an old App Proxy field, never signed).
 * Webhooks: base64 HMAC-SHA256 of the raw body, so it is checked before the body is parsed.
 */
function oauthMessage(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== 'hmac' && key !== 'signature')
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

function signOAuthQuery(params: Record<string, string>, secret: string): string {
  return createHmac('sha256', secret).update(oauthMessage(params)).digest('hex');
}

export function verifyOAuthQuery(params: Record<string, string>, secret: string): boolean {
  const given = params.hmac;
  if (!given || !/^[0-9a-f]{64}$/i.test(given)) return false;
  return safeEqual(Buffer.from(signOAuthQuery(params, secret), 'hex'), Buffer.from(given, 'hex'));
}

function signWebhook(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

export function verifyWebhook(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  return safeEqual(Buffer.from(signWebhook(rawBody, secret), 'base64'), Buffer.from(header, 'base64'));
}

/** timingSafeEqual throws on different lengths; a wrong length is simply a wrong signature. */
function safeEqual(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}
