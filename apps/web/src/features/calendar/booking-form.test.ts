import { type CalendarBooking, CalendarBookingBody, MESSAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { bookingDefaults, loadView, PROVIDER_OPTIONS } from './booking-form';

const BOOKING: CalendarBooking = {
  bot_id: 3,
  provider: 'cal',
  title: 'Book a call',
  url: 'https://cal.com/acme',
  message: 'Pick a slot',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

describe('loadView', () => {
  it('tells loading, failure, no configuration (404 → null) and a loaded one apart', () => {
    expect(loadView({ isLoading: true, isError: false, data: undefined })).toBe('loading');
    expect(loadView({ isLoading: false, isError: true, data: undefined })).toBe('failed');
    expect(loadView({ isLoading: false, isError: false, data: null })).toBe('empty');
    expect(loadView({ isLoading: false, isError: false, data: BOOKING })).toBe('loaded');
  });
});

describe('bookingDefaults', () => {
  it('fills the form from the saved configuration, or empty on the first provider', () => {
    expect(bookingDefaults(BOOKING)).toEqual({
      provider: 'cal',
      title: 'Book a call',
      url: 'https://cal.com/acme',
      message: 'Pick a slot',
    });
    expect(bookingDefaults(null)).toEqual({ provider: 'google', title: '', url: '', message: '' });
  });

  it("an empty form fails with the spec's texts", () => {
    const result = CalendarBookingBody.safeParse(bookingDefaults(null));
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        MESSAGES.calendar.messageRequired,
        MESSAGES.calendar.titleRequired,
        MESSAGES.calendar.urlInvalid,
      ]),
    );
  });
});

describe('PROVIDER_OPTIONS', () => {
  it('offers the four providers of the spec', () => {
    expect(PROVIDER_OPTIONS.map((o) => o.value)).toEqual(['google', 'calendly', 'cal', 'tidycal']);
  });
});
