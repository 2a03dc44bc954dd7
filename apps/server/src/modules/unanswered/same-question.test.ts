import { describe, expect, it } from 'vitest';
import { overlap, SAME_QUESTION, sameQuestion, sameWord } from './same-question.js';

describe('sameWord', () => {
  it('takes a stem and its longer form, and a typo, for one word', () => {
    // PostgreSQL's English stems of "deliver" and "delivery".
    expect(sameWord('deliv', 'deliveri')).toBe(true);
    expect(sameWord('deliv', 'delivr')).toBe(true);
    expect(sameWord('canada', 'canda')).toBe(true);
    expect(sameWord('receiv', 'reciev')).toBe(true); // two neighbours swapped
    expect(sameWord('recieve', 'receive')).toBe(true);
    expect(sameWord('glutn', 'gluten')).toBe(true);
  });

  it('keeps short words and different words apart', () => {
    expect(sameWord('pay', 'paypal')).toBe(false);
    expect(sameWord('card', 'cardigan')).toBe(false);
    expect(sameWord('ship', 'shop')).toBe(false);
    expect(sameWord('hove', 'move')).toBe(false);
    expect(sameWord('canada', 'mexico')).toBe(false);
    expect(sameWord('order', 'orders')).toBe(true);
  });
});

describe('overlap', () => {
  it('groups rewordings with the same words and keeps different questions apart', () => {
    expect(overlap(['ship', 'canada'], ['ship', 'canada'])).toBe(1);
    expect(overlap(['ship', 'canada'], ['ship', 'canada', 'cost'])).toBeGreaterThanOrEqual(SAME_QUESTION);
    expect(overlap(['ship', 'canada'], ['pay', 'paypal'])).toBe(0);
    expect(overlap(['ship', 'canada'], ['ship', 'mexico'])).toBeLessThan(SAME_QUESTION);
  });

  it('groups a question typed with a typo or another form of its words', () => {
    // "Do you deliver to Hove?", "Delivery to Hove?", "do u delivr to hove??"
    expect(sameQuestion(['deliv', 'hove'], ['deliveri', 'hove'])).toBe(true);
    expect(sameQuestion(['deliv', 'hove'], ['u', 'delivr', 'hove'])).toBe(true);
    expect(sameQuestion(['gluten', 'free', 'bread'], ['glutn', 'free', 'bread'])).toBe(true);
    // Another place is another question.
    expect(sameQuestion(['deliv', 'hove'], ['deliv', 'lewe'])).toBe(false);
  });
});
