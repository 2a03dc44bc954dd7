import { describe, expect, it } from 'vitest';
import { formatMinor, minorDigits } from './money.js';

describe('formatMinor', () => {
  it('places the decimal point by the currency, with thousands grouped', () => {
    expect(formatMinor(1999, 'USD')).toBe('USD 19.99');
    expect(formatMinor(5, 'INR')).toBe('INR 0.05');
    expect(formatMinor(123456789, 'INR')).toBe('INR 1,234,567.89');
    expect(formatMinor(1000, 'JPY')).toBe('JPY 1,000');
    expect(formatMinor(1234, 'KWD')).toBe('KWD 1.234');
    expect(formatMinor(-250, 'EUR')).toBe('-EUR 2.50');
    expect(formatMinor(0, 'USD')).toBe('USD 0.00');
  });
  it('refuses a float', () => {
    expect(() => formatMinor(19.99, 'USD')).toThrow();
  });
  it('knows the minor digits of a currency', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('XXQ')).toBe(2);
  });
});
