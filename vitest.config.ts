import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test projects:
 * - unit: logic beside the code (contracts, server units, web units under jsdom);
 * - api-pglite: API tests over real HTTP on embedded PGlite;
 * - api-pg: the same API tests on a PostgreSQL server, when TEST_DATABASE_URL is set (CI sets it);
 * - browser: Playwright driving Debian's Chromium against the built app (each file its own server);
 * - bench-smoke: every benchmark of bench/ in its smoke mode (tiny, no targets), so none rots unseen.
 */
const apiTests = ['apps/server/src/**/*.api.test.ts'];
/**
 * The API test files share a worker's modules (isolate: false): each file builds its own app, data
 * and fakes, and none mocks a module or changes the environment, so a fresh module graph per file
 * only cost time (importing the server and its libraries took 77 of the project's 174 s on PGlite;
 * 105 s in all without). The server's module-level state is constant, keyed by what one file cannot
 * share with another (an app's deps, a setting's id and update time), or only paces calls (Shopify's
 * rate buckets, by shop address).
 */
const apiShared = { include: apiTests, isolate: false };
/**
 * Test files run at once: at least 2. Vitest's default (CPUs − 1) is 1 on a 2-CPU machine, where a
 * single file at a time left one core idle: most API and browser tests wait on sockets, servers and
 * timers, not the CPU (CI: 24 min at 1, with about 1.1 cores busy). TEST_WORKERS overrides.
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() - 1);
const hasPg = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/widget/src/**/*.test.{ts,tsx}',
          ],
          exclude: [...apiTests, '**/node_modules/**', '**/dist/**'],
          environment: 'node',
          setupFiles: ['apps/web/src/test/setup-dom.ts'],
        },
      },
      {
        test: {
          name: 'api-pglite',
          ...apiShared,
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(hasPg
        ? [
            {
              test: {
                name: 'api-pg',
                ...apiShared,
                env: { TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'browser',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          globalSetup: ['apps/web/e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // No fileParallelism: false here: Vitest runs a one-worker project after every other one,
          // alone, with a CPU idle (18 of 46 minutes of a CI run); in the shared pool its files run
          // beside the API tests. Each file has its own server, data directory and browser.
        },
      },
      {
        test: {
          name: 'bench-smoke',
          include: ['bench/smoke.test.mjs'],
          // Every benchmark one after another, beside the other projects' files.
          testTimeout: 1_200_000,
        },
      },
    ],
  },
});
