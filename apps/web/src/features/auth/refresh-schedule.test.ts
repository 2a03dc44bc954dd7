import { describe, expect, it } from 'vitest';
import { isRefreshDue, refreshDelayMs } from './refresh-schedule';

describe('refreshDelayMs', () => {
  const now = 1_000_000;

  it('renews a 15-minute token one minute before it expires', () => {
    expect(refreshDelayMs(now + 900_000, now)).toBe(840_000);
  });

  it('renews short-lived tokens after 80% of their life', () => {
    expect(refreshDelayMs(now + 30_000, now)).toBe(24_000);
  });

  it('renews at once when the token has expired', () => {
    expect(refreshDelayMs(now - 1, now)).toBe(0);
    expect(refreshDelayMs(now, now)).toBe(0);
  });
});

describe('isRefreshDue', () => {
  it('is due without a known expiry or once expired', () => {
    expect(isRefreshDue(null, 0)).toBe(true);
    expect(isRefreshDue(100, 200)).toBe(true);
    expect(isRefreshDue(900_000, 0)).toBe(false);
  });
});
