import type { Bot, ChatMessage, VisitorIdentity } from '@parley/contracts';
import { BOTS_SUBJECT, MESSAGES, WIDGET_TEXTS_ENGLISH } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * Issue 13 items 4, 6 and 16: the chat socket applies the HTTP routes' permissions; a user's sockets
 * close when their session ends or their permission goes; dead and surplus sockets are refused.
 */
type Frame = {
  type?: string;
  error?: string;
  message?: string;
  code?: string;
  final_result_object?: ChatMessage;
};
type Client = { socket: WebSocket; frames: Frame[]; closed: Promise<number>; send: (frame: unknown) => void };

let server: TestServer;
let owner: Account;
let bot: Bot;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const wsBase = () => server.url.replace('http', 'ws');

function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const socket = new WebSocket(url, options);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      resolve({ socket, frames, closed, send: (frame) => socket.send(JSON.stringify(frame)) }),
    );
    socket.once('error', reject);
  });
}

const opening = (messageType: 'user' | 'helpdesk') => ({
  content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: messageType },
  elements: [],
});

async function userSocket(account: Account): Promise<Client> {
  const client = await connect(`${wsBase()}/api/chat/stream?token=${account.access_token}`);
  client.send(opening('user'));
  return client;
}

async function agentSocket(account: Account): Promise<Client> {
  const client = await connect(
    `${wsBase()}/api/chat/helpdesk?token=${account.access_token}&tenant_id=${account.user.tenant_id}&user_id=${account.user.id}`,
  );
  client.send(opening('helpdesk'));
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

async function visitorToken(): Promise<string> {
  const reply = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  return reply.body.visitor_token;
}

/** A visitor's conversation with the bot, with its welcome, question and answer stored. */
async function visitorConversation(): Promise<number> {
  const client = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`);
  client.send(opening('user'));
  client.send({
    content: {
      bot_id: bot.bot_id,
      conversation_id: 0,
      message: 'My order number is 4711',
      message_type: 'user',
    },
    elements: [],
  });
  await expect
    .poll(() => client.frames.filter((f) => f.final_result_object).length, { timeout: 15_000 })
    .toBe(3);
  client.socket.close();
  return client.frames.find((f) => f.final_result_object)!.final_result_object!.conversation_id;
}

async function teammateWith(grants: Parameters<typeof createRole>[2]) {
  const role = await createRole(server, owner, grants);
  return { role, account: await addTeammate(server, owner, role, readToken) };
}

beforeAll(async () => {
  server = await startTestServer({
    env: {
      SOCKET_PING_MS: '300',
      SOCKET_OPENING_FRAME_MS: '500',
      SOCKET_LIMIT_PER_ADDRESS: '6',
      SOCKET_LIMIT_PER_IDENTITY: '2',
      VISITOR_MESSAGES_PER_MINUTE: '3',
    },
  });
  owner = await signupOwner(server);
  const form = new FormData();
  form.append('bot_name', 'Sockets');
  const created = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${owner.access_token}` },
  });
  bot = (await created.json()) as Bot;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('chat socket permissions (item 4)', () => {
  it('refuses a member without read on Create Bot, as HTTP does: no resume of a visitor conversation, no chat', async () => {
    const conversationId = await visitorConversation();
    const { account: member } = await teammateWith({ Home: { read: true } });
    const http = await server.get(`/api/chat/chats/conversation/${conversationId}`, {
      token: member.access_token,
    });
    expect(http.status).toBe(403);

    const client = await connect(`${wsBase()}/api/chat/stream?token=${member.access_token}`);
    client.send({ type: 'resume', conversation_id: conversationId, after_seq: 0 });
    client.send({
      content: { bot_id: bot.bot_id, conversation_id: 0, message: 'hello', message_type: 'user' },
      elements: [],
    });
    expect(await client.closed).toBe(4403);
    expect(client.frames).toEqual([{ error: MESSAGES.auth.forbidden }]);
    const stored = await server.get<unknown[]>('/api/chat/chats', { token: owner.access_token });
    expect(stored.body).toHaveLength(1);
  });

  it('serves a member with read on Create Bot like HTTP, and answers a bad conversation id with an error frame', async () => {
    const conversationId = await visitorConversation();
    const { account: member } = await teammateWith({ [BOTS_SUBJECT]: { read: true } });
    const client = await userSocket(member);
    client.send({ type: 'resume', conversation_id: conversationId, after_seq: 0 });
    await expect.poll(() => client.frames.filter((f) => f.final_result_object).length).toBe(3);
    client.send({ type: 'resume', conversation_id: 0, after_seq: 0 });
    client.send({ type: 'resume', conversation_id: 2_147_483_647, after_seq: 0 });
    await expect.poll(() => client.frames.filter((f) => f.error).length).toBe(2);
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    client.socket.close();
  });

  it("keeps a visitor to their own conversations: another visitor's is not found", async () => {
    const conversationId = await visitorConversation();
    const client = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`);
    client.send(opening('user'));
    client.send({ type: 'resume', conversation_id: conversationId, after_seq: 0 });
    await expect.poll(() => client.frames.find((f) => f.error)?.error).toBe('Conversation not found');
    expect(client.frames.some((f) => f.final_result_object)).toBe(false);
    client.socket.close();
  });
});

describe("closing a user's sockets (item 6)", () => {
  it('closes both channels within a second when the user is deleted', async () => {
    const { account: agent } = await teammateWith({ Inbox: { read: true }, [BOTS_SUBJECT]: { read: true } });
    const inbox = await agentSocket(agent);
    const chat = await userSocket(agent);
    const started = Date.now();
    expect(
      (await server.delete(`/api/auth/user/${agent.user.id}`, { token: owner.access_token })).status,
    ).toBe(200);
    expect(await inbox.closed).toBe(4401);
    expect(await chat.closed).toBe(4401);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('closes the help-desk socket when read on Inbox is removed from the role, and only then', async () => {
    const { role, account: agent } = await teammateWith({
      Inbox: { read: true },
      [BOTS_SUBJECT]: { read: true },
    });
    const inbox = await agentSocket(agent);
    const chat = await userSocket(agent);
    const withoutInbox = await server.get<{ id: number; name: string }[]>('/api/role/features', {
      token: owner.access_token,
    });
    const id = (name: string) => withoutInbox.body.find((f) => f.name === name)!.id;
    const changed = await server.post(
      '/api/role/assign-feature-permissions',
      {
        role_id: role.id,
        feature_permissions: [
          { feature_permission_id: id(BOTS_SUBJECT), can_create: false, can_read: true, can_write: false },
          { feature_permission_id: id('Inbox'), can_create: false, can_read: false, can_write: false },
        ],
      },
      { token: owner.access_token },
    );
    expect(changed.status).toBe(200);
    expect(await inbox.closed).toBe(4403);
    // The chat channel's rule (read on Create Bot) still holds: it stays open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chat.socket.readyState).toBe(WebSocket.OPEN);
    chat.socket.close();
  });

  it('closes the sockets on logout and on a password change', async () => {
    const { account: agent } = await teammateWith({ Inbox: { read: true } });
    const first = await agentSocket(agent);
    const logout = await server.post('/api/auth/logout', undefined, { cookie: agent.cookie });
    expect(logout.status).toBe(200);
    expect(await first.closed).toBe(4401);

    const login = await server.post<{ access_token: string }>('/api/auth/login', {
      username: agent.user.email,
      password: PASSWORD,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const second = await agentSocket({ ...agent, access_token: login.body.access_token });
    const changed = await server.put(
      `/api/auth/user/password/${agent.user.id}`,
      { current_password: PASSWORD, new_password: 'another horse battery staple' },
      { token: login.body.access_token },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await second.closed).toBe(4401);
  });
});

describe('heartbeat and limits (item 16)', () => {
  it('closes a socket that sends no opening frame in time (4408)', async () => {
    const client = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`);
    expect(await client.closed).toBe(4408);
  });

  it('drops a client that stopped answering pings, on both channels', async () => {
    const visitor = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`, {
      autoPong: false,
    });
    visitor.send(opening('user'));
    const agent = await connect(
      `${wsBase()}/api/chat/helpdesk?token=${owner.access_token}&tenant_id=${owner.user.tenant_id}&user_id=${owner.user.id}`,
      { autoPong: false },
    );
    agent.send(opening('helpdesk'));
    // terminate() ends the TCP connection without a close frame: the client sees 1006.
    expect(await visitor.closed).toBe(1006);
    expect(await agent.closed).toBe(1006);
  });

  it('limits sockets per identity (4429) while the same visitor below it and others still connect', async () => {
    const token = await visitorToken();
    const url = `${wsBase()}/api/chat/stream?visitor_token=${token}`;
    const open = [await connect(url), await connect(url)];
    for (const client of open) client.send(opening('user'));
    await expect.poll(() => open.every((c) => c.frames.some((f) => f.type === 'connected'))).toBe(true);
    const third = await connect(url);
    third.send(opening('user'));
    expect(await third.closed).toBe(4429);
    const other = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`);
    other.send(opening('user'));
    await expect.poll(() => other.frames.some((f) => f.type === 'connected')).toBe(true);
    for (const client of [...open, other]) client.socket.close();
  });

  it('limits sockets per address (4429), and another address still connects', async () => {
    const url = async () => `${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`;
    const open: Client[] = [];
    for (let i = 0; i < 6; i++) open.push(await connect(await url()));
    for (const client of open) client.send(opening('user'));
    const refused = await connect(await url());
    expect(await refused.closed).toBe(4429);
    const elsewhere = await connect(await url(), { localAddress: '127.0.0.2' });
    elsewhere.send(opening('user'));
    await expect.poll(() => elsewhere.frames.some((f) => f.type === 'connected')).toBe(true);
    for (const client of [...open, elsewhere]) client.socket.close();
    // HTTP from the full address is not affected.
    expect((await server.get('/api/health')).status).toBeLessThan(500);
  });

  it("warns a visitor who sends faster than the limit, naming the warning so the widget words it in the visitor's language", async () => {
    const client = await connect(`${wsBase()}/api/chat/stream?visitor_token=${await visitorToken()}`);
    client.send(opening('user'));
    for (const n of [1, 2, 3, 4])
      client.send({
        content: { bot_id: bot.bot_id, conversation_id: 0, message: `question ${n}`, message_type: 'user' },
        elements: [],
      });
    await expect
      .poll(() => client.frames.find((f) => f.type === 'warning'), { timeout: 15_000 })
      .toEqual({ type: 'warning', code: 'too_fast', message: WIDGET_TEXTS_ENGLISH.tooFast });
    // Three questions were taken: each stored, none lost to the fourth's refusal.
    await expect
      .poll(() => client.frames.filter((f) => f.final_result_object?.message_type === 'user').length, {
        timeout: 15_000,
      })
      .toBe(3);
    client.socket.close();
  });
});
