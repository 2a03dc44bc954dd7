import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * GET /widget.js: the website widget (apps/widget), loaded by customers' pages from any origin.
 * Read per request so a rebuilt widget is served without a restart; browsers cache it 5 minutes.
 */
export function registerWidgetScript(app: FastifyInstance, distDir: string): void {
  const file = path.join(distDir, 'widget.js');
  if (!existsSync(file)) app.log.warn({ file }, 'widget not built; run npm run build to serve /widget.js');
  app.get('/widget.js', { schema: { hide: true } }, async (_request, reply) => {
    const script = await readFile(file).catch(() => null);
    if (!script) return reply.status(404).send({ detail: 'The widget is not built' });
    return reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .send(script);
  });
}
