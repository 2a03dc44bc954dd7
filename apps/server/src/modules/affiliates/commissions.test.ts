import { describe, expect, it } from 'vitest';
import { addMonths, commissionOn } from './commissions.service.js';

describe('commissionOn', () => {
  it('takes the percent of the amount net of tax, rounded down to the minor unit', () => {
    expect(commissionOn(10_000, 20)).toBe(2000);
    expect(commissionOn(999, 20)).toBe(199);
    expect(commissionOn(1, 20)).toBe(0);
    expect(commissionOn(10_000, 0)).toBe(0);
    expect(commissionOn(10_000, 100)).toBe(10_000);
  });

  it('is exact for a percent with decimals, where floating point falls a unit short', () => {
    // 3000 × 33.3 / 100 is 998.9999… in floating point.
    expect(commissionOn(3000, 33.3)).toBe(999);
    expect(commissionOn(12_000, 33.3)).toBe(3996);
    expect(commissionOn(1000, 14.1)).toBe(141);
    expect(commissionOn(2_000_000_000, 12.5)).toBe(250_000_000);
  });
});

describe('addMonths', () => {
  it('keeps the day, or the last day of a shorter month, in UTC', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-11-15T00:00:00Z'), 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
});
