/**
 * Texts of the 402 answers seen (a plan limit reached, billing spec section 8), so that the toast
 * showing one, whoever raised it, can offer the way to /upgrade. Bounded: the oldest go first.
 */
const seen = new Set<string>();
const MAX = 50;

export function rememberPlanLimit(text: string): void {
  seen.delete(text);
  seen.add(text);
  if (seen.size > MAX) {
    const oldest = seen.values().next().value;
    if (oldest !== undefined) seen.delete(oldest);
  }
}

export function isPlanLimitText(text: unknown): boolean {
  return typeof text === 'string' && seen.has(text);
}
