import {
  type Bot,
  type ChatMessage,
  type ConversationNote,
  type ConversationWithMessages,
  HANDOFF_TEXTS,
  type HandoffEvent,
  HELPDESK_TEXTS,
  type InboxConversation,
  type InboxList,
  type LeadList,
  type NotificationList,
  type VisitorIdentity,
} from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Clock } from '../../core/clock.js';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { leads } from '../bots/bots.schema.js';
import { conversations, messages } from '../chat/chat.schema.js';
import { TEXTS } from '../chat/reply-texts.js';
import { SMALL_TALK_REPLIES } from '../chat/small-talk.js';

type Frame = { type?: string; error?: string; conversation_id?: number; final_result_object?: ChatMessage };

let clockAt = Date.now();
const clock: Clock = { now: () => new Date(clockAt) };
let server: TestServer;
let owner: Account;
let agent: Account;
let rival: Account;
let member: Account;
let other: Account;
let bot: Bot;

const as = (account: Account) => ({ token: account.access_token });
const tenantOf = (account: Account) => account.user.tenant_id;
const ws = (path: string) => `${server.url.replace('http', 'ws')}/api${path}`;

async function open(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const send = (frame: unknown) => socket.send(JSON.stringify(frame));
  /** Stored messages received, each seq once, in order. */
  const stored = () => {
    const bySeq = new Map<number, ChatMessage>();
    for (const frame of frames)
      if (frame.final_result_object) bySeq.set(frame.final_result_object.seq, frame.final_result_object);
    return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  };
  return { socket, frames, send, stored, close: () => socket.close() };
}

/** A widget visitor of `of` (the boot shop unless said) on a shop's page. */
async function visitor(of: Bot = bot) {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: of.uuid });
  const page = encodeURIComponent('https://shop.example/boots?size=42');
  const client = await open(ws(`/chat/stream?visitor_token=${identity.body.visitor_token}&page_url=${page}`));
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  let conversationId = 0;
  const lastSystem = () =>
    client
      .stored()
      .filter((m) => m.message_type === 'system')
      .at(-1);
  return {
    ...client,
    token: identity.body.visitor_token,
    id: () => conversationId,
    /** Sends a message; resolves with what was stored right after it (the answer, or a notice). */
    say: async (message: string) => {
      const lastSeq = client.stored().at(-1)?.seq ?? 0;
      client.send({
        content: { bot_id: of.bot_id, conversation_id: conversationId, message, message_type: 'user' },
        elements: [],
      });
      const sent = () =>
        client.stored().find((m) => m.seq > lastSeq && m.message_type === 'user' && m.message === message);
      const reply = () => client.stored().find((m) => m.seq === (sent()?.seq ?? -2) + 1);
      await expect.poll(reply).toBeDefined();
      conversationId ||= sent()!.conversation_id;
      return reply()!;
    },
    /** The "Talk to a person" button. */
    askForPerson: async () => {
      const before = client.stored().length;
      client.send({ type: 'request_human', bot_id: of.bot_id, conversation_id: conversationId });
      await expect.poll(() => client.stored().length).toBeGreaterThan(before);
      conversationId ||= client.stored()[0]!.conversation_id;
      await expect.poll(() => lastSystem()).toBeDefined();
      return lastSystem()!;
    },
  };
}

/** An agent's help-desk socket: while open, they are online. */
async function online(account: Account) {
  const client = await open(
    ws(
      `/chat/helpdesk?token=${account.access_token}&tenant_id=${tenantOf(account)}&user_id=${account.user.id}`,
    ),
  );
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'helpdesk' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

const inbox = async (account: Account, query = '') => {
  const reply = await server.get<InboxList>(
    `/api/chat/helpdesk/inbox/${tenantOf(account)}?${query}`,
    as(account),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const idsIn = async (filter: string, account = owner) =>
  (await inbox(account, `filter=${filter}`)).conversations.map((c) => c.conversation_id);
const control = (account: Account, id: number, held: boolean) =>
  server.patch(
    `/api/chat/conversations/${id}/helpdesk-control`,
    { tenant_id: tenantOf(account), is_helpdesk_in_control: held },
    as(account),
  );
const events = async (id: number) =>
  (await server.get<HandoffEvent[]>(`/api/chat/helpdesk/conversations/${id}/events`, as(owner))).body.map(
    (e) => `${e.from}>${e.to}:${e.reason}`,
  );
/** The contact form, sent with a visitor token (or as a signed-in user). */
const leaveContact = (id: number, body: Record<string, unknown>, token?: string) =>
  server.post<ChatMessage>(`/api/chat/conversations/${id}/contact`, body, token ? { token } : {});
const ADA = { name: 'Ada Visitor', email: 'ada@example.com', question: 'Do you resole boots?' };
/** Leads stored for a conversation, straight from the database: a refusal must leave none. */
const leadCount = async (id: number) =>
  Number(
    (
      (await server.database.db.execute(
        sql`select count(*)::int as n from leads where conversation_id = ${id}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]!.n,
  );
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);

beforeAll(async () => {
  server = await startTestServer({
    clock,
    env: { HELPDESK_SWEEP_MS: '100', HANDOFF_WAIT_SECONDS: '600', CONVERSATION_IDLE_SECONDS: '86400' },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  bot = await createBotViaApi(server, owner, {
    bot_name: 'Boot shop',
    lead_form_config: JSON.stringify({
      enabled: true,
      title: 'Leave your details',
      show_when: 'no_answer',
      after_messages: 3,
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'email', label: 'Email', type: 'email', required: true },
      ],
    }),
  });
  const inboxRole = await createRole(server, owner, { Inbox: { read: true, write: true } });
  agent = await addTeammate(server, owner, inboxRole, readToken);
  rival = await addTeammate(server, owner, inboxRole, readToken);
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

describe('asking for a person', () => {
  it('takes a "yes please" to the person the bot just offered as the request, and a "no thanks" as declining it', async () => {
    const declines = await visitor();
    const offer = await declines.say('Do you dye boots green?');
    expect(offer.actions).toContainEqual(expect.objectContaining({ type: 'human' }));
    expect(await declines.say('no thanks')).toMatchObject({
      message_type: 'bot',
      answer_mode: 'small_talk',
      message: SMALL_TALK_REPLIES.declined,
    });
    // With no offer just before it, a yes asks for nobody.
    expect(await declines.say('yes')).toMatchObject({ message_type: 'bot' });
    expect(await events(declines.id())).toEqual([]);
    declines.close();

    const takes = await visitor();
    await takes.say('Do you dye boots green?');
    // The bot did not know: the agent reads that as the reason for the request.
    expect(await takes.say('yes please')).toMatchObject({
      message_type: 'system',
      handoff: { from: 'bot', to: 'human_requested', reason: 'low_confidence' },
    });
    expect(await events(takes.id())).toEqual(['bot>human_requested:low_confidence']);
    takes.close();

    // "You can ask…" (nobody online) is not a question: an "ok" only says it was read.
    const reads = await visitor();
    expect((await reads.say('Do you dye boots green?')).message).not.toMatch(/\?$/);
    expect(await reads.say('ok')).toMatchObject({ answer_mode: 'small_talk' });
    expect(await events(reads.id())).toEqual([]);
    reads.close();
    // "Would you like…?" (an agent online) is: the "ok" takes the person.
    const desk = await online(agent);
    const agrees = await visitor();
    expect((await agrees.say('Do you dye boots green?')).message).toMatch(/\?$/);
    expect(await agrees.say('ok')).toMatchObject({
      message_type: 'system',
      handoff: { to: 'human_requested' },
    });
    desk.close();
    agrees.close();
  });

  it('with nobody online: told so honestly, offered the contact form, tied to the conversation; the request waits', async () => {
    const guest = await visitor();
    await guest.say('Do you resole boots?');
    const notice = await guest.say('Can I talk to a human?');
    expect(notice).toMatchObject({
      message_type: 'system',
      message: HANDOFF_TEXTS.nobodyOnline,
      handoff: { from: 'bot', to: 'human_requested', reason: 'low_confidence' },
      actions: [{ type: 'contact_form', title: HANDOFF_TEXTS.leaveContact }],
    });
    const sent = await leaveContact(guest.id(), { ...ADA, visitor_token: guest.token });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({
      message_type: 'system',
      message: HANDOFF_TEXTS.contactLeft('Ada Visitor', 'ada@example.com'),
      answer_mode: 'contact',
      actions: [],
    });
    // The visitor's chat shows the thank-you as it is stored.
    await expect.poll(() => guest.stored().at(-1)?.answer_mode).toBe('contact');

    const waiting = await inbox(owner, 'filter=needs_human');
    const row = waiting.conversations.find((c) => c.conversation_id === guest.id());
    expect(row).toMatchObject({
      handoff_state: 'human_requested',
      visitor_name: 'Ada Visitor',
      visitor_email: 'ada@example.com',
      page_url: 'https://shop.example/boots?size=42',
      channel: 'bot',
      bot_name: 'Boot shop',
      is_test: false,
    });
    expect(Date.parse(row!.contact_left_at!)).toBeGreaterThanOrEqual(Date.parse(row!.human_requested_at!));
    expect(Date.parse(row!.human_requested_at!)).toBeGreaterThanOrEqual(Date.parse(row!.first_seen_at));
    // Kept with the bot's leads, from the contact form.
    const leads = await server.get<LeadList>(`/api/chat/bots/${bot.bot_id}/leads`, as(owner));
    expect(leads.body.items[0]).toMatchObject({
      conversation_id: guest.id(),
      source: 'contact_form',
      fields: ADA,
    });
    // Those who work the inbox are told in the bell (the member without Inbox is not), the owner by mail.
    const bell = await server.get<NotificationList>('/api/notification/list', as(agent));
    expect(bell.body.notifications).toContainEqual(
      expect.objectContaining({
        kind: 'contact_left',
        title: 'Ada Visitor left contact details',
        body: 'ada@example.com · Do you resole boots?',
        link: `/inbox?conversation=${guest.id()}&bot=${bot.bot_id}`,
      }),
    );
    const memberBell = await server.get<NotificationList>('/api/notification/list', as(member));
    expect(memberBell.body.notifications.map((n) => n.kind)).not.toContain('contact_left');
    const mail = await outboxText(server.database, owner.user.email);
    expect(mail).toContain('Question: Do you resole boots?');
    expect(mail).toContain(`/inbox?conversation=${guest.id()}&bot=${bot.bot_id}`);
    expect(waiting.counts.needs_human.total).toBeGreaterThanOrEqual(1);
    // The question before the request is queued for the owner, not the request itself.
    const queued = await server.get<Array<{ question: string }>>(
      `/api/unanswered/bot/${bot.bot_id}`,
      as(owner),
    );
    expect(queued.body.map((g) => g.question)).toContain('Do you resole boots?');
    expect(queued.body.map((g) => g.question)).not.toContain('Can I talk to a human?');
    // Asking again changes nothing and says so.
    expect(await guest.say('human')).toMatchObject({ message: HANDOFF_TEXTS.alreadyWaiting, handoff: null });
    expect(await events(guest.id())).toEqual(['bot>human_requested:low_confidence']);
    guest.close();
  });

  it('with agents online: a place in line; two agents take over at once and one wins; replies, notes and hand-back in order, after a reload too', async () => {
    const desk = await online(agent);
    const first = await visitor();
    const second = await visitor();
    const ahead = (await idsIn('needs_human')).length;
    expect((await first.askForPerson()).message).toBe(HANDOFF_TEXTS.requested(ahead + 1));
    expect((await second.askForPerson()).message).toBe(HANDOFF_TEXTS.requested(ahead + 2));
    const id = first.id();
    expect((await idsIn('needs_human')).slice(-2)).toEqual([id, second.id()]);

    const [a, b] = await Promise.all([control(agent, id, true), control(rival, id, true)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? agent : rival;
    const name = winner === agent ? 'Grace Hopper' : `${rival.user.first_name} ${rival.user.last_name}`;
    expect(await idsIn('with_agent')).toContain(id);
    expect(await idsIn('mine', winner)).toContain(id);
    expect(await idsIn('needs_human')).not.toContain(id);

    const reply = await server.post(
      `/api/chat/helpdesk/conversations/${id}/reply`,
      { message: 'Hi, how can I help?' },
      as(winner),
    );
    expect(reply.status).toBe(201);
    const note = await server.post<ConversationNote>(
      `/api/chat/helpdesk/conversations/${id}/notes`,
      { body: 'Wants a refund; check order 1042 first.' },
      as(winner),
    );
    expect(note.status).toBe(201);
    expect(
      (await server.post(`/api/chat/helpdesk/conversations/${id}/notes`, { body: '  ' }, as(winner))).body,
    ).toEqual({ detail: HANDOFF_TEXTS.noteRequired });
    expect((await control(winner, id, false)).status).toBe(200);

    const steps = (messages: ChatMessage[]) =>
      messages.filter((m) => m.seq > 1).map((m) => `${m.message_type}: ${m.message}`);
    const expected = [
      `system: ${HANDOFF_TEXTS.requested(ahead + 1)}`,
      `system: ${HELPDESK_TEXTS.agentJoined(name)}`,
      'helpdesk: Hi, how can I help?',
      `system: ${HELPDESK_TEXTS.botBack}`,
    ];
    await expect.poll(() => steps(first.stored())).toEqual(expected);
    // A reload: the visitor's widget resumes from the start and gets the same steps, in order.
    const again = await open(ws(`/chat/stream?visitor_token=${first.token}`));
    again.send({ type: 'resume', conversation_id: id, after_seq: 0 });
    await expect.poll(() => steps(again.stored())).toEqual(expected);
    again.close();
    const history = await server.get<ConversationWithMessages>(
      `/api/chat/helpdesk/conversations/${id}`,
      as(owner),
    );
    expect(steps(history.body.messages)).toEqual(expected);
    expect(JSON.stringify(first.frames)).not.toContain('order 1042');
    const notes = await server.get<ConversationNote[]>(
      `/api/chat/helpdesk/conversations/${id}/notes`,
      as(agent),
    );
    expect(notes.body).toEqual([
      expect.objectContaining({ body: 'Wants a refund; check order 1042 first.', author_id: winner.user.id }),
    ]);
    expect(await events(id)).toEqual([
      'bot>human_requested:visitor_asked',
      'human_requested>human:agent_took_over',
      'human>bot:agent_handed_back',
    ]);
    desk.close();
    first.close();
    second.close();
  });
});

describe('closing, reopening and assignment', () => {
  it('closes and reopens by hand, reopens when the visitor writes, and assigns to teammates only', async () => {
    const guest = await visitor();
    await guest.say('Where is my parcel?');
    const id = guest.id();
    const closed = await server.post(`/api/chat/helpdesk/conversations/${id}/close`, undefined, as(agent));
    expect(closed.body).toMatchObject({ id, handoff_state: 'closed' });
    expect(
      (await server.post(`/api/chat/helpdesk/conversations/${id}/close`, undefined, as(agent))).body,
    ).toEqual({ detail: HANDOFF_TEXTS.alreadyClosed });
    expect(await idsIn('closed')).toContain(id);
    await expect.poll(() => guest.stored().at(-1)?.message).toBe(HANDOFF_TEXTS.closed);

    const reopened = await server.post(`/api/chat/helpdesk/conversations/${id}/reopen`, undefined, as(agent));
    expect(reopened.body).toMatchObject({ handoff_state: 'bot' });
    expect(
      (await server.post(`/api/chat/helpdesk/conversations/${id}/reopen`, undefined, as(agent))).body,
    ).toEqual({ detail: HANDOFF_TEXTS.notClosed });
    await server.post(`/api/chat/helpdesk/conversations/${id}/close`, undefined, as(agent));
    // The visitor writes again: open again, and the bot answers.
    // Reopened (a notice), then answered by the bot.
    await guest.say('Hello again?');
    await expect.poll(() => guest.stored().at(-1)?.message_type).toBe('bot');
    expect(await events(id)).toEqual([
      'bot>closed:agent_closed',
      'closed>bot:agent_reopened',
      'bot>closed:agent_closed',
      'closed>bot:visitor_wrote',
    ]);

    const assigned = await server.put<InboxConversation>(
      `/api/chat/helpdesk/conversations/${id}/assignee`,
      { user_id: rival.user.id },
      as(agent),
    );
    expect(assigned.body).toMatchObject({ assignee_id: rival.user.id, assignee_name: expect.any(String) });
    expect(await idsIn('mine', rival)).toContain(id);
    const foreign = await server.put(
      `/api/chat/helpdesk/conversations/${id}/assignee`,
      { user_id: other.user.id },
      as(agent),
    );
    expect([foreign.status, foreign.body]).toEqual([400, { detail: HANDOFF_TEXTS.assigneeNotFound }]);
    const cleared = await server.put<InboxConversation>(
      `/api/chat/helpdesk/conversations/${id}/assignee`,
      { user_id: null },
      as(agent),
    );
    expect(cleared.body.assignee_id).toBeNull();
    guest.close();
  });

  it("the contact form is offered without a lead form, taken only from the conversation's own visitor, and only once offered", async () => {
    const plain = await createBotViaApi(server, owner, { bot_name: 'No form shop' });
    expect(plain.lead_form_config).toBeNull();
    const guest = await visitor(plain);
    await guest.say('Hello');
    const id = guest.id();
    // Not offered yet: refused, nothing stored.
    expect((await leaveContact(id, { ...ADA, visitor_token: guest.token })).body).toEqual({
      detail: HANDOFF_TEXTS.contactNotOffered,
    });
    expect(await guest.askForPerson()).toMatchObject({
      message: HANDOFF_TEXTS.nobodyOnline,
      actions: [{ type: 'contact_form', title: HANDOFF_TEXTS.leaveContact }],
    });
    const stranger = await visitor(plain);
    const refusals = [
      // Another visitor of the same bot, a visitor of another bot, nobody, a signed-in teammate.
      await leaveContact(id, { ...ADA, visitor_token: stranger.token }),
      await leaveContact(id, { ...ADA, visitor_token: (await visitor()).token }),
      await leaveContact(id, ADA),
      await leaveContact(id, ADA, owner.access_token),
      await leaveContact(id, { ...ADA, visitor_token: 'not-a-token' }),
    ];
    expect(refusals.map((r) => [r.status, r.body])).toEqual(
      refusals.map(() => [404, { detail: 'Conversation not found' }]),
    );
    const bad = await leaveContact(id, { ...ADA, email: 'ada at example', visitor_token: guest.token });
    expect([bad.status, bad.body]).toEqual([400, { detail: 'Enter a valid email address' }]);
    const blank = await leaveContact(id, { ...ADA, question: '  ', visitor_token: guest.token });
    expect([blank.status, blank.body]).toEqual([400, { detail: 'Your question is required' }]);
    expect(await leadCount(id)).toBe(0);
    const theirs = await server.get<InboxList>(`/api/chat/helpdesk/inbox/${tenantOf(other)}`, as(other));
    expect(theirs.body.conversations.map((c) => c.conversation_id)).not.toContain(id);

    expect((await leaveContact(id, { ...ADA, visitor_token: guest.token })).status).toBe(201);
    expect(await leadCount(id)).toBe(1);
    // Nobody came in time: the bot is back, and does not ask for the details again.
    clockAt += 11 * 60_000;
    await expect
      .poll(() => guest.stored().at(-1)?.message, { timeout: 10_000 })
      .toBe(HANDOFF_TEXTS.noAnswerContactLeft);
    expect(guest.stored().at(-1)?.actions).toEqual([]);
    clockAt = Date.now();
    guest.close();
    stranger.close();
  });

  it('sends a request nobody took back to the bot with the contact form, and closes idle conversations', async () => {
    const guest = await visitor();
    await guest.say('Hi');
    await guest.askForPerson();
    clockAt += 11 * 60_000;
    await expect.poll(() => guest.stored().at(-1)?.message, { timeout: 10_000 }).toBe(HANDOFF_TEXTS.noAnswer);
    expect(guest.stored().at(-1)).toMatchObject({
      handoff: { from: 'human_requested', to: 'bot', reason: 'no_agent_answered' },
      actions: [{ type: 'contact_form' }],
    });
    clockAt += 25 * 3_600_000;
    await expect
      .poll(() => guest.stored().at(-1)?.message, { timeout: 10_000 })
      .toBe(HANDOFF_TEXTS.closedIdle);
    expect(await events(guest.id())).toEqual([
      'bot>human_requested:visitor_asked',
      'human_requested>bot:no_agent_answered',
      'bot>closed:idle',
    ]);
    clockAt = Date.now();
    guest.close();
  });
});

describe('test chats and the bot unsure of itself', () => {
  it('keeps playground chats out of the inbox, its counts and unread unless asked for', async () => {
    const before = await inbox(owner, 'filter=bot');
    const chat = await server.post<{ conversation_id: number }>(
      '/api/chat/chats',
      { bot_id: bot.bot_id, message: 'Testing my bot' },
      as(owner),
    );
    const id = chat.body.conversation_id;
    const after = await inbox(owner, 'filter=bot');
    expect(after.conversations.map((c) => c.conversation_id)).not.toContain(id);
    // Not counted (other tests' conversations may close meanwhile: the count never grows).
    expect(after.counts.bot.total).toBeLessThanOrEqual(before.counts.bot.total);
    expect(after.counts.bot.unread).toBeLessThanOrEqual(before.counts.bot.unread);
    const shown = await inbox(owner, 'filter=bot&include_tests=true');
    expect(shown.conversations.find((c) => c.conversation_id === id)).toMatchObject({
      is_test: true,
      unread_count: 0,
    });
    // The playground's own "Talk to a person".
    const asked = await server.post<ChatMessage>(`/api/chat/chats/${id}/request-human`, undefined, as(owner));
    expect(asked.body).toMatchObject({ message_type: 'system', handoff: { to: 'human_requested' } });
    expect(await idsIn('needs_human')).not.toContain(id);
    // Nobody online here either: the owner tries the contact form with their session; a teammate
    // cannot send it for them, and a test chat rings no bell.
    expect(asked.body.actions).toEqual([{ type: 'contact_form', title: HANDOFF_TEXTS.leaveContact }]);
    expect((await leaveContact(id, ADA, agent.access_token)).status).toBe(404);
    const sent = await leaveContact(id, ADA, owner.access_token);
    expect([sent.status, sent.body.answer_mode]).toEqual([201, 'contact']);
    const bell = await server.get<NotificationList>('/api/notification/list', as(owner));
    expect(bell.body.notifications.filter((n) => n.link?.includes(`conversation=${id}&`))).toEqual([]);
  });

  it('offers a person instead of guessing when the sources cover too little of the question', async () => {
    const unsure = await createBotViaApi(server, owner, { bot_name: 'Unsure', handoff_confidence: '0.9' });
    await server.post(
      '/api/qna/',
      { bot_id: unsure.bot_id, question: 'Opening hours?', answer: 'Nine to five.' },
      as(owner),
    );
    const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: unsure.uuid });
    const client = await open(ws(`/chat/stream?visitor_token=${identity.body.visitor_token}`));
    const ask = (message: string) =>
      client.send({
        content: { bot_id: unsure.bot_id, conversation_id: 0, message, message_type: 'user' },
        elements: [],
      });
    // Trained on save; wait until the pair's passage is searchable, then ask around it.
    await expect
      .poll(
        async () =>
          (
            await server.post<{ hits: unknown[] }>(
              `/api/knowledge/search/${unsure.bot_id}`,
              { query: 'opening hours' },
              as(owner),
            )
          ).body.hits.length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    ask('Are your opening hours different on public holidays in August?');
    await expect
      .poll(() => client.stored().find((m) => m.message_type === 'bot' && m.seq > 1))
      .toMatchObject({
        message: TEXTS.notFound + TEXTS.offerHumanLater,
        actions: [{ type: 'human', title: HANDOFF_TEXTS.button }],
      });
    // Recorded once the answer is out (the visitor never waits for it).
    await expect
      .poll(async () => {
        const queued = await server.get<Array<{ question: string }>>(
          `/api/unanswered/bot/${unsure.bot_id}`,
          as(owner),
        );
        return queued.body.map((g) => g.question);
      })
      .toEqual(['Are your opening hours different on public holidays in August?']);
    client.close();
  });
});

describe("another workspace's ids and the Inbox grant", () => {
  it('answer 404 to another workspace and 403 without Inbox on every hand-off route, changing nothing', async () => {
    const guest = await visitor();
    await guest.say('Hello');
    const id = guest.id();
    const calls = (account: Account) => [
      server.get(`/api/chat/helpdesk/inbox/${tenantOf(owner)}`, as(account)),
      server.post(`/api/chat/helpdesk/conversations/${id}/close`, undefined, as(account)),
      server.post(`/api/chat/helpdesk/conversations/${id}/reopen`, undefined, as(account)),
      server.put(`/api/chat/helpdesk/conversations/${id}/assignee`, { user_id: null }, as(account)),
      server.get(`/api/chat/helpdesk/conversations/${id}/notes`, as(account)),
      server.post(`/api/chat/helpdesk/conversations/${id}/notes`, { body: 'x' }, as(account)),
      server.get(`/api/chat/helpdesk/conversations/${id}/events`, as(account)),
      server.post(`/api/chat/chats/${id}/request-human`, undefined, as(account)),
    ];
    expect((await Promise.all(calls(other))).map((r) => r.status)).toEqual([
      404, 404, 404, 404, 404, 404, 404, 404,
    ]);
    expect((await Promise.all(calls(member))).map((r) => r.status)).toEqual([
      403, 403, 403, 403, 403, 403, 403, 403,
    ]);
    expect(await events(id)).toEqual([]);
    expect(
      (await server.get<ConversationNote[]>(`/api/chat/helpdesk/conversations/${id}/notes`, as(owner))).body,
    ).toEqual([]);
    guest.close();
  });
});

describe('the inbox list', () => {
  it('shows each conversation with its bot, visitor, last message (as the schema shows it), contact and assignee, and counts', async () => {
    const team = await signupOwner(server);
    const shelf = await createBotViaApi(server, team, { bot_name: 'Shelf' });
    const db = server.database.db;
    // Steps of 10 s up to the test clock's now, within HANDOFF_WAIT_SECONDS: no sweep moves them.
    const at = (step: number) => new Date(Math.floor(clockAt / 1000) * 1000 - (40 - step) * 10_000 + 123);
    const base = { tenantId: tenantOf(team), botId: shelf.bot_id };
    const [waiting, earlier, test] = await db
      .insert(conversations)
      .values([
        {
          ...base,
          visitorId: 'ig-1',
          channel: 'instagram',
          userProfile: { name: 'Insta Ida', email: 'ida@insta.example' },
          handoffState: 'human_requested' as const,
          humanRequestedAt: at(20),
          assigneeId: team.user.id,
          unreadCount: 2,
          lastSeq: 2,
          lastMessageAt: at(21),
          createdAt: at(10),
        },
        {
          ...base,
          visitorId: 'web-1',
          pageUrl: 'https://shop.example/',
          handoffState: 'human_requested' as const,
          humanRequestedAt: at(5),
          lastMessageAt: at(6),
          createdAt: at(4),
        },
        { ...base, userId: team.user.id, isTest: true, lastMessageAt: at(30), createdAt: at(30) },
      ])
      .returning();
    const scored = [
      { source_type: 'web', page_number: null, page_url: 'https://x.example', page_title: 'X', score: 0.9 },
    ];
    const [answer] = await db
      .insert(messages)
      .values([
        {
          ...base,
          conversationId: waiting!.id,
          seq: 1,
          messageType: 'user',
          message: 'Is the blue shelf back?',
        },
        {
          ...base,
          conversationId: waiting!.id,
          seq: 2,
          messageType: 'bot',
          message: 'Not yet; a person will check.',
          // Stored with more than the schema shows: the score, the wamid and an action's extra field.
          sources: scored,
          metadata: {
            answer_mode: 'llm',
            actions: [{ type: 'human', title: 'Talk to a person', extra: 1 }],
            delivery: { status: 'sent', error: null, wamid: 'w-1', parts_sent: 1 },
          },
          promptTokens: 10,
          createdAt: at(21),
        },
      ])
      .returning()
      .then((rows) => rows.slice(1));
    const [, contact] = await db
      .insert(leads)
      .values([
        {
          ...base,
          conversationId: waiting!.id,
          name: 'Old name',
          email: 'old@example.com',
          createdAt: at(11),
        },
        {
          ...base,
          conversationId: waiting!.id,
          name: '',
          email: 'new@example.com',
          source: 'contact_form' as const,
          createdAt: at(12),
        },
      ])
      .returning();

    const list = await inbox(team);
    expect(list.conversations.map((c) => c.conversation_id)).toEqual([earlier!.id, waiting!.id]);
    expect(list.conversations[1]).toEqual({
      conversation_id: waiting!.id,
      bot_id: shelf.bot_id,
      bot_name: 'Shelf',
      channel: 'instagram',
      handoff_state: 'human_requested',
      visitor_name: 'Insta Ida',
      visitor_email: 'new@example.com',
      page_url: null,
      is_test: false,
      first_seen_at: at(10).toISOString(),
      last_message_at: at(21).toISOString(),
      last_message: {
        id: answer!.id,
        chat_id: answer!.id,
        conversation_id: waiting!.id,
        bot_id: shelf.bot_id,
        seq: 2,
        message: 'Not yet; a person will check.',
        message_type: 'bot',
        message_source: 'bot',
        sender_id: null,
        recipient_id: null,
        user_id: null,
        timestamp: at(21).toISOString(),
        sources: [{ source_type: 'web', page_number: null, page_url: 'https://x.example', page_title: 'X' }],
        qna_id: null,
        attachments: [],
        answer_mode: 'llm',
        actions: [{ type: 'human', title: 'Talk to a person' }],
        handoff: null,
        delivery: { status: 'sent', error: null },
        usage: { prompt_tokens: 10, completion_tokens: 0 },
      },
      human_requested_at: at(20).toISOString(),
      contact_left_at: contact!.createdAt.toISOString(),
      closed_at: null,
      admin_id: null,
      admin_name: null,
      assignee_id: team.user.id,
      assignee_name: 'Ada Lovelace',
      unread_count: 2,
    } satisfies InboxConversation);
    expect(list.conversations[0]).toMatchObject({
      visitor_name: null,
      visitor_email: null,
      page_url: 'https://shop.example/',
      last_message: null,
      contact_left_at: null,
      assignee_name: null,
    });
    expect(list.counts).toEqual({
      needs_human: { total: 2, unread: 1 },
      mine: { total: 1, unread: 1 },
      with_agent: { total: 0, unread: 0 },
      bot: { total: 0, unread: 0 },
      closed: { total: 0, unread: 0 },
    });
    const tests = await inbox(team, 'filter=bot&include_tests=true');
    expect(tests.conversations).toEqual([
      expect.objectContaining({ conversation_id: test!.id, is_test: true, visitor_name: 'Ada Lovelace' }),
    ]);
    expect(tests.counts.bot).toEqual({ total: 1, unread: 0 });
    const found = await inbox(team, 'search=blue%20shelf');
    expect(found.conversations.map((c) => c.conversation_id)).toEqual([waiting!.id]);
    expect(found.counts.needs_human.total).toBe(2);
    expect((await inbox(team, `bot_id=${bot.bot_id}`)).conversations).toEqual([]);
  });
});
