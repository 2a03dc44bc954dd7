import { createHash } from 'node:crypto';
import { defineAbilityFor, type User } from '@parley/contracts';
import type { Db } from '../../core/db/database.js';
import type { EventBus } from '../../core/events/bus.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { deepFreeze } from '../../core/http/serializer.js';
import { loadSessionUser } from '../users/users.queries.js';
import type { TokenService } from './tokens.js';

export const AUTHZ_CHANGED = 'authz.changed';
export type AuthzChanged = { tenantId: number };
/** A user's sessions ended (sign-out, password change or reset): their open sockets close on every node. */
export const AUTH_REVOKED = 'auth.revoked';
export type AuthRevoked = { userId: number };

/** `stamp`: the user's current password stamp; only tokens carrying it are accepted. */
type Entry = { context: AuthContext; stamp: string; expiresAt: number };

/**
 * Turns an access token into the caller: the token's signature and expiry, then the user with
 * roles and abilities. Users are cached for a short time because every request needs them; any
 * change to a tenant's users, roles or grants publishes AUTHZ_CHANGED, which empties that tenant's
 * entries on every node (LISTEN/NOTIFY), so a revoked permission or deleted user is seen at once.
 * A token must carry the stamp of the user's current password (TokenService.stampOf): a password
 * change or reset (which publishes AUTHZ_CHANGED too) ends every access token issued before it.
 */
export class SessionResolver {
  private readonly cache = new Map<number, Entry>();
  /** Bumped on every invalidation, so a load that raced with a change is not cached. */
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly events: EventBus,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {
    events.subscribe<AuthzChanged>(AUTHZ_CHANGED, ({ tenantId }) => this.forgetTenant(tenantId));
  }

  authenticate = async (token: string): Promise<AuthContext | null> => {
    const claims = await this.tokens.verifyAccess(token);
    if (!claims) return null;
    const cached = this.cache.get(claims.userId);
    if (cached && cached.expiresAt > Date.now() && cached.context.tenantId === claims.tenantId)
      return cached.stamp === claims.stamp ? cached.context : null;
    const generation = this.generations.get(claims.tenantId) ?? 0;
    const loaded = await loadSessionUser(this.db, claims.tenantId, claims.userId);
    if (!loaded) return null;
    const entry = { context: toContext(loaded.user), stamp: this.tokens.stampOf(loaded.passwordHash) };
    if ((this.generations.get(claims.tenantId) ?? 0) === generation) this.remember(entry);
    return entry.stamp === claims.stamp ? entry.context : null;
  };

  /** Announces a change of users, roles or grants in a tenant to every node. */
  async changed(tenantId: number): Promise<void> {
    await this.events.publish<AuthzChanged>(AUTHZ_CHANGED, { tenantId });
  }

  /** Announces to every node that a user's sessions ended, so their sockets close (docs/realtime.md). */
  async revoked(userId: number): Promise<void> {
    await this.events.publish<AuthRevoked>(AUTH_REVOKED, { userId });
  }

  private remember({ context, stamp }: Omit<Entry, 'expiresAt'>): void {
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(context.userId, { context, stamp, expiresAt: Date.now() + this.ttlMs });
  }

  private forgetTenant(tenantId: number): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    for (const [userId, entry] of this.cache)
      if (entry.context.tenantId === tenantId) this.cache.delete(userId);
  }
}

/** The user is frozen: shared by every request of the cache entry, and its JSON is remembered. */
export function toContext(user: User): AuthContext {
  return {
    userId: user.id,
    tenantId: user.tenant_id,
    user: deepFreeze(user),
    ability: defineAbilityFor(user),
    version: sessionVersionOf(user),
  };
}

/**
 * A short digest of the user as the console holds them (roles and grants included). A change of
 * users, roles or grants empties the cache (`changed`), the next request loads the user again and
 * carries the new digest (SESSION_VERSION_HEADER, the help-desk socket's `session` frame), and the
 * console reads GET /auth/user again: a permission gained shows without a reload.
 */
export function sessionVersionOf(user: User): string {
  return createHash('sha256').update(JSON.stringify(user)).digest('base64url').slice(0, 16);
}
