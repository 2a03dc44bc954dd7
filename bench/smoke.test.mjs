// The bench-smoke project of `npm test`: every benchmark in its smoke mode (BENCH_SMOKE=1: tiny sizes,
// a second or two per measurement, no target judged), so a benchmark that no longer runs fails the
// build instead of rotting unseen. Needs the build (`npm test` builds first); uses PostgreSQL through
// TEST_DATABASE_URL's server when set (CI), else the local server when reachable, else PGlite only.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

it('runs every benchmark in smoke mode', async () => {
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, 'run.mjs')], {
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('exit', (status, signal) => resolve(status ?? signal));
  });
  // The benchmarks' own report, so a failure shows which one and why.
  expect(code, Buffer.concat(output).toString()).toBe(0);
});
