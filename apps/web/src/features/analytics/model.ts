import type { DailyRow, Money } from '@parley/contracts';

const DAY_MS = 86_400_000;
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` days up to today (UTC), as the server counts them. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  return { from: isoDay(new Date(now.getTime() - (days - 1) * DAY_MS)), to: isoDay(now) };
}

/** Every day of the period, so the chart shows quiet days as zero rather than skipping them. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    days.push(isoDay(new Date(t)));
  return days;
}

/** Per channel, one value per day of the period (0 where the day had none). */
export function seriesByChannel(
  rows: readonly DailyRow[],
  days: readonly string[],
  field: 'conversations' | 'messages',
): Array<{ channel: string; data: number[] }> {
  const channels = [...new Set(rows.map((row) => row.channel))].sort();
  return channels.map((channel) => {
    const byDay = new Map(rows.filter((row) => row.channel === channel).map((row) => [row.day, row[field]]));
    return { channel, data: days.map((day) => byDay.get(day) ?? 0) };
  });
}

export const CHANNEL_LABELS: Record<string, string> = {
  web: 'Website',
  instagram: 'Instagram',
  messenger: 'Messenger',
  whatsapp: 'WhatsApp',
};

export function percentText(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)}%`;
}

/** Money from minor units, in its currency's format ("$59.98"). */
export function moneyText(money: Money): string {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amount_minor / 10 ** digits);
}

export function durationText(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
