import type { FastifyReply } from 'fastify';
import type { IssuedRefresh } from './tokens.js';

export const REFRESH_COOKIE = 'parley_refresh';
/** Only the auth routes ever see the refresh token. */
const PATH = '/api/auth';

export type CookieOptions = { secure: boolean };

/** The refresh token travels only in this httpOnly, SameSite=Strict cookie, never in a body. */
export function setRefreshCookie(
  reply: FastifyReply,
  refresh: IssuedRefresh,
  options: CookieOptions,
): FastifyReply {
  return reply.setCookie(REFRESH_COOKIE, refresh.token, {
    path: PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    expires: refresh.expiresAt,
  });
}

export function clearRefreshCookie(reply: FastifyReply): FastifyReply {
  return reply.clearCookie(REFRESH_COOKIE, { path: PATH });
}
