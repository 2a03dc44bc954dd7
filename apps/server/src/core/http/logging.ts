import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/** Paths whose segments are secrets (invitation tokens), masked before any log line is written. */
const SECRET_PATH = /(\/invited-user\/)[^/?]+/g;
const SECRET_QUERY = /([?&](token|otp|code|access_token)=)[^&]+/gi;

export const maskUrl = (url: string): string =>
  url.replace(SECRET_PATH, '$1***').replace(SECRET_QUERY, '$1***');

/** pino with request ids; credentials in headers and URLs, and visitors' words sent to a model, never reach the log. */
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
        err: withoutPrompts,
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

/**
 * An error as pino writes it, without the prompt a model call's error carries (the AI SDK's
 * `requestBodyValues`: visitors' messages, the bot's sources), however deep it is wrapped (a retry's
 * `lastError` and `errors`, a `cause`): the provider's status and message tell what failed.
 */
function withoutPrompts(error: Error): ReturnType<typeof stdSerializers.err> {
  return strip(stdSerializers.err(error)) as ReturnType<typeof stdSerializers.err>;
}

function strip(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => strip(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    if (key !== 'requestBodyValues') copy[key] = strip(item, depth + 1);
  return copy;
}
