import { randomBytes } from 'node:crypto';
import type { Bot, ChatExchange } from '@parley/contracts';
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

/** Adds Q&A pairs to a bot as its owner does, and waits until every pair of the bot is trained. */
export async function addTrainedPairs(
  server: TestServer,
  account: Account,
  botId: number,
  pairs: ReadonlyArray<{ question: string; answer: string }>,
): Promise<void> {
  const as = { token: account.access_token };
  for (const pair of pairs) {
    const added = await server.post('/api/qna/', { bot_id: botId, ...pair }, as);
    if (added.status >= 300) throw new Error(`POST /api/qna/: ${added.status} ${JSON.stringify(added.body)}`);
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listed = await server.get<Array<{ trained: boolean }>>(`/api/qna/?bot_id=${botId}`, as);
    if (listed.status === 200 && listed.body.length >= pairs.length && listed.body.every((p) => p.trained))
      return;
    if (Date.now() > deadline) throw new Error(`pairs not trained: ${JSON.stringify(listed.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asks a bot as its owner asks in the playground: a new conversation, or the one given. */
export const askBot = (
  server: TestServer,
  account: Account,
  botId: number,
  message: string,
  conversationId?: number,
) =>
  server.post<ChatExchange>(
    '/api/chat/chats',
    { bot_id: botId, message, ...(conversationId ? { conversation_id: conversationId } : {}) },
    { token: account.access_token },
  );

/** The paths of the pages a reply cites (a Q&A pair's or a file's source by its type). */
export const citedPaths = (reply: { body: ChatExchange }) =>
  reply.body.bot_message!.sources.map((s) => (s.page_url ? new URL(s.page_url).pathname : s.source_type));

/** An OpenAI-compatible model at `baseUrl` (a fake's), saved as the LLM settings screen saves it: its id. */
export async function addModelSetting(
  server: TestServer,
  account: Account,
  baseUrl: string,
  apiKey = 'sk-test-1234',
): Promise<number> {
  const setting = await server.post<{ id: number }>(
    '/api/settings/llm',
    { name: 'Local', provider: 'openai-compatible', base_url: baseUrl, model: 'tiny', api_key: apiKey },
    { token: account.access_token },
  );
  if (setting.status !== 201)
    throw new Error(`POST /api/settings/llm: ${setting.status} ${JSON.stringify(setting.body)}`);
  return setting.body.id;
}
