import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sleep } from './eval-api.js';
import type { Release } from './eval-release.js';

/**
 * A release's server for an evaluation, run as its own process (`node apps/server/dist/main.js`,
 * as in production) on a fresh database, configured the way the API tests configure theirs:
 * loopback addresses may be crawled (CRAWLER_ALLOW_PRIVATE), jobs are polled often.
 */
export type EvalDatabase = {
  label: 'PGlite' | 'PostgreSQL';
  /** What the server is given to open it: DATA_DIR for PGlite (and uploads), DATABASE_URL for PostgreSQL. */
  env: Record<string, string>;
  drop(): Promise<void>;
};

export type RunningServer = { url: string; stop(): Promise<void> };

const SECRET = 'parley-eval-secret-that-is-long-enough-0123456789';
/** Variables of the environment handed on: the embedding model, when one is configured, is measured too. */
const PASSED_ON = [
  'PATH',
  'HOME',
  'EMBEDDING_BASE_URL',
  'EMBEDDING_MODEL',
  'EMBEDDING_API_KEY',
  'EMBEDDING_DIMENSIONS',
];

/** A fresh database: PGlite in a temporary folder, or one created on the PostgreSQL server given (and dropped). */
export async function freshDatabase(pgUrl: string | null): Promise<EvalDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-eval-'));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (!pgUrl) return { label: 'PGlite', env: { DATA_DIR: dataDir }, drop: removeDir };
  const name = `parley_eval_${Date.now()}`;
  await onServer(pgUrl, `CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.href },
    drop: async () => {
      await onServer(pgUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await removeDir();
    },
  };
}

async function onServer(pgUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Starts the release's server on the database and waits until /api/health answers. Its output goes
 * to `log` (warnings and errors only), so a failure can be read after the run.
 */
export async function startServer(
  release: Release,
  database: EvalDatabase,
  log: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const port = await freePort();
  mkdirSync(path.dirname(log), { recursive: true });
  const out = createWriteStream(log, { flags: 'a' });
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: release.root,
    env: {
      ...Object.fromEntries(PASSED_ON.flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : []))),
      APP_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: 'http://parley.eval',
      CRAWLER_ALLOW_PRIVATE: 'true',
      JOB_POLL_MS: '50',
      UPLOAD_MAX_FILES: '100',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      WIDGET_DIST_DIR: '/nonexistent-widget-dist',
      // The evaluation asks hundreds of questions of several bots: no plan's allowance applies.
      PLAN_LIMITS: 'off',
      MONTHLY_MESSAGE_LIMIT: '1000000',
      ...database.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(url, child, log);
  return { url, stop: () => stop(child) };
}

async function untilHealthy(url: string, child: ChildProcess, log: string): Promise<void> {
  for (let tries = 0; tries < 240; tries++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}; see ${log}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  await stop(child);
  throw new Error(`the server did not answer /api/health within a minute; see ${log}`);
}

/** Runs `use` against the release's server on the database, and stops the server afterwards. */
export async function withServer<T>(
  release: Release,
  database: EvalDatabase,
  log: string,
  env: Record<string, string>,
  use: (url: string) => Promise<T>,
): Promise<T> {
  const server = await startServer(release, database, log, env);
  try {
    return await use(server.url);
  } finally {
    await server.stop();
  }
}

/**
 * The file the release's server writes to on this database, `<cache>/logs/<release>-<database>.log`,
 * emptied; the run says which it is.
 */
export function serverLog(cacheDir: string, release: Release, database: EvalDatabase): string {
  const slug = release.label.replace(/\W+/g, '-').replace(/-$/, '');
  const log = path.join(cacheDir, 'logs', `${slug}-${database.label}.log`);
  rmSync(log, { force: true });
  process.stderr.write(`eval: ${release.label} on ${database.label} (server log: ${log})\n`);
  return log;
}

/** SIGTERM (the server closes its workers and database), SIGKILL if it has not exited in 20 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** A port free right now on loopback (the server binds it a moment later). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
