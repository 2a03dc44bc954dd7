// Runs every benchmark under bench/<name>/run.mjs, one after another (`npm run bench`, after a build).
// A benchmark name given as an argument runs only that one: `node bench/run.mjs api`.
// BENCH_SMOKE=1 runs each in its smoke mode: tiny sizes and a second or two per measurement, to show
// in CI (`npm test`, project bench-smoke) that every benchmark still runs; its figures and target
// verdicts mean nothing. A benchmark that throws or exits non-zero fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SMOKE = process.env.BENCH_SMOKE === '1';

/** Each benchmark's own knobs at their smallest useful values; explicit settings still win. */
const SMOKE_ENV = {
  analytics: { ANALYTICS_BENCH_MESSAGES: '20000', ANALYTICS_BENCH_RUNS: '3' },
  api: {
    BENCH_DURATION: '1',
    BENCH_WARMUP: '0',
    BENCH_CONNECTIONS: '4',
    BENCH_ROUNDS: '1',
    BENCH_LIST_BOTS: '5',
    BENCH_LIST_ROWS: '12',
    BENCH_UNCACHED: '0',
  },
  chat: {
    CHAT_BENCH_SECONDS: '2',
    CHAT_BENCH_VISITORS: '4',
    CHAT_BENCH_CHUNKS: '200',
    CHAT_BENCH_PROBES: '4',
    CHAT_BENCH_ROUNDS: '1',
    CHAT_BENCH_PAUSE_MS: '200',
    CHAT_BENCH_SETTLE_MS: '100',
  },
  inbox: {
    INBOX_BENCH_SECONDS: '1',
    INBOX_BENCH_CONVERSATIONS: '4',
    INBOX_BENCH_ROUNDS: '1',
    INBOX_BENCH_DRAIN_MS: '3000',
  },
  ingest: { BENCH_PAGES: '4', BENCH_ROUNDS: '1' },
  retrieval: { BENCH_SIZES: '300', BENCH_ROUNDS: '1' },
  social: { SOCIAL_BENCH_USERS: '8', SOCIAL_BENCH_ROUNDS: '1', SOCIAL_BENCH_WAIT_S: '30' },
  stores: { STORES_BENCH_PRODUCTS: '200' },
  web: {},
  whatsapp: { WHATSAPP_BENCH_RECIPIENTS: '400', WHATSAPP_BENCH_RATE: '200', WHATSAPP_BENCH_ROWS: '2000' },
};

/**
 * The environment a benchmark runs in: in smoke mode, its small settings and, given CI's PostgreSQL
 * (TEST_DATABASE_URL), that server alone: a smoke run shows the code still runs, and measuring on
 * PGlite as well doubled its share of CI's time (the PGlite paths run in every full `npm run bench`).
 */
function benchEnv(name) {
  if (!SMOKE) return process.env;
  const database = process.env.TEST_DATABASE_URL
    ? { BENCH_DATABASE_URL: process.env.TEST_DATABASE_URL, BENCH_DATABASES: 'postgres' }
    : {};
  return { ...database, ...(SMOKE_ENV[name] ?? {}), ...process.env };
}
const wanted = process.argv.slice(2);
const benches = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(here, entry.name, 'run.mjs')))
  .map((entry) => entry.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

if (benches.length === 0) {
  console.error(
    wanted.length > 0 ? `No benchmark named ${wanted.join(', ')}` : 'No benchmark found under bench/',
  );
  process.exit(1);
}

const failed = [];
const seconds = [];
for (const name of benches) {
  console.log(`\n=== bench/${name}${SMOKE ? ' (smoke: tiny sizes, targets not judged)' : ''} ===`);
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, name, 'run.mjs')], {
      stdio: 'inherit',
      env: benchEnv(name),
    });
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  if (code !== 0) failed.push(name);
  seconds.push([name, (performance.now() - started) / 1000]);
}

// What each took, so a slow one shows (the smoke run is a whole test file of CI's).
console.log('\n=== time per benchmark ===');
for (const [name, s] of seconds) console.log(`bench/${name}: ${s.toFixed(1)} s`);

if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map((n) => `bench/${n}`).join(', ')}`);
  process.exit(1);
}
