import { describe, expect, it } from 'vitest';
import { waitedFor } from './waited';

describe('waitedFor', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says how long a visitor has waited in the largest whole unit', () => {
    expect(waitedFor('2026-11-25T11:59:30Z', now)).toBe('less than a minute');
    expect(waitedFor('2026-11-25T11:56:00Z', now)).toBe('4 min');
    expect(waitedFor('2026-11-25T09:55:00Z', now)).toBe('2 h 5 min');
    expect(waitedFor('2026-11-25T10:00:00Z', now)).toBe('2 h');
    expect(waitedFor('2026-11-24T11:00:00Z', now)).toBe('1 day');
    expect(waitedFor('2026-11-22T12:00:00Z', now)).toBe('3 days');
  });
});
