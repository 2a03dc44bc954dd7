import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AuthResponse } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../core/db/database.js';
import { createServerDatabase, dropServerDatabase, testDatabaseKind } from '../test/database.js';
import { startTestServer, TEST_SECRET } from '../test/server.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('./admin-create.ts', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-admin-'));
let databaseUrl: string | undefined;

beforeAll(async () => {
  if (testDatabaseKind() === 'postgres') databaseUrl = await createServerDatabase();
});
afterAll(async () => {
  if (databaseUrl) await dropServerDatabase(databaseUrl);
});

const cli = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, APP_SECRET: TEST_SECRET, DATABASE_URL: databaseUrl ?? '' },
  });

it('creates a platform admin from the command line only, who can then sign in', async () => {
  const { stdout } = await cli(['--email', 'Root@Example.com', '--password', 'admin password 1']);
  expect(stdout).toContain('Created platform admin root@example.com');
  const database = databaseUrl
    ? await openDatabase({ kind: 'postgres', url: databaseUrl })
    : await openDatabase({ kind: 'pglite', dataDir: `${dataDir}/pgdata` });
  const server = await startTestServer({ database: { database, drop: () => database.close() } });
  try {
    const login = await server.post<AuthResponse>('/api/auth/login', {
      username: 'root@example.com',
      password: 'admin password 1',
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({
      user_type: 'admin',
      tenant_name: 'Parley Platform',
      email_verified: true,
    });
    expect(login.body.user.roles[0]?.is_owner).toBe(true);
  } finally {
    await server.close({ dropDatabase: true });
  }
  // Promoting an existing account again keeps its password when none is given.
  const again = await cli(['--email', 'root@example.com']);
  expect(again.stdout).toContain('Promoted platform admin root@example.com');
  expect(again.stdout).not.toContain('Generated password');
  const reopened = databaseUrl
    ? await openDatabase({ kind: 'postgres', url: databaseUrl })
    : await openDatabase({ kind: 'pglite', dataDir: `${dataDir}/pgdata` });
  const server2 = await startTestServer({ database: { database: reopened, drop: () => reopened.close() } });
  try {
    const login = await server2.post('/api/auth/login', {
      username: 'root@example.com',
      password: 'admin password 1',
    });
    expect(login.status).toBe(200);
  } finally {
    await server2.close({ dropDatabase: true });
  }
}, 120_000);

it('refuses a missing email or a short password', async () => {
  await expect(cli([])).rejects.toMatchObject({
    stderr: expect.stringContaining('Usage: npm run admin:create'),
  });
  await expect(cli(['--email', 'a@example.com', '--password', 'short'])).rejects.toMatchObject({
    stderr: expect.stringContaining('at least 8 characters'),
  });
});
