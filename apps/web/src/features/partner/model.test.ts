import { describe, expect, it } from 'vitest';
import { formatRate, formatTotals } from './model';

describe('partner figures', () => {
  it('shows money in each currency, minor units as the currency writes them', () => {
    expect(formatTotals([])).toBe('0');
    expect(formatTotals([{ currency: 'INR', amount: 200_000 }])).toBe('₹2,000.00');
    expect(
      formatTotals([
        { currency: 'INR', amount: 322 },
        { currency: 'USD', amount: 5 },
      ]),
    ).toBe('₹3.22 + $0.05');
    expect(formatTotals([{ currency: 'INR', amount: -2000 }])).toBe('-₹20.00');
  });

  it('shows the conversion rate with one decimal', () => {
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(33.3)).toBe('33.3%');
  });
});
