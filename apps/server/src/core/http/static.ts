import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The built web app and widget, sent as the build left them: brotli or gzip siblings (.br, .gz, written
 * by vite-plugin-compression2) chosen per Accept-Encoding, so nothing is compressed per request.
 *
 * Caching: Vite's /assets/* carry a content hash in their name, so browsers keep them a year without
 * asking; index.html (and the other unhashed files) are revalidated on every load with their ETag, so a
 * deploy shows at once; /widget.js keeps its name on customers' pages, so it is cached 5 minutes.
 */
export const CACHE_HASHED = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';
export const WIDGET_MAX_AGE_SECONDS = 300;

/** The compressed siblings are chosen by @fastify/static, never routes of their own. */
const COMPRESSED_SIBLINGS = ['**/*.br', '**/*.gz'];

export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  // Before the files' routes, so the hook is theirs and the history fallback's (index.html for a 404).
  // A callback hook, as in security-headers.ts: every API reply passes it too, and needs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (servedFromDisk(request, reply)) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', webCachePolicy(request.url));
      if (isHashed(request.url)) dropValidators(reply);
      varyOnEncoding(reply);
    }
    done(null, payload);
  });
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    globIgnore: COMPRESSED_SIBLINGS,
  });
}

/**
 * GET /widget.js: the website widget (apps/widget), loaded by customers' pages from any origin.
 * Looked up per request, so a widget built after the start is served without a restart.
 */
export async function registerWidgetScript(app: FastifyInstance, distDir: string): Promise<void> {
  const file = path.join(distDir, 'widget.js');
  if (!existsSync(file)) app.log.warn({ file }, 'widget not built; run npm run build to serve /widget.js');
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: distDir,
      serve: false,
      preCompressed: true,
      maxAge: WIDGET_MAX_AGE_SECONDS * 1000,
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cross-origin-resource-policy', 'cross-origin').header('access-control-allow-origin', '*');
      varyOnEncoding(reply);
      return payload;
    });
    scope.get('/widget.js', { schema: { hide: true } }, async (_request, reply) => {
      if (!existsSync(file)) return reply.status(404).send({ detail: 'The widget is not built' });
      return reply.sendFile('widget.js');
    });
  });
}

/** @fastify/send gives every file it sends an ETag; API answers have none. */
function servedFromDisk(request: FastifyRequest, reply: FastifyReply): boolean {
  return !request.url.startsWith('/api/') && reply.hasHeader('etag');
}

export function webCachePolicy(url: string): string {
  return isHashed(url) ? CACHE_HASHED : CACHE_REVALIDATE;
}

const isHashed = (url: string) => url.startsWith('/assets/');

/**
 * An immutable file is never revalidated, so its ETag, date and byte ranges would only be carried:
 * some 100 bytes on each of a page's scripts, which /login's 200 KB budget counts.
 */
function dropValidators(reply: FastifyReply): void {
  for (const header of ['etag', 'last-modified', 'accept-ranges']) reply.removeHeader(header);
}

/** Caches must keep the brotli, gzip and plain answers apart; CORS may already vary on Origin. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary && /accept-encoding/i.test(String(vary))) return;
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}
