import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { createParley, type ProcessRole } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './core/db/database.js';

/** Starts Parley: `--role=api` or `--role=worker` to run one side; both by default. */
async function main(): Promise<void> {
  const role = parseRole(process.argv.slice(2));
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // What start-up is doing, before the server's own logger exists: opening a new embedded database
  // and migrating it take seconds on a first start.
  const startLog = pino({ level: config.LOG_LEVEL });
  const dataDir = `${config.DATA_DIR}/pgdata`;
  startLog.info(
    config.DATABASE_URL
      ? 'Connecting to the PostgreSQL server at DATABASE_URL'
      : existsSync(dataDir)
        ? `Opening the embedded database in ${dataDir}`
        : `Creating the embedded database in ${dataDir} (first start: about 15 seconds)`,
  );
  const database = await openDatabase({
    ...(config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir }),
    onMigrations: ({ pending, done }) => {
      if (pending === 0) {
        if (!done) startLog.info('Database schema is up to date');
      } else if (done) startLog.info({ applied: pending }, `Applied ${pending} database migrations`);
      else startLog.info({ pending }, `Applying ${pending} database migrations`);
    },
  });
  startLog.info('Starting the API and the background workers');
  const parley = await createParley(config, database, role);
  await parley.startWorkers();
  if (role !== 'worker') {
    await parley.app.listen({ port: config.PORT, host: config.HOST });
    parley.app.log.info(
      { role, database: database.kind, url: config.publicUrl },
      `Parley is ready at ${config.publicUrl}`,
    );
  } else {
    parley.app.log.info({ role, database: database.kind }, 'Parley is running (background workers only)');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    parley.app.log.info({ signal }, 'shutting down');
    await parley.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function parseRole(args: string[]): ProcessRole {
  const value = args.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? 'all';
  if (value !== 'all' && value !== 'api' && value !== 'worker') {
    console.error(`Unknown --role=${value}; use all, api or worker`);
    process.exit(1);
  }
  return value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
