import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** A random opaque token (refresh tokens, invitation tokens): 256 bits, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Six random digits, uniformly drawn. */
export const randomDigits = (count: number): string =>
  Array.from({ length: count }, () => randomInt(0, 10)).join('');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A key for one purpose, derived from APP_SECRET, so one secret never serves two uses. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'parley', purpose, 32));
}

/** Keyed hash for short secrets (OTP codes): without the key a leaked table cannot be brute-forced. */
export const keyedHash = (key: Buffer, value: string): string =>
  createHmac('sha256', key).update(value).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** AES-256-GCM for secrets at rest (channel tokens, LLM keys): "v1:iv:tag:ciphertext" in base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A payload signed with a key (OAuth `state`: who asked, a nonce, an expiry): `body.mac` in
 * base64url, HMAC-SHA256. Not secret, only unforgeable.
 */
export function signPayload(key: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${macOf(key, body)}`;
}

/** The payload of a `signPayload` value, or null when it was not signed with this key. */
export function verifyPayload<T>(key: Buffer, signed: string | undefined): T | null {
  const [body, mac, extra] = (signed ?? '').split('.');
  if (!body || !mac || extra !== undefined || !safeEqual(mac, macOf(key, body))) return null;
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
}

const macOf = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');
