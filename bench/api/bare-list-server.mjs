// The baseline of the list row: a bare Fastify server in its own process whose one route runs the
// very statements of Parley's GET /api/chat/bots/user/:id (BotsService.ofUser: the user, whether
// they own the workspace, the bots, then their file groups, web sources, Notion workspaces and
// roles) on its own connection to the same data, and answers them with JSON.stringify: no auth, no
// hooks, no response schema. On PGlite it opens a copy of Parley's data directory (an embedded
// database admits one process); on PostgreSQL the same database. Started by bench/api/run.mjs.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../../apps/server/dist/core/db/database.js';
import { BotsService } from '../../apps/server/dist/modules/bots/bots.service.js';

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const { default: Fastify } = await import(pathToFileURL(serverRequire.resolve('fastify')).href);

const url = process.env.BENCH_LIST_DATABASE_URL;
const database = await openDatabase(
  url
    ? { kind: 'postgres', url, poolSize: 10 }
    : { kind: 'pglite', dataDir: process.env.BENCH_LIST_DATA_DIR },
);
const tenantId = Number(process.env.BENCH_TENANT_ID);
const service = new BotsService(database.db, process.env.BENCH_LIST_DATA_DIR ?? '', undefined);
const app = Fastify({ logger: false });
app.get('/api/chat/bots/user/:id', async (request) =>
  service.ofUser({ tenantId, userId: Number(request.params.id) }, Number(request.params.id)),
);
await app.listen({ port: 0, host: '127.0.0.1' });

const stop = () =>
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.send?.({ port: app.server.address().port });
