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
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: `${config.DATA_DIR}/pgdata` },
  );
  const parley = await createParley(config, database, role);
  await parley.startWorkers();
  if (role !== 'worker') {
    await parley.app.listen({ port: config.PORT, host: config.HOST });
  }
  parley.app.log.info({ role, database: database.kind, url: config.publicUrl }, 'Parley is running');

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
