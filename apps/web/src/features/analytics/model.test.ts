import { describe, expect, it } from 'vitest';
import { daysOf, durationText, lastDays, moneyText, percentText, seriesByChannel } from './model';

describe('analytics model', () => {
  it('fills every day of the period per channel', () => {
    const days = daysOf('2026-03-01', '2026-03-03');
    expect(days).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    const rows = [
      { day: '2026-03-01', channel: 'web', conversations: 2, messages: 6 },
      { day: '2026-03-03', channel: 'web', conversations: 1, messages: 3 },
      { day: '2026-03-02', channel: 'whatsapp', conversations: 4, messages: 9 },
    ];
    expect(seriesByChannel(rows, days, 'conversations')).toEqual([
      { channel: 'web', data: [2, 0, 1] },
      { channel: 'whatsapp', data: [0, 4, 0] },
    ]);
  });

  it('names the last days up to today and formats figures', () => {
    expect(lastDays(7, new Date('2026-03-10T12:00:00Z'))).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(percentText(0.256)).toBe('26%');
    expect(percentText(null)).toBe('–');
    expect(moneyText({ currency: 'USD', amount_minor: 5998 })).toContain('59.98');
    expect(moneyText({ currency: 'JPY', amount_minor: 1500 })).toContain('1,500');
    expect(durationText(90)).toBe('2 min');
  });
});
