import { type CalendarBooking, CalendarBookingBody, MESSAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { bookingDefaults, loadView, PROVIDER_OPTIONS, providerMismatch } from './booking-form';

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

describe('providerMismatch', () => {
  it("is quiet when the link is on the chosen provider's pages, or not a link yet", () => {
    expect(providerMismatch('calendly', 'https://calendly.com/acme/30min')).toBeNull();
    expect(providerMismatch('google', 'https://calendar.app.google/AbC123')).toBeNull();
    expect(
      providerMismatch('google', 'https://calendar.google.com/calendar/appointments/schedules/x'),
    ).toBeNull();
    expect(providerMismatch('cal', 'https://app.cal.com/acme')).toBeNull();
    expect(providerMismatch('tidycal', 'https://TidyCal.com/acme')).toBeNull();
    expect(providerMismatch('calendly', 'calendly')).toBeNull();
    expect(providerMismatch('calendly', '')).toBeNull();
  });

  it('names the provider the link belongs to when another is chosen', () => {
    expect(providerMismatch('google', 'https://calendly.com/acme/30min')).toBe(
      'This looks like a Calendly link, but Google Calendar is chosen as the provider.',
    );
    expect(providerMismatch('tidycal', 'https://cal.com/acme')).toBe(
      'This looks like a Cal.com link, but TidyCal is chosen as the provider.',
    );
  });

  it("warns of a host of none of them, without refusing it (Cal.com is hosted on one's own domains)", () => {
    expect(providerMismatch('cal', 'https://meet.acme.example/demo')).toBe(
      'This link is not on cal.com. Check that it is your Cal.com booking page.',
    );
    // A look-alike is not the provider's.
    expect(providerMismatch('calendly', 'https://calendly.com.evil.example/acme')).toMatch(
      /not on calendly\.com/,
    );
  });
});
