import type { ChatMessage, ConversationWithMessages, VisitorIdentity } from '@parley/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addModelSetting, createBotViaApi } from '../../test/bots.js';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type OpenAiFake, startOpenAiFake } from '../../test/fakes/openai.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { serveBakery } from '../../test/sites/bakery.js';
import { messages } from './chat.schema.js';

/**
 * A question is answered to the end when its socket closes on the way (a phone that changes
 * network, a tab closed, a server that stops for a deploy): the answer is stored, and the visitor
 * gets it after reconnecting.
 */
const QUESTION = 'How much does delivery cost?';
const REPLY = 'Delivery costs $6, and is free on orders over $50 [1].';

let site: { url: string; close(): Promise<void> };
let llm: OpenAiFake;

type Socket = { frames: Array<{ final_result_object?: ChatMessage; data?: string }>; ws: WebSocket };

async function visitorSocket(server: TestServer, uuid: string, token?: string) {
  const visitorToken =
    token ?? (await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: uuid })).body.visitor_token;
  const ws = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${visitorToken}`,
  );
  const socket: Socket = { frames: [], ws };
  ws.on('message', (raw) => socket.frames.push(JSON.parse(raw.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const send = (frame: unknown) => ws.send(JSON.stringify(frame));
  send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  return { socket, send, visitorToken };
}

/** A visitor asks with the model slow to start, and closes the socket once the question is stored. */
async function askAndLeave(server: TestServer, bot: { uuid: string; bot_id: number }) {
  const visitor = await visitorSocket(server, bot.uuid);
  visitor.send({
    content: { bot_id: bot.bot_id, conversation_id: 0, message: QUESTION, message_type: 'user' },
    elements: [],
  });
  await expect
    .poll(() => visitor.socket.frames.find((f) => f.final_result_object?.message_type === 'user'), {
      timeout: 10_000,
    })
    .toBeTruthy();
  const asked = visitor.socket.frames.find((f) => f.final_result_object?.message_type === 'user')!;
  visitor.socket.ws.close();
  return { conversationId: asked.final_result_object!.conversation_id, visitorToken: visitor.visitorToken };
}

async function modelBot(server: TestServer, owner: Account) {
  const sourceId = await crawlSite(server, owner, `${site.url}/`, 'Blue Fern');
  const settingId = await addModelSetting(server, owner, llm.url);
  return createBotViaApi(server, owner, {
    bot_name: 'Blue Fern',
    is_public: 'true',
    llm_model: String(settingId),
    web_source_ids: JSON.stringify([sourceId]),
  });
}

const messagesOf = async (server: TestServer, owner: Account, id: number) =>
  (await server.get<ConversationWithMessages>(`/api/chat/chats/${id}`, { token: owner.access_token })).body
    .messages;

beforeAll(async () => {
  site = await serveBakery();
  llm = await startOpenAiFake();
  llm.reply(REPLY);
});
afterAll(async () => {
  await site?.close();
  await llm?.close();
});

describe('an answer under way when its socket closes', () => {
  let server: TestServer;
  let owner: Account;
  beforeAll(async () => {
    server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
    owner = await signupOwner(server);
  }, 60_000);
  afterAll(async () => {
    llm.delay(0);
    await server?.close();
  });

  it('is stored, and reaches the visitor when they reconnect', async () => {
    const bot = await modelBot(server, owner);
    llm.delay(600);
    const { conversationId, visitorToken } = await askAndLeave(server, bot);
    await expect
      .poll(async () => (await messagesOf(server, owner, conversationId)).at(-1)?.message_type, {
        timeout: 10_000,
      })
      .toBe('bot');
    expect((await messagesOf(server, owner, conversationId)).at(-1)!.message).toContain('Delivery costs $6');

    const back = await visitorSocket(server, bot.uuid, visitorToken);
    back.send({ type: 'resume', conversation_id: conversationId, after_seq: 2 });
    await expect
      .poll(
        () =>
          back.socket.frames.find((f) => f.final_result_object?.message_type === 'bot')?.final_result_object
            ?.message,
      )
      .toContain('Delivery costs $6');
    back.socket.ws.close();
  });
});

describe('a server that stops while answering', () => {
  it('stores the answer before it closes, so the visitor finds it on the next server', async () => {
    const server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
    try {
      const owner = await signupOwner(server);
      const bot = await modelBot(server, owner);
      llm.delay(800);
      const { conversationId } = await askAndLeave(server, bot);
      await server.close({ dropDatabase: false });
      const stored = await server.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversationId))
        .orderBy(asc(messages.seq));
      expect(stored.map((m) => m.messageType)).toEqual(['bot', 'user', 'bot']);
      expect(stored.at(-1)!.message).toContain('Delivery costs $6');
    } finally {
      llm.delay(0);
      await server.close({ dropDatabase: true }).catch(() => undefined);
    }
  }, 60_000);
});
