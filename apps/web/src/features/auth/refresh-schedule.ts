/** Renew this long before expiry at most: a minute is plenty for a refresh round trip. */
const MAX_MARGIN_MS = 60_000;
/** Short-lived tokens renew after 80% of what is left, so the margin scales down with them. */
const MARGIN_SHARE = 0.2;

/**
 * How long to wait before renewing an access token that expires at `expiresAt` (epoch ms).
 * 0 means renew now (already expired or about to).
 */
export function refreshDelayMs(expiresAt: number, now: number): number {
  const remaining = expiresAt - now;
  if (remaining <= 0) return 0;
  const margin = Math.min(MAX_MARGIN_MS, remaining * MARGIN_SHARE);
  return Math.max(0, Math.floor(remaining - margin));
}

/** True when the token is missing its expiry or due for renewal. */
export function isRefreshDue(expiresAt: number | null, now: number): boolean {
  return expiresAt === null || refreshDelayMs(expiresAt, now) === 0;
}
