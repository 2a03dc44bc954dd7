// The built Parley server in its own process, configured from the environment as `npm start` is
// (API and workers in one process). Started by bench/api/run.mjs through fork(): it reports its
// port over IPC, its CPU time when asked, and closes on SIGTERM.
// BENCH_SESSION_CACHE=off turns the per-user session cache off, so every request loads the user
// from the database (used to show the cost of the load the cache saves).
import { createParley } from '../../apps/server/dist/app.js';
import { loadConfig } from '../../apps/server/dist/config.js';
import { openDatabase } from '../../apps/server/dist/core/db/database.js';
import { SessionResolver } from '../../apps/server/dist/modules/auth/sessions.js';

if (process.env.BENCH_SESSION_CACHE === 'off') {
  // Same module instance as the one app.js imports: nothing is ever remembered.
  SessionResolver.prototype.remember = () => {};
}

const config = loadConfig();
const database = await openDatabase(
  config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
    : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pgdata` },
);
const parley = await createParley(config, database, 'all');
parley.startWorkers();
await parley.app.listen({ port: 0, host: '127.0.0.1' });

const stop = async () => {
  await parley.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
// The bench asks for this process's CPU time around each measurement.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.send?.({ port: parley.app.server.address().port, database: database.kind });
