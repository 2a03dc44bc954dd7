// The baseline: a bare Fastify server in its own process with one route that does what any Meta
// webhook must before answering: read the raw body, check X-Hub-Signature-256 (HMAC-SHA256 with the
// app secret), answer 200. No database, no queue. Started by bench/social/run.mjs through fork().
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const { default: Fastify } = await import(pathToFileURL(serverRequire.resolve('fastify')).href);

const secret = process.env.BENCH_APP_SECRET ?? '';
const app = Fastify({ logger: false });
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.post('/webhook', async (request, reply) => {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-hub-signature-256'] ?? ''));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply.code(401).send();
  JSON.parse(request.body.toString('utf8'));
  return reply.type('text/plain').send('EVENT_RECEIVED');
});
await app.listen({ port: 0, host: '127.0.0.1' });

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.send?.({ port: app.server.address().port });
