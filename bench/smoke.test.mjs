// The bench-smoke project of `npm test`: every benchmark in its smoke mode (BENCH_SMOKE=1: tiny sizes,
// a second or two per measurement, no target judged), so a benchmark that no longer runs fails the
// build instead of rotting unseen. Needs the build (`npm test` builds first). Measures on
// TEST_DATABASE_URL's PostgreSQL server alone when set (CI; bench/web and the idle sockets still run
// the built server on PGlite), else on PGlite and the local server when reachable.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs one bench script to its end; resolves with its exit status and everything it printed. */
function runScript(script, env) {
  const output = [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('exit', (status, signal) =>
      resolve({ code: status ?? signal, output: Buffer.concat(output).toString() }),
    );
  });
}

it('runs every benchmark in smoke mode', async () => {
  const { code, output } = await runScript('run.mjs', { BENCH_SMOKE: '1' });
  // The benchmarks' own report, so a failure shows which one and why.
  expect(code, output).toBe(0);
  // Each benchmark's time, in CI's log: the smoke run is one of its longest test files.
  console.log(output.slice(output.indexOf('=== time per benchmark ===')));
});

it('runs bench/chat/idle.mjs (idle visitors) with a handful of sockets', async () => {
  const { code, output } = await runScript('chat/idle.mjs', {
    CHAT_IDLE_VISITORS: '50',
    CHAT_IDLE_CONCURRENCY: '10',
  });
  expect(code, output).toBe(0);
});
