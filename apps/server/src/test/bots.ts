import { randomBytes } from 'node:crypto';
import { bots } from '../modules/bots/bots.schema.js';
import type { TestServer } from './server.js';

/** A bot row for tests of features that need one (the bots API arrives with its own capability). */
export async function insertBot(
  server: TestServer,
  tenantId: number,
  name = `Bot_${randomBytes(3).toString('hex')}`,
) {
  const [bot] = await server.database.db.insert(bots).values({ tenantId, botName: name }).returning();
  return bot!;
}
