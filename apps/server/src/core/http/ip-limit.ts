import type { FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors.js';

/**
 * A pre-handler that lets each IP address call a public route `points` times per `seconds` (429
 * with Retry-After beyond). Kept in memory, like the sign-in limits: with several nodes each node
 * enforces its share. Counted once a request is well formed, before the database is touched.
 */
export function perIpLimit(keyPrefix: string, points: number, seconds: number) {
  const limiter = new RateLimiterMemory({ keyPrefix, points, duration: seconds });
  return async (request: FastifyRequest) => {
    try {
      await limiter.consume(request.ip);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw rejection;
    }
  };
}
