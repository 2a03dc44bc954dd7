import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { deriveKey } from '../../core/crypto.js';

const TTL_DAYS = 30;
export type VisitorClaims = { visitorId: string; botUuid: string };

/**
 * Signed anonymous identities for visitors of a bot's widget: HS256 with a key of its own (derived
 * from the app secret), bound to one bot, valid 30 days. Holding the token is being that visitor.
 */
export class VisitorTokens {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => { sub?: string; bot?: string; typ?: string; exp?: number };

  constructor(secret: string) {
    const key = deriveKey(secret, 'visitor-token');
    this.sign = createSigner({ key, algorithm: 'HS256', expiresIn: TTL_DAYS * 24 * 3600 * 1000 });
    this.verify = createVerifier({ key, algorithms: ['HS256'] });
  }

  /** A new identity, or the same visitor renewed when their token is still valid for this bot. */
  issue(
    botUuid: string,
    previous?: string,
  ): { visitor_id: string; visitor_token: string; expires_at: string } {
    const renewed = previous ? this.check(previous) : null;
    const visitorId = renewed && renewed.botUuid === botUuid ? renewed.visitorId : `v_${randomUUID()}`;
    const token = this.sign({ sub: visitorId, bot: botUuid, typ: 'visitor' });
    const expires = new Date(Date.now() + TTL_DAYS * 24 * 3600 * 1000);
    return { visitor_id: visitorId, visitor_token: token, expires_at: expires.toISOString() };
  }

  check(token: string): VisitorClaims | null {
    try {
      const claims = this.verify(token);
      if (claims.typ !== 'visitor' || !claims.sub || !claims.bot) return null;
      return { visitorId: claims.sub, botUuid: claims.bot };
    } catch {
      return null;
    }
  }
}
