import { describe, expect, it } from 'vitest';
import { BOOKING_INTENT, BOOKING_REQUEST } from './answer.service.js';

describe('a request to book, before the sources are searched', () => {
  it('is a verb of booking with what is booked, or asking how to book', () => {
    for (const question of [
      'Can I book a demo next week?',
      'I would like to book a table for 6 on Saturday',
      'schedule a call with sales',
      'How do I book?',
      'can we reserve a room for two nights',
      'I need to make an appointment',
      'book me in for a check-up please',
      'please call me back',
      'Could I arrange a viewing of the flat?',
      'book a 30 minute consultation',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(true);
  });

  it('is not a noun of booking the sources may answer', () => {
    for (const question of [
      'Do you sell the book Dune?',
      'Is there a demo video of the app?',
      'Where is the schedule of trains?',
      'What is your cancellation policy for a booking?',
      'What should I bring to my appointment?',
      'How much to get a service on my bike?',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(false);
    // Words of booking all the same: offered where the sources have no answer.
    expect(BOOKING_INTENT.test('What is your cancellation policy for a booking?')).toBe(true);
  });
});
