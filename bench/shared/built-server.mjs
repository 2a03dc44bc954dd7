// Shared by the benchmarks that run the built server as a person would (`node apps/server/dist/main.js`
// on a fresh embedded database, already migrated): bench/web, social, stores, whatsapp and bench/ingest's
// stall probe.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyMigratedPglite } from './pglite-template.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'apps/server/dist/main.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server on a free port and a fresh PGlite data directory (removed on `stop`), a
 * copy of the migrated template; `env` adds or overrides settings (a DATA_DIR given is kept, and
 * gets the template only when it holds no database yet). Resolves once /api/health answers.
 */
export async function startBuiltServer({ label, env = {} }) {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `parley-bench-${label}-`));
  const pgdata = path.join(env.DATA_DIR ?? dataDir, 'pgdata');
  if (!env.DATABASE_URL && !existsSync(pgdata)) await copyMigratedPglite(pgdata);
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), SERVER],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: baseUrl,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_IP: '1000',
        // Benchmarks measure Parley, not a plan's allowance.
        PLAN_LIMITS: 'off',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  // A first start migrates a new database: seconds alone, over a minute on a loaded CI machine.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      // Not left running (and writing into a data directory its caller removes).
      child.kill('SIGKILL');
      throw new Error('server did not answer /api/health within 180 s');
    }
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    baseUrl,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
