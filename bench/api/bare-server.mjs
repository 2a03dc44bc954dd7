// The baseline: a bare Fastify server in its own process, one route answering the JSON that
// Parley's GET /api/auth/user answered in the same run (BENCH_BODY): no auth, no database, no
// plugins. Started by bench/api/run.mjs through fork(): it reports its port (and its CPU time when
// asked) over IPC.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// The server's own Fastify, the very version Parley runs on.
const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const { default: Fastify } = await import(pathToFileURL(serverRequire.resolve('fastify')).href);

const body = JSON.parse(process.env.BENCH_BODY ?? '{}');
const app = Fastify({ logger: false });
app.get('/api/auth/user', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
// The bench asks for this process's CPU time around each measurement.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.send?.({ port: app.server.address().port });
