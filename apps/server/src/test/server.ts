import type { AuthResponse } from '@parley/contracts';
import { createParley, type Parley, type ProcessRole } from '../app.js';
import { loadConfig } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { Database } from '../core/db/database.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export type Reply<T = unknown> = { status: number; body: T; headers: Headers };
type Options = { token?: string; cookie?: string; headers?: Record<string, string> };

/** A Parley server on a loopback port, over real HTTP, with a small client for tests. */
export type TestServer = {
  url: string;
  parley: Parley;
  database: Database;
  get<T = unknown>(path: string, options?: Options): Promise<Reply<T>>;
  post<T = unknown>(path: string, body?: unknown, options?: Options): Promise<Reply<T>>;
  put<T = unknown>(path: string, body?: unknown, options?: Options): Promise<Reply<T>>;
  patch<T = unknown>(path: string, body?: unknown, options?: Options): Promise<Reply<T>>;
  delete<T = unknown>(path: string, options?: Options): Promise<Reply<T>>;
  /** Stops HTTP and workers; the database stays open unless `dropDatabase`. */
  close(options?: { dropDatabase?: boolean }): Promise<void>;
};

export const TEST_SECRET = 'parley-test-secret-that-is-long-enough-0123456789';

export type StartOptions = {
  env?: Record<string, string>;
  role?: ProcessRole;
  /** Reuse a database (restart tests); otherwise a fresh one is made and dropped on close. */
  database?: TestDatabase;
  /** The time schedules and sync times read (the system's by default). */
  clock?: Clock;
};

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const testDb = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: TEST_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'http://parley.test',
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    AUTH_SIGNUP_LIMIT_PER_IP: '100000',
    JOB_POLL_MS: '50',
    // Plans limit nothing unless a test turns them on (billing's own tests do).
    PLAN_LIMITS: 'off',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    ...options.env,
  });
  const parley = await createParley(config, testDb.database, options.role ?? 'all', {
    clock: options.clock,
  });
  await parley.startWorkers();
  await parley.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = parley.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;

  const call = async <T>(
    method: string,
    path: string,
    body: unknown,
    opts: Options = {},
  ): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (HTML pages): keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };

  return {
    url,
    parley,
    database: testDb.database,
    get: (path, o) => call('GET', path, undefined, o),
    post: (path, body, o) => call('POST', path, body, o),
    put: (path, body, o) => call('PUT', path, body, o),
    patch: (path, body, o) => call('PATCH', path, body, o),
    delete: (path, o) => call('DELETE', path, undefined, o),
    close: async ({ dropDatabase = !options.database } = {}) => {
      await parley.close();
      if (dropDatabase) await testDb.drop();
    },
  };
}

/** The refresh cookie from a Set-Cookie header, as a Cookie header value. */
export function refreshCookie(headers: Headers): string | undefined {
  const match = headers.getSetCookie().find((c) => c.startsWith('parley_refresh='));
  return match?.split(';')[0];
}

export type Account = AuthResponse & { cookie: string; password: string };
