import type { MoneyTotal } from '@parley/contracts';
import { formatMoney } from '../billing/model';

/** Totals in each currency, "₹20.00 + $5.00"; nothing yet reads as zero. */
export function formatTotals(totals: readonly MoneyTotal[]): string {
  if (totals.length === 0) return '0';
  return totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
}

export const formatRate = (percent: number): string => `${percent.toFixed(1)}%`;

export const formatDay = (iso: string): string => iso.slice(0, 10);

export const PAYOUT_STATUS_COLOURS = {
  pending: 'warning',
  approved: 'info',
  paid: 'success',
  reversed: 'default',
} as const;
