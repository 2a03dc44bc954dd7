import { notFound } from '../errors.js';
import type { AuthContext } from './request-context.js';

/**
 * A tenant id in a path must be the caller's own. Another tenant's id answers 404, exactly as an
 * id that does not exist, so nothing reveals that it does.
 */
export function sameTenant(auth: AuthContext, tenantId: number): AuthContext {
  if (auth.tenantId !== tenantId) throw notFound();
  return auth;
}
