import type { Bot, ChatMessage, ConversationWithMessages, VisitorIdentity } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * A visitor's message the server stored, whose copy never reached them (the socket died on the
 * way), is sent again with the same client id after the reconnect: it is stored and answered once,
 * and the new socket is given the message and its answer.
 */
type Frame = { error?: string; final_result_object?: ChatMessage };
type Client = { frames: Frame[]; send: (frame: unknown) => void; close: () => void };

let server: TestServer;
let owner: Account;
let bot: Bot;

async function visitorToken(): Promise<string> {
  const reply = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  return reply.body.visitor_token;
}

async function visitorSocket(token: string): Promise<Client> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${token}`);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const client = {
    frames,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    close: () => socket.close(),
  };
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  return client;
}

const question = (text: string, clientId: string, conversationId = 0) => ({
  content: {
    bot_id: bot.bot_id,
    conversation_id: conversationId,
    message: text,
    message_type: 'user',
    client_id: clientId,
  },
  elements: [],
});

const stored = (client: Client) =>
  client.frames.flatMap((f) => (f.final_result_object ? [f.final_result_object] : []));
/** The stored messages a socket was given, as "seq type: text", each seq once. */
const seen = (client: Client) => [
  ...new Set(stored(client).map((m) => `${m.seq} ${m.message_type}: ${m.message.slice(0, 20)}`)),
];

async function answered(client: Client, text: string): Promise<ChatMessage> {
  await expect
    .poll(
      () => {
        const messages = stored(client);
        const asked = messages.find((m) => m.message_type === 'user' && m.message === text);
        return asked && messages.some((m) => m.message_type === 'bot' && m.seq > asked.seq);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return stored(client).find((m) => m.message_type === 'user' && m.message === text)!;
}

async function conversation(id: number): Promise<ChatMessage[]> {
  const reply = await server.get<ConversationWithMessages>(`/api/chat/chats/${id}`, {
    token: owner.access_token,
  });
  expect(reply.status).toBe(200);
  return reply.body.messages;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  bot = await createBotViaApi(server, owner, { bot_name: 'Resends' });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('a message sent again after a reconnect', () => {
  it('is stored and answered once, and the new socket gets it and its answer', async () => {
    const token = await visitorToken();
    const first = await visitorSocket(token);
    first.send(question('Do you deliver to Leeds?', 'client-message-0001'));
    const asked = await answered(first, 'Do you deliver to Leeds?');
    // The copy says which message it is, for the client that sent it.
    expect(asked.client_id).toBe('client-message-0001');
    first.close();

    // The copy never arrived: the reconnected client sends it again, as a first message (conversation 0).
    const second = await visitorSocket(token);
    second.send(question('Do you deliver to Leeds?', 'client-message-0001'));
    await answered(second, 'Do you deliver to Leeds?');
    expect(seen(second)).toEqual(seen(first).filter((line) => !line.startsWith('1 ')));
    expect(stored(second)[0]!.conversation_id).toBe(asked.conversation_id);

    // And again within the conversation: still one question, one answer.
    second.send(question('Do you deliver to Leeds?', 'client-message-0001', asked.conversation_id));
    second.send(question('And to York?', 'client-message-0002', asked.conversation_id));
    await answered(second, 'And to York?');
    const messages = await conversation(asked.conversation_id);
    expect(messages.map((m) => `${m.message_type}: ${m.message}`)).toEqual([
      expect.stringMatching(/^bot: Welcome/),
      'user: Do you deliver to Leeds?',
      expect.stringMatching(/^bot: /),
      'user: And to York?',
      expect.stringMatching(/^bot: /),
    ]);
    second.close();
  });

  it('sent twice at once is stored once', async () => {
    const token = await visitorToken();
    const [a, b] = await Promise.all([visitorSocket(token), visitorSocket(token)]);
    a.send(question('Is there parking?', 'client-message-twice'));
    b.send(question('Is there parking?', 'client-message-twice'));
    const asked = await answered(a, 'Is there parking?');
    await answered(b, 'Is there parking?');
    const messages = await conversation(asked.conversation_id);
    expect(messages.filter((m) => m.message_type === 'user')).toHaveLength(1);
    a.close();
    b.close();
  });

  it("is another visitor's own message when they happen to use the same client id", async () => {
    const first = await visitorSocket(await visitorToken());
    first.send(question('Open on Sunday?', 'client-message-shared'));
    const mine = await answered(first, 'Open on Sunday?');
    const other = await visitorSocket(await visitorToken());
    other.send(question('Open on Sunday?', 'client-message-shared'));
    const theirs = await answered(other, 'Open on Sunday?');
    expect(theirs.conversation_id).not.toBe(mine.conversation_id);
    expect(stored(other).every((m) => m.conversation_id === theirs.conversation_id)).toBe(true);
    first.close();
    other.close();
  });

  it('refuses a malformed client id, storing nothing', async () => {
    const client = await visitorSocket(await visitorToken());
    client.send(question('Hello?', 'bad id!'));
    await expect.poll(() => client.frames.some((f) => f.error === 'Invalid frame')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stored(client)).toEqual([]);
    client.close();
  });
});
