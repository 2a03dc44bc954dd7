import { describe, expect, it } from 'vitest';
import { decimalAmount, STATUS_OF } from './shopify-billing.service.js';

describe('Shopify billing units', () => {
  it('writes minor units as a decimal by placing the point, never by dividing', () => {
    expect(decimalAmount(1999, 'USD')).toBe('19.99');
    expect(decimalAmount(5, 'USD')).toBe('0.05');
    expect(decimalAmount(1_999_900, 'INR')).toBe('19999.00');
    expect(decimalAmount(1000, 'JPY')).toBe('1000');
    expect(decimalAmount(1234, 'KWD')).toBe('1.234');
    expect(() => decimalAmount(19.99, 'USD')).toThrow();
  });

  it("names every Shopify status in Parley's", () => {
    expect(STATUS_OF).toEqual({
      PENDING: 'created',
      ACCEPTED: 'authenticated',
      ACTIVE: 'active',
      FROZEN: 'halted',
      CANCELLED: 'cancelled',
      DECLINED: 'expired',
      EXPIRED: 'expired',
    });
  });
});
