import {
  type Bot,
  type ChatMessage,
  type GroupedChat,
  HANDOFF_TEXTS,
  type HandoffEvent,
  type HelpdeskControlStatus,
  type InboxList,
  type NotificationList,
  type UnreadConversations,
  type VisitorIdentity,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * The inbox as a small team lives in it: an agent restricted to some bots sees nothing of the others
 * (lists, search, counts, unread, socket frames, every id-bearing route), is not assigned their
 * conversations, and lets go of what they held once a bot is taken away; a visitor in line when the
 * last agent leaves is told nobody can come, instead of waiting for no one.
 */
type Frame = {
  type?: string;
  bot_id?: number;
  conversation_id?: number;
  final_result_object?: ChatMessage;
};

const as = (account: Account) => ({ token: account.access_token });
const tenantOf = (account: Account) => account.user.tenant_id;

async function open(target: TestServer, path: string) {
  const socket = new WebSocket(`${target.url.replace('http', 'ws')}/api${path}`);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const send = (frame: unknown) => socket.send(JSON.stringify(frame));
  /** Stored messages received, each once (a message may come as the answer and as its announcement). */
  const stored = () => {
    const seen = new Map<string, ChatMessage>();
    for (const { final_result_object: m } of frames) if (m) seen.set(`${m.conversation_id}:${m.seq}`, m);
    return [...seen.values()].sort((a, b) => a.conversation_id - b.conversation_id || a.seq - b.seq);
  };
  return { socket, frames, send, stored, close: () => socket.close() };
}

/** An agent's help-desk socket, introduced: while open, they are online. */
async function desk(target: TestServer, account: Account) {
  const client = await open(
    target,
    `/chat/helpdesk?token=${account.access_token}&tenant_id=${tenantOf(account)}&user_id=${account.user.id}`,
  );
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'helpdesk' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

/** A widget visitor who has said `message` and been answered; their conversation's id. */
async function visitor(target: TestServer, bot: Bot, message: string) {
  const identity = await target.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  const client = await open(target, `/chat/stream?visitor_token=${identity.body.visitor_token}`);
  client.send({ content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' } });
  client.send({
    content: { bot_id: bot.bot_id, conversation_id: 0, message, message_type: 'user' },
    elements: [],
  });
  await expect.poll(() => client.stored().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  const id = client.stored()[0]!.conversation_id;
  const askForPerson = async () => {
    const before = client.stored().length;
    client.send({ type: 'request_human', bot_id: bot.bot_id, conversation_id: id });
    await expect.poll(() => client.stored().length).toBeGreaterThan(before);
    return client.stored().at(-1)!;
  };
  return { ...client, id, askForPerson };
}

describe('an agent restricted to some bots', () => {
  let server: TestServer;
  let owner: Account;
  let agent: Account;
  let mine: Bot;
  let theirs: Bot;
  const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
  const restrictTo = async (bot: Bot) => {
    const put = await server.put(
      `/api/auth/bots-assigned/${agent.user.id}`,
      { bot_ids: [bot.bot_id], all_bots: false },
      as(owner),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { HELPDESK_SWEEP_MS: '150' } });
    owner = await signupOwner(server);
    mine = await createBotViaApi(server, owner, { bot_name: 'Boots' });
    theirs = await createBotViaApi(server, owner, { bot_name: 'Payroll' });
    agent = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Inbox: { read: true, write: true } }),
      readToken,
    );
    await restrictTo(mine);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("never sees another bot's conversations: list, search, counts, unread, grouped, routes, frames", async () => {
    const socket = await desk(server, agent);
    const ownerSocket = await desk(server, owner);
    const ours = await visitor(server, mine, 'zebra boots for my kid');
    const secret = await visitor(server, theirs, 'zebra salary of Bob');
    await expect
      .poll(() => ownerSocket.stored().filter((m) => m.conversation_id === secret.id).length)
      .toBe(3);
    // The owner takes the other bot's conversation over: a control frame the agent must not get.
    const taken = await server.patch(
      `/api/chat/conversations/${secret.id}/helpdesk-control`,
      { tenant_id: tenantOf(owner), is_helpdesk_in_control: true },
      as(owner),
    );
    expect(taken.status).toBe(200);
    await expect
      .poll(() =>
        ownerSocket.frames.some((f) => f.type === 'helpdesk_control' && f.conversation_id === secret.id),
      )
      .toBe(true);
    await expect.poll(() => socket.stored().filter((m) => m.conversation_id === ours.id).length).toBe(3);
    expect(
      socket.frames.filter((f) => f.bot_id === theirs.bot_id || f.conversation_id === secret.id),
    ).toEqual([]);

    const inbox = async (account: Account, query: string) =>
      (await server.get<InboxList>(`/api/chat/helpdesk/inbox/${tenantOf(account)}?${query}`, as(account)))
        .body;
    const found = (list: InboxList) => list.conversations.map((c) => c.conversation_id);
    expect(found(await inbox(owner, 'filter=bot&search=zebra'))).toEqual([ours.id]);
    expect(found(await inbox(owner, 'filter=with_agent&search=zebra'))).toEqual([secret.id]);
    expect(found(await inbox(agent, 'filter=bot&search=zebra'))).toEqual([ours.id]);
    expect(found(await inbox(agent, 'filter=with_agent&search=salary'))).toEqual([]);
    const counts = (await inbox(agent, 'filter=bot')).counts;
    expect(counts.with_agent).toEqual({ total: 0, unread: 0 });
    expect((await inbox(owner, 'filter=bot')).counts.with_agent.total).toBe(1);

    const unread = (
      await server.get<UnreadConversations>(
        `/api/chat/helpdesk/unread-conversations/${tenantOf(agent)}`,
        as(agent),
      )
    ).body;
    expect(unread.conversations.map((c) => c.conversation_id)).toEqual([ours.id]);
    expect(unread.bots.map((b) => b.bot_id)).toEqual([mine.bot_id]);
    expect(unread.total).toBe(1);
    const grouped = (
      await server.get<GroupedChat[]>(`/api/chat/helpdesk/grouped/${tenantOf(agent)}?search=zebra`, as(agent))
    ).body;
    expect(grouped.map((g) => [g.bot_id, g.conversations.map((c) => c.conversation_id)])).toEqual([
      [mine.bot_id, [ours.id]],
    ]);
    const bulk = await server.post<HelpdeskControlStatus[]>(
      '/api/chat/conversations/bulk-helpdesk-control-status',
      { tenant_id: tenantOf(agent), conversation_ids: [ours.id, secret.id] },
      as(agent),
    );
    expect(bulk.body.map((s) => s.conversation_id)).toEqual([ours.id]);

    // Every route naming the other bot's conversation answers 404, as for one that does not exist.
    const t = tenantOf(agent);
    const id = secret.id;
    const calls: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['get', () => server.get(`/api/chat/helpdesk/conversations/${id}`, as(agent))],
      [
        'status',
        () => server.get(`/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${t}`, as(agent)),
      ],
      [
        'take',
        () =>
          server.patch(
            `/api/chat/conversations/${id}/helpdesk-control`,
            { tenant_id: t, is_helpdesk_in_control: true },
            as(agent),
          ),
      ],
      [
        'reply',
        () => server.post(`/api/chat/helpdesk/conversations/${id}/reply`, { message: 'hi' }, as(agent)),
      ],
      ['read', () => server.post(`/api/chat/helpdesk/mark-conversation-read/${id}`, undefined, as(agent))],
      ['notes', () => server.get(`/api/chat/helpdesk/conversations/${id}/notes`, as(agent))],
      ['note', () => server.post(`/api/chat/helpdesk/conversations/${id}/notes`, { body: 'x' }, as(agent))],
      ['events', () => server.get(`/api/chat/helpdesk/conversations/${id}/events`, as(agent))],
      ['close', () => server.post(`/api/chat/helpdesk/conversations/${id}/close`, undefined, as(agent))],
      [
        'assign',
        () => server.put(`/api/chat/helpdesk/conversations/${id}/assignee`, { user_id: null }, as(agent)),
      ],
      ['delete', () => server.delete(`/api/chat/helpdesk/conversations/${id}`, as(agent))],
      ['new chat', () => server.post('/api/chat/helpdesk/new-chat', { bot_id: theirs.bot_id }, as(agent))],
    ];
    for (const [name, call] of calls) {
      const reply = await call();
      expect([name, reply.status], JSON.stringify(reply.body)).toEqual([name, 404]);
    }
    // Nothing changed: the owner still holds it, unread and whole.
    const still = await server.get<HelpdeskControlStatus>(
      `/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${t}`,
      as(owner),
    );
    expect(still.body).toMatchObject({ is_helpdesk_in_control: true, admin_id: owner.user.id });
    // Resuming it over the socket gives nothing either.
    socket.send({ type: 'resume', conversation_id: id, after_seq: 0 });
    await expect.poll(() => socket.frames.some((f) => 'error' in f)).toBe(true);
    expect(socket.stored().some((m) => m.conversation_id === id)).toBe(false);
    await Promise.all([socket.close(), ownerSocket.close(), ours.close(), secret.close()]);
  });

  it("rings the bell for their bots' visitors asking for a person, not for the others'", async () => {
    const socket = await desk(server, agent);
    const ours = await visitor(server, mine, 'Boots question');
    const secret = await visitor(server, theirs, 'Payslip question');
    await secret.askForPerson();
    await ours.askForPerson();
    const bell = async (account: Account) =>
      (await server.get<NotificationList>('/api/notification/list', as(account))).body.notifications
        .filter((n) => n.kind === 'handoff_requested')
        .map((n) => n.link);
    const link = (bot: Bot, id: number) => `/inbox?conversation=${id}&bot=${bot.bot_id}`;
    expect(await bell(agent)).toEqual([link(mine, ours.id)]);
    expect((await bell(owner)).sort()).toEqual([link(mine, ours.id), link(theirs, secret.id)].sort());
    await Promise.all([socket.close(), ours.close(), secret.close()]);
  });

  it("is not assigned another bot's conversation, and lets go of one held once its bot is taken away", async () => {
    const socket = await desk(server, agent);
    const ours = await visitor(server, mine, 'Are these boots waterproof?');
    const other = await visitor(server, theirs, 'When is payday?');
    const assign = (id: number, userId: number | null) =>
      server.put<{ assignee_id: number | null; detail?: string }>(
        `/api/chat/helpdesk/conversations/${id}/assignee`,
        { user_id: userId },
        as(owner),
      );
    expect((await assign(other.id, agent.user.id)).body).toEqual({ detail: HANDOFF_TEXTS.assigneeNoBot });
    expect((await assign(ours.id, agent.user.id)).body.assignee_id).toBe(agent.user.id);

    const take = await server.patch<HelpdeskControlStatus>(
      `/api/chat/conversations/${ours.id}/helpdesk-control`,
      { tenant_id: tenantOf(agent), is_helpdesk_in_control: true },
      as(agent),
    );
    expect(take.body).toMatchObject({ is_helpdesk_in_control: true, admin_id: agent.user.id });
    // Several sweeps pass while the agent is online and works with the bot: still held.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const status = () =>
      server.get<HelpdeskControlStatus>(
        `/api/chat/conversations/${ours.id}/helpdesk-control-status?tenant_id=${tenantOf(owner)}`,
        as(owner),
      );
    expect((await status()).body.is_helpdesk_in_control).toBe(true);

    // The owner moves the agent to the other bot: the visitor is not left with a silent bot.
    await restrictTo(theirs);
    await expect
      .poll(async () => (await status()).body.is_helpdesk_in_control, { timeout: 10_000 })
      .toBe(false);
    const events = await server.get<HandoffEvent[]>(
      `/api/chat/helpdesk/conversations/${ours.id}/events`,
      as(owner),
    );
    expect(events.body.at(-1)).toMatchObject({ from: 'human', to: 'bot', reason: 'agent_away' });
    // The open socket follows the new scope: the other bot's messages now, not the old bot's.
    other.send({
      content: { bot_id: theirs.bot_id, conversation_id: other.id, message: 'Hello?', message_type: 'user' },
      elements: [],
    });
    ours.send({
      content: {
        bot_id: mine.bot_id,
        conversation_id: ours.id,
        message: 'Still there?',
        message_type: 'user',
      },
      elements: [],
    });
    await expect.poll(() => socket.stored().some((m) => m.message === 'Hello?')).toBe(true);
    await expect.poll(() => ours.stored().some((m) => m.message === 'Still there?')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.stored().some((m) => m.message === 'Still there?')).toBe(false);
    await restrictTo(mine);
    await Promise.all([socket.close(), ours.close(), other.close()]);
  });
});

describe('a visitor in line when the last agent leaves', () => {
  it('is told nobody could join and offered the contact form once the agents have been gone a while', async () => {
    const server = await startTestServer({
      env: { HELPDESK_AWAY_SECONDS: '1', HELPDESK_SWEEP_MS: '150', HANDOFF_WAIT_SECONDS: '600' },
    });
    try {
      const owner = await signupOwner(server);
      const bot = await createBotViaApi(server, owner, { bot_name: 'Night desk' });
      // Asked while nobody was online: told so at once, with the form; nothing more to say later.
      const early = await visitor(server, bot, 'Anyone there?');
      expect((await early.askForPerson()).message).toBe(HANDOFF_TEXTS.nobodyOnline);

      const agentDesk = await desk(server, owner);
      const guest = await visitor(server, bot, 'My order never came');
      expect((await guest.askForPerson()).message).toBe(HANDOFF_TEXTS.requested(2));
      // A short blip would be forgiven; gone for good, the visitor hears about it.
      agentDesk.close();
      await expect
        .poll(() => guest.stored().at(-1), { timeout: 10_000 })
        .toMatchObject({
          message_type: 'system',
          message: HANDOFF_TEXTS.noAnswer,
          handoff: { from: 'human_requested', to: 'bot', reason: 'no_agent_answered' },
          actions: [{ type: 'contact_form', title: HANDOFF_TEXTS.leaveContact }],
        });
      const list = await server.get<InboxList>(
        `/api/chat/helpdesk/inbox/${tenantOf(owner)}?filter=needs_human`,
        as(owner),
      );
      // The one told nobody was online still waits (until HANDOFF_WAIT_SECONDS), without a second notice.
      expect(list.body.conversations.map((c) => c.conversation_id)).toEqual([early.id]);
      expect(
        early
          .stored()
          .filter((m) => m.message_type === 'system')
          .map((m) => m.message),
      ).toEqual([HANDOFF_TEXTS.nobodyOnline]);
      await Promise.all([early.close(), guest.close()]);
    } finally {
      await server.close();
    }
  });
});
