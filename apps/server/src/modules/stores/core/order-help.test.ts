import type { OrderData } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { contactMatches, describeOrder, readOrderAsk } from './order-help.js';

const order: OrderData = {
  number: '#1001',
  email: 'Jane@Example.com',
  phone: '+1 (415) 555-0100',
  customer_name: 'Jane Doe',
  financial_status: 'PAID',
  fulfillment_status: 'FULFILLED',
  total: '59.98',
  refunded: '0.00',
  currency: 'USD',
  placed_at: '2026-01-05T10:00:00Z',
  cancelled_at: null,
  lines: [{ title: 'T-Shirt', quantity: 2, price: '29.99', sku: null }],
  tracking: [{ company: 'UPS', number: '1Z999', url: 'https://ups.example/1Z999', status: 'IN_TRANSIT' }],
  customer_id: '9001',
};

describe('reading an order question', () => {
  it.each([
    ['Where is my order #1001?', '1001'],
    ['order number 1001 please', '1001'],
    ['my order no. 1001', '1001'],
    ['Order: #AB-2002', 'ab-2002'],
    ['I want to track my parcel', null],
  ])('%s', (text, number) => {
    expect(readOrderAsk(text).number).toBe(number);
  });

  it('finds the email and a phone number, and does not take the order number for a phone', () => {
    expect(readOrderAsk('order 1001, jane@example.com')).toEqual({
      number: '1001',
      email: 'jane@example.com',
      phone: null,
    });
    expect(readOrderAsk('order 1001 phone +1 415 555 0100')).toEqual({
      number: '1001',
      email: null,
      phone: '14155550100',
    });
  });
});

describe('matching the contact', () => {
  it('matches the email whatever its case, and the phone by its last digits', () => {
    expect(contactMatches(order, { number: '1001', email: 'jane@example.com', phone: null })).toBe(true);
    expect(contactMatches(order, { number: '1001', email: null, phone: '4155550100' })).toBe(true);
  });

  it('refuses another email, a short or different phone, and nothing at all', () => {
    expect(contactMatches(order, { number: '1001', email: 'john@example.com', phone: null })).toBe(false);
    expect(contactMatches(order, { number: '1001', email: null, phone: '0100' })).toBe(false);
    expect(contactMatches(order, { number: '1001', email: null, phone: '4155550199' })).toBe(false);
    expect(contactMatches(order, { number: '1001', email: null, phone: null })).toBe(false);
  });
});

describe('describing the order to its customer', () => {
  it('gives status, items, total and tracking', () => {
    const text = describeOrder(order);
    expect(text).toMatch(/^Order #1001, placed 5 Jan 2026: paid, fulfilled\./);
    expect(text).toContain('- 2 × T-Shirt (29.99 USD)');
    expect(text).toContain('Total: 59.98 USD');
    expect(text).toContain('Tracking: UPS 1Z999 https://ups.example/1Z999 (IN_TRANSIT)');
  });

  it('says cancelled, and that tracking is not there yet', () => {
    const text = describeOrder({
      ...order,
      number: '1002',
      cancelled_at: '2026-01-06T00:00:00Z',
      tracking: [],
    });
    expect(text).toMatch(/^Order #1002, placed 5 Jan 2026: cancelled\./);
    expect(text).toContain('Tracking: not available yet.');
  });
});
