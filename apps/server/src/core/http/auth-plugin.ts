import { ROUTE_RULES, type RouteRule, SESSION_VERSION_HEADER } from '@parley/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import type { AuthContext } from './request-context.js';

export const API_PREFIX = '/api';
/** Swagger UI, a page among the API's routes. */
export const API_DOCS_PREFIX = `${API_PREFIX}/docs`;

/** Resolves a bearer token to the caller, or null when the token is not valid. */
export type Authenticate = (token: string) => Promise<AuthContext | null>;

/** Paths under /api that are not API routes and so need no entry in ROUTE_RULES. */
const UNGUARDED = [/^\/api\/docs(\/|$)/];

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

function ruleFor(method: string, url: string): RouteRule | undefined {
  const key = `${method} ${url.slice(API_PREFIX.length)}`;
  return (ROUTE_RULES as Record<string, RouteRule>)[key];
}

/**
 * Puts every API route behind its rule from the shared ROUTE_RULES map: public, signed in, or an
 * action on a subject. A route missing from the map stops the server at start, so no endpoint can
 * ship without a permission decision.
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_PREFIX}/`) || UNGUARDED.some((re) => re.test(route.url))) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const rule = ruleFor(method, route.url);
      if (!rule) throw new Error(`Route ${method} ${route.url} has no entry in ROUTE_RULES`);
      const guard = (request: FastifyRequest, reply: FastifyReply) =>
        enforce(rule, request, authenticate).then(() => announceVersion(request, reply));
      // onRequest: an unauthenticated caller is refused before its body is even read.
      route.onRequest = [guard, ...toArray(route.onRequest)];
    }
  });
}

async function enforce(rule: RouteRule, request: FastifyRequest, authenticate: Authenticate): Promise<void> {
  const token = bearer(request);
  if ('public' in rule) {
    // A public route still knows its caller when one is signed in (an invalid token is ignored here).
    if (token) request.auth = await authenticate(token);
    return;
  }
  if (!token) throw unauthorized();
  const auth = await authenticate(token);
  if (!auth) throw unauthorized();
  request.auth = auth;
  if ('subject' in rule && !auth.ability.can(rule.action, rule.subject)) throw forbidden();
}

/** Every answer to a signed-in caller says which version of them the server holds. */
function announceVersion(request: FastifyRequest, reply: FastifyReply): void {
  if (request.auth?.version) reply.header(SESSION_VERSION_HEADER, request.auth.version);
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
