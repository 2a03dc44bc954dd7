import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Bot,
  type ChatMessage,
  type ConversationWithMessages,
  type GroupedChat,
  HELPDESK_TEXTS,
  type HelpdeskControlStatus,
  MESSAGES,
  type Presence,
  type UnreadConversations,
  type VisitorIdentity,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { TEXTS } from '../chat/reply-texts.js';
import { IDS_REQUIRED } from './helpdesk.socket.js';

type Frame = {
  type?: string;
  error?: string;
  message?: string;
  conversation_id?: number;
  bot_id?: number;
  unread_count?: number;
  agents_online?: boolean;
  count?: number;
  deleted?: boolean;
  content?: HelpdeskControlStatus;
  final_result_object?: ChatMessage;
};

let server: TestServer;
let owner: Account;
let agent: Account;
let rival: Account;
let member: Account;
let other: Account;
let bot: Bot;
const as = (account: Account) => ({ token: account.access_token });
const tenantOf = (account: Account) => account.user.tenant_id;

async function createBot(target: TestServer, account: Account, name: string): Promise<Bot> {
  const form = new FormData();
  form.append('bot_name', name);
  const response = await fetch(`${target.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Bot;
}

/** A WebSocket that records every frame it receives, and how it was closed. */
async function openSocket(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  let closeCode: number | null = null;
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  const closed = new Promise<number>((resolve) =>
    socket.on('close', (code) => {
      closeCode = code;
      resolve(code);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    closeCode: () => closeCode,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    /** Stored messages received, each seq once per conversation. */
    stored: (conversationId?: number) => {
      const seen = new Map<string, ChatMessage>();
      for (const f of frames) {
        const m = f.final_result_object;
        if (m && (conversationId === undefined || m.conversation_id === conversationId))
          seen.set(`${m.conversation_id}:${m.seq}`, m);
      }
      return [...seen.values()].sort((a, b) => a.seq - b.seq);
    },
    close: async () => {
      if (socket.readyState === socket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
}

const wsUrl = (target: TestServer, pathAndQuery: string) =>
  `${target.url.replace('http', 'ws')}/api${pathAndQuery}`;

/** The admin channel, opened and introduced with the spec's first frame. */
async function agentSocket(account: Account, target: TestServer = server) {
  const client = await openSocket(
    wsUrl(
      target,
      `/chat/helpdesk?token=${account.access_token}&tenant_id=${tenantOf(account)}&user_id=${account.user.id}`,
    ),
  );
  client.send({
    content: {
      bot_id: 0,
      user_id: account.user.id,
      tenant_id: tenantOf(account),
      conversation_id: 0,
      message: 'connection',
      message_type: 'helpdesk',
    },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

/** A widget visitor on the chat channel. */
async function visitor(target: TestServer = server, theBot: Bot = bot) {
  const identity = await target.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: theBot.uuid });
  expect(identity.status).toBe(200);
  const client = await openSocket(wsUrl(target, `/chat/stream?visitor_token=${identity.body.visitor_token}`));
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  let conversationId = 0;
  const say = async (message: string, expectBot = true) => {
    const before = client.stored(conversationId || undefined).length;
    client.send({
      content: {
        bot_id: theBot.bot_id,
        conversation_id: conversationId,
        message,
        message_type: 'user',
        user_id: null,
        tenant_id: null,
      },
      elements: [],
    });
    // A new conversation brings the welcome too.
    const expected = before + (conversationId ? 1 : 2) + (expectBot ? 1 : 0);
    await expect.poll(() => client.stored().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(expected);
    conversationId ||= client.stored()[0]!.conversation_id;
    return conversationId;
  };
  return { ...client, identity: identity.body, say, id: () => conversationId };
}

const control = (account: Account, conversationId: number, held: boolean, tenantId = tenantOf(account)) =>
  server.patch<HelpdeskControlStatus & { detail?: string; admin_name?: string }>(
    `/api/chat/conversations/${conversationId}/helpdesk-control`,
    { tenant_id: tenantId, is_helpdesk_in_control: held },
    as(account),
  );

const conversationOf = (account: Account, id: number) =>
  server.get<ConversationWithMessages>(`/api/chat/helpdesk/conversations/${id}`, as(account));

const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);

beforeAll(async () => {
  server = await startTestServer({
    env: { DATA_DIR: path.join(tmpdir(), `parley-helpdesk-${process.pid}-${Date.now()}`) },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  bot = await createBot(server, owner, 'Front desk');
  const inbox = await createRole(server, owner, { Inbox: { read: true, write: true } });
  agent = await addTeammate(server, owner, inbox, readToken);
  rival = await addTeammate(server, owner, inbox, readToken);
  const renamed = await server.put(
    `/api/auth/user/profile/${rival.user.id}`,
    { first_name: 'Alan', last_name: 'Turing' },
    as(rival),
  );
  expect(renamed.status).toBe(200);
  member = await addTeammate(
    server,
    owner,
    await createRole(server, owner, { Home: { read: true } }),
    readToken,
  );
});
afterAll(async () => {
  await server?.close();
});

describe('the admin channel /chat/helpdesk', () => {
  const refused = async (query: string) => {
    const client = await openSocket(wsUrl(server, `/chat/helpdesk?${query}`));
    const code = await client.closed;
    return { code, frames: client.frames };
  };

  it('serves nothing without both ids, with a bad token, or a token of another tenant or user', async () => {
    const own = `tenant_id=${tenantOf(agent)}&user_id=${agent.user.id}`;
    expect(await refused(`token=${agent.access_token}&tenant_id=${tenantOf(agent)}`)).toEqual({
      code: 4401,
      frames: [{ error: IDS_REQUIRED }],
    });
    expect(await refused(`token=${agent.access_token}&user_id=${agent.user.id}`)).toEqual({
      code: 4401,
      frames: [{ error: IDS_REQUIRED }],
    });
    expect(await refused(`token=not-a-token&${own}`)).toEqual({
      code: 4401,
      frames: [{ error: MESSAGES.auth.notAuthenticated }],
    });
    // Another workspace's token with our ids, and our token with another user's id.
    expect(await refused(`token=${other.access_token}&${own}`)).toEqual({
      code: 4403,
      frames: [{ error: MESSAGES.auth.forbidden }],
    });
    expect(
      await refused(`token=${agent.access_token}&tenant_id=${tenantOf(agent)}&user_id=${owner.user.id}`),
    ).toMatchObject({ code: 4403 });
    // A teammate without the Inbox grant: 403.
    expect(
      await refused(`token=${member.access_token}&tenant_id=${tenantOf(member)}&user_id=${member.user.id}`),
    ).toEqual({ code: 4403, frames: [{ error: MESSAGES.auth.forbidden }] });
  });

  it('answers the opening frame and pings, and refuses malformed frames', async () => {
    const client = await agentSocket(agent);
    client.send({ type: 'ping' });
    client.socket.send('not json');
    await expect.poll(() => client.frames.filter((f) => f.type === 'pong' || f.error).length).toBe(2);
    expect(client.frames).toContainEqual({ type: 'connected', message: 'Connected' });
    expect(client.frames).toContainEqual({ error: 'Frames must be JSON' });
    expect(client.frames.find((f) => f.type === 'presence')).toMatchObject({ agents_online: true });
    await client.close();
  });

  it("carries the tenant's new conversations, messages and unread counts, and nothing of others", async () => {
    const client = await agentSocket(agent);
    const theirs = await createBot(server, other, 'Not yours');
    const stranger = await visitor(server, theirs);
    await stranger.say('Hello from another workspace');
    const guest = await visitor();
    const id = await guest.say('Where is my parcel?');
    await expect.poll(() => client.stored(id).length, { timeout: 10_000 }).toBe(3);
    expect(client.stored(id).map((m) => m.message_type)).toEqual(['bot', 'user', 'bot']);
    const frame = client.frames.find((f) => f.type === 'message' && f.conversation_id === id)!;
    expect(frame).toMatchObject({ bot_id: bot.bot_id });
    expect(client.frames).toContainEqual({ type: 'conversation', conversation_id: id, bot_id: bot.bot_id });
    expect(client.frames).toContainEqual({
      type: 'unread',
      conversation_id: id,
      bot_id: bot.bot_id,
      unread_count: 1,
    });
    expect(client.stored(stranger.id())).toEqual([]);
    await Promise.all([client.close(), guest.close(), stranger.close()]);
  });
});

describe('presence', () => {
  it('is online while an agent has a help-desk socket, for the console, the widget and the visitors', async () => {
    const guest = await visitor();
    const presence = () => server.get<Presence>(`/api/chat/helpdesk/presence/${tenantOf(owner)}`, as(owner));
    const publicPresence = () => server.get<Presence>(`/api/auth/bot/uuid/${bot.uuid}/presence`);
    await expect.poll(async () => (await presence()).body).toEqual({ agents_online: false, count: 0 });
    await expect
      .poll(() => guest.frames.filter((f) => f.type === 'presence').at(-1))
      .toEqual({ type: 'presence', agents_online: false });

    const client = await agentSocket(agent);
    expect((await presence()).body).toEqual({ agents_online: true, count: 1 });
    expect((await publicPresence()).body).toEqual({ agents_online: true, count: 1 });
    await expect.poll(() => guest.frames.at(-1)).toEqual({ type: 'presence', agents_online: true });
    // With an agent online, "nothing found" offers a human.
    await guest.say('What is the capital of Peru?');
    expect(guest.stored().at(-1)!.message).toBe(TEXTS.notFound + TEXTS.offerHuman);

    await client.close();
    await expect.poll(async () => (await presence()).body).toEqual({ agents_online: false, count: 0 });
    await expect.poll(() => guest.frames.at(-1)).toEqual({ type: 'presence', agents_online: false });
    expect((await publicPresence()).body.agents_online).toBe(false);
    await guest.close();
  });

  it('goes offline at once on POST /chat/websocket/disconnect, for the caller only', async () => {
    const client = await agentSocket(agent);
    const presence = () => server.get<Presence>(`/api/chat/helpdesk/presence/${tenantOf(owner)}`, as(owner));
    expect((await presence()).body.agents_online).toBe(true);
    const body = { user_id: agent.user.id, tenant_id: tenantOf(agent), is_admin: true };
    expect((await server.post('/api/chat/websocket/disconnect', body, as(rival))).status).toBe(403);
    expect(
      (
        await server.post(
          '/api/chat/websocket/disconnect',
          { ...body, user_id: other.user.id, tenant_id: tenantOf(other) },
          as(agent),
        )
      ).status,
    ).toBe(404);
    expect((await presence()).body.agents_online).toBe(true);
    expect((await server.post('/api/chat/websocket/disconnect', body, as(agent))).status).toBe(200);
    expect((await presence()).body).toEqual({ agents_online: false, count: 0 });
    await expect
      .poll(() => client.frames.at(-1))
      .toEqual({ type: 'presence', agents_online: false, count: 0 });
    await client.close();
    expect((await server.get(`/api/chat/helpdesk/presence/${tenantOf(owner)}`, as(other))).status).toBe(404);
    expect(
      (await server.get('/api/auth/bot/uuid/00000000-0000-4000-8000-000000000000/presence')).status,
    ).toBe(404);
  });
});

describe('taking over and handing back', () => {
  it('silences the bot, shows the visitor green notices and the agent replies live, then the bot is back', async () => {
    const guest = await visitor();
    const id = await guest.say('I need a human please');
    const watcher = await agentSocket(rival);

    const taken = await control(agent, id, true);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body).toEqual({
      conversation_id: id,
      is_helpdesk_in_control: true,
      admin_id: agent.user.id,
      admin_name: 'Grace Hopper',
    });
    await expect
      .poll(() => guest.frames.find((f) => f.type === 'helpdesk_control'))
      .toMatchObject({ conversation_id: id, message: HELPDESK_TEXTS.agentJoined('Grace Hopper') });
    await expect
      .poll(() => watcher.frames.find((f) => f.type === 'helpdesk_control'))
      .toMatchObject({ conversation_id: id, content: taken.body });
    const status = await server.get<HelpdeskControlStatus>(
      `/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${tenantOf(agent)}`,
      as(rival),
    );
    expect(status.body).toEqual(taken.body);
    const bulk = await server.post<HelpdeskControlStatus[]>(
      '/api/chat/conversations/bulk-helpdesk-control-status',
      { tenant_id: tenantOf(agent), conversation_ids: [id, 99_999_999] },
      as(rival),
    );
    expect(bulk.body).toEqual([taken.body]);
    // Taking it again is harmless; a second agent is told who holds it.
    expect((await control(agent, id, true)).status).toBe(200);
    const refused = await control(rival, id, true);
    expect([refused.status, refused.body]).toEqual([
      409,
      { detail: HELPDESK_TEXTS.heldBy('Grace Hopper'), admin_id: agent.user.id, admin_name: 'Grace Hopper' },
    ]);
    expect((await control(rival, id, false)).status).toBe(409);

    // The bot stays silent while held.
    await guest.say('Are you there?', false);
    const held = await conversationOf(agent, id);
    expect(held.body.messages.at(-1)).toMatchObject({ message: 'Are you there?', message_type: 'user' });

    // The agent's reply reaches the visitor live, stored as a helpdesk message.
    const reply = await server.post<ChatMessage>(
      `/api/chat/helpdesk/conversations/${id}/reply`,
      { message: 'Hi, Grace here. How can I help?' },
      as(agent),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      message_type: 'helpdesk',
      sender_id: String(agent.user.id),
      user_id: agent.user.id,
    });
    await expect
      .poll(() => guest.stored().at(-1))
      .toMatchObject({ message: 'Hi, Grace here. How can I help?', message_type: 'helpdesk' });
    const notHolding = await server.post(
      `/api/chat/helpdesk/conversations/${id}/reply`,
      { message: 'Me too' },
      as(rival),
    );
    expect([notHolding.status, notHolding.body]).toEqual([409, { detail: HELPDESK_TEXTS.notHolding }]);

    // Over the admin channel too.
    const channel = await agentSocket(agent);
    channel.send({
      content: {
        bot_id: bot.bot_id,
        conversation_id: id,
        message: 'Over the socket',
        message_type: 'helpdesk',
      },
      elements: [],
    });
    await expect.poll(() => guest.stored().at(-1)?.message).toBe('Over the socket');
    await expect.poll(() => channel.stored(id).at(-1)?.message).toBe('Over the socket');
    watcher.send({
      content: { bot_id: bot.bot_id, conversation_id: id, message: 'Sneaky', message_type: 'helpdesk' },
      elements: [],
    });
    await expect.poll(() => watcher.frames).toContainEqual({ error: HELPDESK_TEXTS.notHolding });

    // Handed back: a green notice, and the bot answers again.
    const back = await control(agent, id, false);
    expect(back.body).toEqual({
      conversation_id: id,
      is_helpdesk_in_control: false,
      admin_id: null,
      admin_name: null,
    });
    await expect
      .poll(() => guest.frames.filter((f) => f.type === 'helpdesk_control').at(-1)?.message)
      .toBe(HELPDESK_TEXTS.botBack);
    await guest.say('And now?');
    expect(guest.stored().at(-1)!.message_type).toBe('bot');
    await Promise.all([guest.close(), watcher.close(), channel.close()]);
  });

  it('answers at hand-back what the visitor wrote while the agent held the chat and nobody answered', async () => {
    const guest = await visitor();
    const id = await guest.say('Hello');
    expect((await control(agent, id, true)).status).toBe(200);
    await guest.say('Where is my parcel?', false);
    const heldLength = guest.stored().length;
    expect(guest.stored().at(-1)!.message_type).toBe('user');
    await control(agent, id, false);
    // The hand-back notice, then the bot's answer to the question nobody answered.
    await expect
      .poll(() =>
        guest
          .stored()
          .slice(heldLength)
          .map((m) => m.message_type),
      )
      .toEqual(['system', 'bot']);
    expect(guest.stored().at(-1)!.message).not.toBe('');

    // Answered by the agent before the hand-back: the bot stays quiet.
    const answered = await visitor();
    const other = await answered.say('Hi there');
    await control(agent, other, true);
    await answered.say('Do you ship abroad?', false);
    await server.post(
      `/api/chat/helpdesk/conversations/${other}/reply`,
      { message: 'Yes, to 40 countries.' },
      as(agent),
    );
    await control(agent, other, false);
    await expect.poll(() => answered.stored().at(-1)?.message_type).toBe('system');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered.stored().at(-1)!.message_type).toBe('system');
    await Promise.all([guest.close(), answered.close()]);
  });

  it('lets exactly one of two agents win a takeover race, and tells the other who', async () => {
    for (let round = 0; round < 3; round++) {
      const guest = await visitor();
      const id = await guest.say(`Race ${round}`);
      const replies = await Promise.all([control(agent, id, true), control(rival, id, true)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = replies.find((r) => r.status === 200)!.body;
      const loser = replies.find((r) => r.status === 409)!.body;
      expect(loser).toEqual({
        detail: HELPDESK_TEXTS.heldBy(winner.admin_name!),
        admin_id: winner.admin_id,
        admin_name: winner.admin_name,
      });
      expect(['Grace Hopper', 'Alan Turing']).toContain(winner.admin_name);
      // An owner may hand back anyone's conversation.
      expect((await control(owner, id, false)).body.is_helpdesk_in_control).toBe(false);
      await guest.close();
    }
  });
});

describe('unread counts', () => {
  it('count visitor messages, reset on mark read, and are announced', async () => {
    const client = await agentSocket(agent);
    const guest = await visitor();
    const id = await guest.say('First');
    await guest.say('Second');
    const unread = () =>
      server.get<UnreadConversations>(
        `/api/chat/helpdesk/unread-conversations/${tenantOf(owner)}`,
        as(agent),
      );
    const mine = (await unread()).body;
    expect(mine.conversations).toContainEqual({ conversation_id: id, bot_id: bot.bot_id, unread_count: 2 });
    expect(mine.bots.find((b) => b.bot_id === bot.bot_id)).toMatchObject({ unread: true });
    expect(mine.total).toBe(mine.conversations.reduce((sum, c) => sum + c.unread_count, 0));
    await expect
      .poll(
        () =>
          client.frames.filter((f) => f.type === 'unread' && f.conversation_id === id).at(-1)?.unread_count,
      )
      .toBe(2);

    const read = await server.post(`/api/chat/helpdesk/mark-conversation-read/${id}`, undefined, as(agent));
    expect(read.status).toBe(200);
    await expect
      .poll(
        () =>
          client.frames.filter((f) => f.type === 'unread' && f.conversation_id === id).at(-1)?.unread_count,
      )
      .toBe(0);
    expect((await unread()).body.conversations.some((c) => c.conversation_id === id)).toBe(false);
    await Promise.all([client.close(), guest.close()]);
  });
});

describe('grouped chats and conversations', () => {
  it('groups conversations per bot with their names, profiles and filters', async () => {
    const guest = await visitor();
    const id = await guest.say('Do you sell umbrellas?');
    await guest.say('Blue ones');
    const grouped = (query = '') =>
      server.get<GroupedChat[]>(`/api/chat/helpdesk/grouped/${tenantOf(owner)}${query}`, as(agent));
    const all = await grouped();
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const group = all.body.find((g) => g.bot_id === bot.bot_id)!;
    expect(group.bot_name).toBe('Front desk');
    const conversation = group.conversations[0]!;
    expect(conversation).toMatchObject({
      conversation_id: id,
      convName: 'Do you sell umbrellas?',
      channel: 'bot',
      unread_count: 2,
      is_helpdesk_in_control: false,
      user_profile: { platform: 'web', userId: guest.identity.visitor_id, source: 'bot' },
    });
    expect(conversation.last_message!.message_type).toBe('bot');

    const found = await grouped('?search=blue%20ONES');
    expect(found.body.flatMap((g) => g.conversations.map((c) => c.conversation_id))).toEqual([id]);
    expect((await grouped('?channel=instagram')).body).toEqual([]);
    await control(agent, id, true);
    const human = await grouped('?holder=human');
    expect(human.body.flatMap((g) => g.conversations.map((c) => c.conversation_id))).toEqual([id]);
    const botHeld = await grouped('?holder=bot');
    expect(botHeld.body.flatMap((g) => g.conversations.map((c) => c.conversation_id))).not.toContain(id);
    await control(agent, id, false);
    expect((await grouped('?limit=1')).body.every((g) => g.conversations.length <= 1)).toBe(true);
    await guest.close();
  });

  it('opens, starts and deletes conversations for agents without Create Bot, announced', async () => {
    const client = await agentSocket(agent);
    const created = await server.post<ConversationWithMessages>(
      '/api/chat/helpdesk/new-chat',
      { bot_id: bot.bot_id },
      as(agent),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name).toBe('New Chat');
    expect(created.body.messages.map((m) => m.message)).toEqual([bot.welcome_message]);
    expect(bot.welcome_message).toMatch(/^Welcome to Acme [0-9a-f]{8}! How can I help you today\?$/);
    const id = created.body.id;
    await expect
      .poll(() => client.frames)
      .toContainEqual({ type: 'conversation', conversation_id: id, bot_id: bot.bot_id });
    await expect.poll(() => client.stored(id).length).toBe(1);

    const opened = await conversationOf(agent, id);
    expect(opened.status).toBe(200);
    expect(opened.body.messages).toHaveLength(1);
    // The console's own chat routes still need Create Bot.
    expect((await server.get(`/api/chat/chats/${id}`, as(agent))).status).toBe(403);

    const grouped = await server.get<GroupedChat[]>(
      `/api/chat/helpdesk/grouped/${tenantOf(owner)}`,
      as(agent),
    );
    expect(grouped.body[0]!.conversations[0]).toMatchObject({ conversation_id: id, convName: 'New Chat' });

    expect((await server.delete(`/api/chat/helpdesk/conversations/${id}`, as(agent))).status).toBe(200);
    await expect
      .poll(() => client.frames)
      .toContainEqual({ type: 'conversation', conversation_id: id, bot_id: bot.bot_id, deleted: true });
    expect((await conversationOf(agent, id)).status).toBe(404);
    await client.close();
  });
});

describe('reconnecting agents', () => {
  it('get every message sent while away once, none missing', async () => {
    const guest = await visitor();
    const id = await guest.say('Before the drop');
    const first = await agentSocket(agent);
    await guest.say('Seen live');
    await expect.poll(() => first.stored(id).length, { timeout: 10_000 }).toBe(2);
    const lastSeen = first.stored(id).at(-1)!.seq;
    await first.close();

    for (const text of ['While away 1', 'While away 2', 'While away 3']) await guest.say(text);
    const again = await agentSocket(agent);
    again.send({ type: 'resume', conversation_id: id, after_seq: lastSeen });
    const total = (await conversationOf(agent, id)).body.last_seq;
    await expect.poll(() => again.stored(id).length, { timeout: 10_000 }).toBe(total - lastSeen);
    const received = again.frames.flatMap((f) =>
      f.final_result_object?.conversation_id === id ? [f.final_result_object.seq] : [],
    );
    expect(received).toEqual(Array.from({ length: total - lastSeen }, (_, i) => lastSeen + 1 + i));
    expect(again.stored(id).filter((m) => m.message.startsWith('While away')).length).toBe(3);
    // Another workspace's conversation cannot be resumed.
    const outsider = await agentSocket(other);
    outsider.send({ type: 'resume', conversation_id: id, after_seq: 0 });
    await expect.poll(() => outsider.frames).toContainEqual({ error: 'Conversation not found' });
    await Promise.all([guest.close(), again.close(), outsider.close()]);
  });
});

describe("another workspace's ids and the Inbox grant", () => {
  it('answer 404 to another workspace on every id-bearing route, changing nothing', async () => {
    const guest = await visitor();
    const id = await guest.say('Private conversation');
    const t = tenantOf(owner);
    const calls: Array<[string, () => Promise<{ status: number }>]> = [
      ['PATCH /chat/conversations/:id/helpdesk-control', () => control(other, id, true)],
      [
        'PATCH with our tenant_id',
        () =>
          server.patch(
            `/api/chat/conversations/${id}/helpdesk-control`,
            { tenant_id: t, is_helpdesk_in_control: true },
            as(other),
          ),
      ],
      [
        'GET /chat/conversations/:id/helpdesk-control-status',
        () =>
          server.get(
            `/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${tenantOf(other)}`,
            as(other),
          ),
      ],
      [
        'GET status with our tenant_id',
        () => server.get(`/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${t}`, as(other)),
      ],
      [
        'POST /chat/conversations/bulk-helpdesk-control-status',
        () =>
          server.post(
            '/api/chat/conversations/bulk-helpdesk-control-status',
            { tenant_id: t, conversation_ids: [id] },
            as(other),
          ),
      ],
      [
        'GET /chat/helpdesk/unread-conversations/:tenantId',
        () => server.get(`/api/chat/helpdesk/unread-conversations/${t}`, as(other)),
      ],
      [
        'POST /chat/helpdesk/mark-conversation-read/:id',
        () => server.post(`/api/chat/helpdesk/mark-conversation-read/${id}`, undefined, as(other)),
      ],
      [
        'GET /chat/helpdesk/grouped/:tenantId',
        () => server.get(`/api/chat/helpdesk/grouped/${t}`, as(other)),
      ],
      ['GET /chat/helpdesk/conversations/:id', () => conversationOf(other, id)],
      [
        'POST /chat/helpdesk/conversations/:id/reply',
        () => server.post(`/api/chat/helpdesk/conversations/${id}/reply`, { message: 'hi' }, as(other)),
      ],
      [
        'DELETE /chat/helpdesk/conversations/:id',
        () => server.delete(`/api/chat/helpdesk/conversations/${id}`, as(other)),
      ],
      [
        'POST /chat/helpdesk/new-chat',
        () => server.post('/api/chat/helpdesk/new-chat', { bot_id: bot.bot_id }, as(other)),
      ],
      [
        'POST /chat/websocket/disconnect',
        () =>
          server.post(
            '/api/chat/websocket/disconnect',
            { user_id: owner.user.id, tenant_id: t, is_admin: true },
            as(other),
          ),
      ],
      [
        'GET /chat/helpdesk/presence/:tenantId',
        () => server.get(`/api/chat/helpdesk/presence/${t}`, as(other)),
      ],
    ];
    for (const [label, call] of calls) expect((await call()).status, label).toBe(404);
    // Bulk status of our own tenant with their id: left out, never shown.
    const bulk = await server.post<HelpdeskControlStatus[]>(
      '/api/chat/conversations/bulk-helpdesk-control-status',
      { tenant_id: tenantOf(other), conversation_ids: [id] },
      as(other),
    );
    expect([bulk.status, bulk.body]).toEqual([200, []]);
    const untouched = await conversationOf(owner, id);
    expect(untouched.body).toMatchObject({ is_helpdesk_in_control: false, unread_count: 1 });
    expect(untouched.body.messages).toHaveLength(3);
    await guest.close();
  });

  it('answer 403 without the Inbox grant (read for reading, write for acting)', async () => {
    const guest = await visitor();
    const id = await guest.say('Who can see me?');
    const t = tenantOf(owner);
    const calls: Array<() => Promise<{ status: number }>> = [
      () => control(member, id, true),
      () => server.get(`/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${t}`, as(member)),
      () =>
        server.post(
          '/api/chat/conversations/bulk-helpdesk-control-status',
          { tenant_id: t, conversation_ids: [id] },
          as(member),
        ),
      () => server.get(`/api/chat/helpdesk/unread-conversations/${t}`, as(member)),
      () => server.post(`/api/chat/helpdesk/mark-conversation-read/${id}`, undefined, as(member)),
      () => server.get(`/api/chat/helpdesk/grouped/${t}`, as(member)),
      () => conversationOf(member, id),
      () => server.post(`/api/chat/helpdesk/conversations/${id}/reply`, { message: 'hi' }, as(member)),
      () => server.delete(`/api/chat/helpdesk/conversations/${id}`, as(member)),
      () => server.post('/api/chat/helpdesk/new-chat', { bot_id: bot.bot_id }, as(member)),
    ];
    for (const call of calls) expect((await call()).status).toBe(403);
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Inbox: { read: true } }),
      readToken,
    );
    expect((await conversationOf(reader, id)).status).toBe(200);
    expect((await control(reader, id, true)).status).toBe(403);
    // Signed-in routes: a member sees their own workspace's presence and may disconnect themselves.
    expect((await server.get(`/api/chat/helpdesk/presence/${t}`, as(member))).status).toBe(200);
    expect(
      (
        await server.post(
          '/api/chat/websocket/disconnect',
          { user_id: member.user.id, tenant_id: t, is_admin: false },
          as(member),
        )
      ).status,
    ).toBe(200);
    await guest.close();
  });
});

describe('an agent gone too long', () => {
  it('hands the conversation back to the bot with a notice, unless the agent is still connected', async () => {
    const away = await startTestServer({ env: { HELPDESK_AWAY_SECONDS: '1', HELPDESK_SWEEP_MS: '200' } });
    try {
      const boss = await signupOwner(away);
      const awayBot = await createBot(away, boss, 'Night desk');
      const guest = await visitor(away, awayBot);
      const id = await guest.say('Anyone?');
      const desk = await agentSocket(boss, away);
      const take = await away.patch<HelpdeskControlStatus>(
        `/api/chat/conversations/${id}/helpdesk-control`,
        { tenant_id: tenantOf(boss), is_helpdesk_in_control: true },
        as(boss),
      );
      expect(take.body.is_helpdesk_in_control).toBe(true);
      // Connected: several sweeps pass and the conversation stays held.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const status = () =>
        away.get<HelpdeskControlStatus>(
          `/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${tenantOf(boss)}`,
          as(boss),
        );
      expect((await status()).body.is_helpdesk_in_control).toBe(true);

      await desk.close();
      await expect
        .poll(async () => (await status()).body.is_helpdesk_in_control, { timeout: 15_000 })
        .toBe(false);
      await expect
        .poll(() => guest.frames.filter((f) => f.type === 'helpdesk_control').at(-1))
        .toMatchObject({ message: HELPDESK_TEXTS.agentAway, content: { is_helpdesk_in_control: false } });
      await expect
        .poll(() => guest.stored().at(-1))
        .toMatchObject({
          message: HELPDESK_TEXTS.agentAway,
          message_type: 'system',
          handoff: { from: 'human', to: 'bot', reason: 'agent_away' },
        });
      await guest.say('Hello again?');
      expect(guest.stored().at(-1)!.message_type).toBe('bot');
      await guest.close();
    } finally {
      await away.close();
    }
  });
});
