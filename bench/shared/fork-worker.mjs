// Shared by the benchmarks: a measuring child process, optionally CPU-profiled.
import { fork } from 'node:child_process';
import path from 'node:path';

/**
 * Forks `dir/worker.mjs` with `env` added (BENCH_DB_URL only when `dbUrl` is given: unset means
 * PGlite). With BENCH_CPU_PROF_DIR set, the child writes a CPU profile named after the bench and label.
 */
export function forkWorker({ dir, bench, label, dbUrl, env: extra = {} }) {
  const env = { ...process.env, ...extra };
  delete env.BENCH_DB_URL;
  if (dbUrl) env.BENCH_DB_URL = dbUrl;
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const execArgv = profileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        `--cpu-prof-name=${bench}-${label}-${Date.now()}.cpuprofile`,
      ]
    : [];
  return fork(path.join(dir, 'worker.mjs'), [], {
    env,
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
