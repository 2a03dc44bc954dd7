import { deriveKey, keyedHash } from '../../core/crypto.js';

/** The affiliate programme's keys, each derived from APP_SECRET for one purpose only. */
export type AffiliateKeys = {
  /** Seals payout details at rest. */
  payout: Buffer;
  /** Signs the attribution cookie, so a visitor cannot name a link or a time they did not get. */
  attribution: Buffer;
  /** Salts the visitor hash of a click (no address is stored). */
  visitor: Buffer;
  /** Derives a referred workspace's anonymised name. */
  anonymous: Buffer;
};

const made = new Map<string, AffiliateKeys>();

export function affiliateKeys(secret: string): AffiliateKeys {
  let keys = made.get(secret);
  if (!keys) {
    keys = {
      payout: deriveKey(secret, 'affiliates.payout-details'),
      attribution: deriveKey(secret, 'affiliates.attribution-cookie'),
      visitor: deriveKey(secret, 'affiliates.visitor-hash'),
      anonymous: deriveKey(secret, 'affiliates.anonymous-workspace'),
    };
    made.set(secret, keys);
  }
  return keys;
}

/** "Workspace 7f3a": what a partner sees of a workspace they referred, never its name or email. */
export const anonymousWorkspace = (keys: AffiliateKeys, tenantId: number): string =>
  `Workspace ${keyedHash(keys.anonymous, String(tenantId)).slice(0, 4)}`;

/** Conversions per click in percent, one decimal (0 without clicks). */
export const conversionRate = (clicks: number, conversions: number): number =>
  clicks === 0 ? 0 : Math.round((conversions / clicks) * 1000) / 10;
