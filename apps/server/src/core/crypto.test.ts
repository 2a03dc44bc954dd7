import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveKey, encryptSecret, keyedHash, randomDigits, safeEqual } from './crypto.js';

describe('crypto', () => {
  const key = deriveKey('a-long-enough-secret-for-tests-0123456789', 'secrets');

  it('round-trips a secret and refuses a tampered one', () => {
    const sealed = encryptSecret(key, 'sk-live-123');
    expect(sealed).not.toContain('sk-live-123');
    expect(decryptSecret(key, sealed)).toBe('sk-live-123');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => decryptSecret(key, parts.join(':'))).toThrow();
  });

  it('derives different keys per purpose', () => {
    const other = deriveKey('a-long-enough-secret-for-tests-0123456789', 'otp');
    expect(keyedHash(key, '123456')).not.toBe(keyedHash(other, '123456'));
  });

  it('draws digits and compares safely', () => {
    expect(randomDigits(6)).toMatch(/^\d{6}$/);
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
