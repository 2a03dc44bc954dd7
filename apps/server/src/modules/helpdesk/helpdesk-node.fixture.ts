/**
 * Test fixture, run as its own OS process by helpdesk.nodes.api.test.ts: a second API node
 * (createParley with role 'api') on the same PostgreSQL database, on a loopback port. Prints
 * "ready <url>" once it listens; stops cleanly on SIGTERM.
 * Usage: node --import tsx helpdesk-node.fixture.ts <database-url>
 */
import { createParley } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../core/db/database.js';
import { TEST_SECRET } from '../../test/server.js';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: helpdesk-node.fixture.ts <database-url>');
  process.exit(2);
}

const config = loadConfig({
  NODE_ENV: 'test',
  APP_SECRET: TEST_SECRET,
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  PUBLIC_URL: 'http://parley.test',
  DATABASE_URL: url,
  AUTH_RATE_LIMIT_PER_IP: '100000',
  AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
  AUTH_SIGNUP_LIMIT_PER_IP: '100000',
  WEB_DIST_DIR: '/nonexistent-web-dist',
});
const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
const parley = await createParley(config, database, 'api');
await parley.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = parley.app.server.address() as { port: number };
console.log(`ready http://127.0.0.1:${port}`);

process.once('SIGTERM', () => {
  void parley
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
