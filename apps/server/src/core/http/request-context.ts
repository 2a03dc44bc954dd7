import type { AppAbility, User } from '@parley/contracts';

/** Who is calling, resolved once per request by the auth plugin. */
export type AuthContext = {
  userId: number;
  tenantId: number;
  user: User;
  ability: AppAbility;
  /** Digest of `user`, sent as SESSION_VERSION_HEADER: the console reloads the user when it changes. */
  version?: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The caller of a route that requires login; the auth plugin guarantees it is set there. */
export function requireAuth(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new Error('requireAuth called on a public route');
  return request.auth;
}
