import type { FastifyServerOptions } from 'fastify';

/** Paths whose segments are secrets (invitation tokens), masked before any log line is written. */
const SECRET_PATH = /(\/invited-user\/)[^/?]+/g;
const SECRET_QUERY = /([?&](token|otp|code|access_token)=)[^&]+/gi;

export const maskUrl = (url: string): string =>
  url.replace(SECRET_PATH, '$1***').replace(SECRET_QUERY, '$1***');

/** pino with request ids; credentials in headers and URLs never reach the log. */
export function loggerOptions(level: string): Pick<FastifyServerOptions, 'logger'> {
  return {
    logger: {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
        ],
        censor: '***',
      },
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string; id?: string }) => ({
          id: req.id,
          method: req.method,
          url: maskUrl(req.url ?? ''),
          ip: req.ip,
        }),
      },
    },
  };
}
