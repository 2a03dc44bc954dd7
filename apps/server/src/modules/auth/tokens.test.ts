import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from './tokens.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256-keys';

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'));
    const tokens = new TokenService(SECRET, 60, 30);
    const token = await tokens.signAccess({ userId: 7, tenantId: 3 });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, tenantId: 3 });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, tenantId: 3 });
    vi.setSystemTime(new Date('2026-11-25T10:01:01Z'));
    expect(await tokens.verifyAccess(token)).toBeNull();
  });

  it('refuses a token altered after a valid one was remembered, and one signed with another key', async () => {
    const tokens = new TokenService(SECRET, 60, 30);
    const token = await tokens.signAccess({ userId: 7, tenantId: 3 });
    await tokens.verifyAccess(token);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: '8' }),
    );
    expect(await tokens.verifyAccess(`${header}.${forged.toString('base64url')}.${signature}`)).toBeNull();
    const other = await new TokenService(`${SECRET}-other`, 60, 30).signAccess({ userId: 7, tenantId: 3 });
    expect(await tokens.verifyAccess(other)).toBeNull();
  });

  it('carries the password stamp, which changes with the password and reveals nothing of it', async () => {
    const tokens = new TokenService(SECRET, 60, 30);
    const stamp = tokens.stampOf('$argon2id$v=19$m=19456,t=2,p=1$salt$hash-one');
    const token = await tokens.signAccess({ userId: 7, tenantId: 3, stamp });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, tenantId: 3, stamp });
    expect(stamp).toMatch(/^[0-9a-f]{16}$/);
    expect(tokens.stampOf('$argon2id$v=19$m=19456,t=2,p=1$salt$hash-two')).not.toBe(stamp);
    expect(tokens.stampOf(null)).not.toBe(stamp);
    // Keyed: another server secret gives another stamp for the same hash.
    expect(
      new TokenService(`${SECRET}-other`, 60, 30).stampOf('$argon2id$v=19$m=19456,t=2,p=1$salt$hash-one'),
    ).not.toBe(stamp);
  });
});
