/**
 * Amounts are integers of minor units; they are shown by placing the decimal point in the digits,
 * never by dividing into a float (1999 USD → "USD 19.99", 1000 JPY → "JPY 1,000").
 */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2; // an unknown code: cents, as most currencies
  }
}

export function formatMinor(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new Error(`not an amount in minor units: ${amount}`);
  const digits = minorDigits(currency);
  const text = String(Math.abs(amount)).padStart(digits + 1, '0');
  const major = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const minor = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${amount < 0 ? '-' : ''}${currency} ${major}${minor}`;
}
