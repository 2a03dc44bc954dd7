import { describe, expect, it } from 'vitest';
import { dayLabel, timeAgo } from './when';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('timeAgo', () => {
  it('says the largest whole unit, and "just now" under a minute', () => {
    expect(timeAgo(ago(20_000), NOW, 'en')).toBe('just now');
    expect(timeAgo(ago(5 * 60_000 + 59_000), NOW, 'en')).toBe('5 minutes ago');
    expect(timeAgo(ago(3 * 3_600_000), NOW, 'en')).toBe('3 hours ago');
    expect(timeAgo(ago(30 * 3_600_000), NOW, 'en')).toBe('1 day ago');
    expect(timeAgo(ago(6 * 86_400_000), NOW, 'en')).toBe('6 days ago');
  });

  it('gives the date from a week on, and never a time in the future', () => {
    expect(timeAgo(ago(12 * 86_400_000), NOW, 'en-GB')).toBe('15/11/2026');
    expect(timeAgo(ago(-5_000), NOW, 'en')).toBe('just now');
  });
});

describe('dayLabel', () => {
  it('names each bar by the span of 24 hours it covers', () => {
    expect([0, 1, 6].map(dayLabel)).toEqual(['Last 24 hours', '1–2 days ago', '6–7 days ago']);
  });
});
