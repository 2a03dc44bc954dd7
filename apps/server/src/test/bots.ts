import { randomBytes } from 'node:crypto';
import type { Bot } from '@parley/contracts';
import { bots } from '../modules/bots/bots.schema.js';
import type { Account, TestServer } from './server.js';

/** A bot row for tests of features that need one (the bots API arrives with its own capability). */
export async function insertBot(
  server: TestServer,
  tenantId: number,
  name = `Bot_${randomBytes(3).toString('hex')}`,
) {
  const [bot] = await server.database.db.insert(bots).values({ tenantId, botName: name }).returning();
  return bot!;
}

/** A bot made through the API as the bot wizard makes it (multipart fields); anything but 201 throws. */
export async function createBotViaApi(
  server: TestServer,
  account: Account,
  fields: Record<string, string>,
): Promise<Bot> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  if (response.status !== 201)
    throw new Error(`POST /api/chat/bots: ${response.status} ${await response.text()}`);
  return (await response.json()) as Bot;
}

/** Changes a bot's fields through the API as the console's tabs do (multipart fields): its status and body. */
export async function updateBotViaApi(
  server: TestServer,
  account: Account,
  botId: number,
  fields: Record<string, string>,
): Promise<{ status: number; body: Bot }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${server.url}/api/chat/bots/${botId}`, {
    method: 'PUT',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as Bot };
}
