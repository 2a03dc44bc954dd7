import { and, eq, isNull } from 'drizzle-orm';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { deriveKey, keyedHash, randomToken, sha256 } from '../../core/crypto.js';
import type { DbOrTx } from '../../core/db/database.js';
import { refreshTokens } from '../../core/db/schema.js';

const ISSUER = 'parley';
const AUDIENCE = 'parley-api';
/** Verified tokens remembered (about 1 kB each). */
const VERIFIED_MAX = 10_000;

/**
 * `stamp` ties the token to the password it was issued under (stampOf): a password change or reset
 * makes every access token issued before it invalid at once, not only the refresh tokens.
 */
export type AccessClaims = { userId: number; tenantId: number; stamp?: string };
export type IssuedRefresh = { token: string; expiresAt: Date };

/**
 * Access tokens: HS256 JWTs, 15 minutes or less, verified with the algorithm pinned (so `alg: none`
 * and other algorithms are refused). fast-jwt checks them synchronously with node:crypto; the claims of
 * recently verified tokens are kept, keyed by the token itself, until the token expires, since every
 * request presents one (fast-jwt's own cache hashes each token with SHA-256 first, which bench/api's
 * profile showed costing more than the lookup it saves). Refresh tokens:
 * random, stored hashed, rotated on every use; presenting a rotated one again revokes its whole
 * family (the sign of a stolen token).
 */
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => Record<string, unknown>;
  /** Verified access tokens' claims with their expiry (ms), oldest first; at most VERIFIED_MAX. */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  private readonly stampKey: Buffer;

  constructor(
    secret: string,
    private readonly accessTtlSeconds: number,
    private readonly refreshTtlDays: number,
  ) {
    const key = deriveKey(secret, 'access-token');
    this.stampKey = deriveKey(secret, 'password-stamp');
    this.sign = createSigner({
      key,
      algorithm: 'HS256',
      expiresIn: accessTtlSeconds * 1000,
      iss: ISSUER,
      aud: AUDIENCE,
    });
    this.verify = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedIss: ISSUER,
      allowedAud: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'tid'],
    });
  }

  get accessTtl(): number {
    return this.accessTtlSeconds;
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    return this.sign({ sub: String(claims.userId), tid: claims.tenantId, pwd: claims.stamp, typ: 'access' });
  }

  /**
   * A short keyed digest of the password hash (null: no password, Google only), as Django's session
   * auth hash: it changes whenever the password does, and says nothing about the password itself.
   */
  stampOf(passwordHash: string | null): string {
    return keyedHash(this.stampKey, passwordHash ?? '').slice(0, 16);
  }

  /** The claims of a valid access token, or null for any invalid, expired or foreign token. */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known && known.expiresAt > Date.now()) return known.claims;
    if (known) this.verified.delete(token);
    let payload: Record<string, unknown>;
    try {
      payload = this.verify(token);
    } catch (error) {
      if (error instanceof TokenError) return null;
      throw error;
    }
    const userId = Number(payload.sub);
    const tenantId = Number(payload.tid);
    if (payload.typ !== 'access' || !Number.isInteger(userId) || !Number.isInteger(tenantId)) return null;
    const claims: AccessClaims = { userId, tenantId };
    if (typeof payload.pwd === 'string') claims.stamp = payload.pwd;
    this.rememberVerified(token, claims, Number(payload.exp) * 1000);
    return claims;
  }

  private rememberVerified(token: string, claims: AccessClaims, expiresAt: number): void {
    if (this.verified.size >= VERIFIED_MAX) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, { claims, expiresAt });
  }

  /** Starts a new family (a sign-in) or continues one (a rotation). */
  async issueRefresh(db: DbOrTx, userId: number, familyId?: string): Promise<IssuedRefresh> {
    const token = randomToken();
    const expiresAt = new Date(Date.now() + this.refreshTtlDays * 86_400_000);
    await db.insert(refreshTokens).values({
      userId,
      familyId: familyId ?? crypto.randomUUID(),
      tokenHash: sha256(token),
      expiresAt,
    });
    return { token, expiresAt };
  }

  /**
   * Exchanges a refresh token for a new one. Returns the user id, or null when the token is unknown,
   * expired or revoked. A token already rotated revokes its family: whoever holds the newer one
   * (thief or owner) is signed out too.
   */
  async rotateRefresh(db: DbOrTx, token: string): Promise<{ userId: number; next: IssuedRefresh } | null> {
    const [row] = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(token)))
      .for('update');
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
    if (row.rotatedAt) {
      await this.revokeFamily(db, row.familyId);
      return null;
    }
    const rotated = await db
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt)))
      .returning({ id: refreshTokens.id });
    if (rotated.length === 0) return null;
    const next = await this.issueRefresh(db, row.userId, row.familyId);
    return { userId: row.userId, next };
  }

  /** Revokes the token's family; answers whose it was (undefined: no such token). */
  async revokeByToken(db: DbOrTx, token: string): Promise<number | undefined> {
    const [row] = await db
      .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(token)));
    if (!row) return undefined;
    await this.revokeFamily(db, row.familyId);
    return row.userId;
  }

  async revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /** Signs the user out everywhere (password change or reset). */
  async revokeAllForUser(db: DbOrTx, userId: number): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }
}
