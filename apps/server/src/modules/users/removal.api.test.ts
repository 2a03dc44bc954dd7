import {
  type Bot,
  type ChatMessage,
  HELPDESK_TEXTS,
  type HelpdeskControlStatus,
  type VisitorIdentity,
} from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * Removing a teammate who holds conversations in the inbox: they lose the inbox at once (their
 * socket closes) and what they held goes back to the bot, or its visitors would wait for an answer
 * that no one can give any more (the bot stays silent while a person holds a conversation).
 */
type Frame = { type?: string; message?: string; final_result_object?: ChatMessage };

let server: TestServer;
let owner: Account;
let bot: Bot;
const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const wsUrl = (path: string) => `${server.url.replace('http', 'ws')}/api${path}`;

async function open(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const send = (frame: unknown) => socket.send(JSON.stringify(frame));
  const stored = () => frames.flatMap((f) => (f.final_result_object ? [f.final_result_object] : []));
  return { socket, frames, closed, send, stored };
}

/** A widget visitor who has said something (welcome, their message and the bot's answer stored). */
async function visitorConversation() {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: bot.uuid });
  const guest = await open(wsUrl(`/chat/stream?visitor_token=${identity.body.visitor_token}`));
  guest.send({ content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' } });
  const say = (conversationId: number, message: string) =>
    guest.send({
      content: { bot_id: bot.bot_id, conversation_id: conversationId, message, message_type: 'user' },
      elements: [],
    });
  say(0, 'I need a person');
  await expect.poll(() => guest.stored().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  return { guest, id: guest.stored()[0]!.conversation_id, say };
}

async function agentSocket(agent: Account) {
  const { tenant_id } = agent.user;
  const client = await open(
    wsUrl(`/chat/helpdesk?token=${agent.access_token}&tenant_id=${tenant_id}&user_id=${agent.user.id}`),
  );
  client.send({
    content: {
      bot_id: 0,
      user_id: agent.user.id,
      tenant_id,
      conversation_id: 0,
      message: 'connection',
      message_type: 'helpdesk',
    },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

const status = (id: number) =>
  server.get<HelpdeskControlStatus>(
    `/api/chat/conversations/${id}/helpdesk-control-status?tenant_id=${owner.user.tenant_id}`,
    as(owner),
  );
const take = (agent: Account, id: number) =>
  server.patch<HelpdeskControlStatus>(
    `/api/chat/conversations/${id}/helpdesk-control`,
    { tenant_id: agent.user.tenant_id, is_helpdesk_in_control: true },
    as(agent),
  );

beforeAll(async () => {
  // The away sweep runs often; agents count as away only after the default two minutes.
  server = await startTestServer({ env: { HELPDESK_SWEEP_MS: '200' } });
  owner = await signupOwner(server);
  const form = new FormData();
  form.append('bot_name', 'Front desk');
  const created = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${owner.access_token}` },
  });
  bot = (await created.json()) as Bot;
});
afterAll(() => server.close());

it("closes a removed agent's inbox socket and hands what they held back to the bot, which answers again", async () => {
  const inbox = await createRole(server, owner, { Inbox: { read: true, write: true } });
  const leaving = await addTeammate(server, owner, inbox, readToken);
  const staying = await addTeammate(server, owner, inbox, readToken);
  const desk = await agentSocket(leaving);
  const staysDesk = await agentSocket(staying);
  const held = await visitorConversation();
  const kept = await visitorConversation();
  expect((await take(leaving, held.id)).body.is_helpdesk_in_control).toBe(true);
  expect((await take(staying, kept.id)).body.is_helpdesk_in_control).toBe(true);

  const removed = await server.delete(`/api/auth/user/${leaving.user.id}`, as(owner));
  expect(removed.status).toBe(200);
  expect(await desk.closed).toBe(4401);

  await expect
    .poll(async () => (await status(held.id)).body, { timeout: 10_000 })
    .toEqual({ conversation_id: held.id, is_helpdesk_in_control: false, admin_id: null, admin_name: null });
  await expect
    .poll(() => held.guest.frames.filter((f) => f.type === 'helpdesk_control').at(-1)?.message)
    .toBe(HELPDESK_TEXTS.agentAway);
  const before = held.guest.stored().length;
  held.say(held.id, 'Hello again?');
  await expect
    .poll(
      () =>
        held.guest
          .stored()
          .slice(before)
          .map((m) => m.message_type),
      { timeout: 15_000 },
    )
    .toContain('bot');

  // A conversation held by a teammate who stays is left with them, however many sweeps pass.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect((await status(kept.id)).body).toMatchObject({
    is_helpdesk_in_control: true,
    admin_id: staying.user.id,
  });
  expect(staysDesk.socket.readyState).toBe(WebSocket.OPEN);
  for (const client of [held.guest, kept.guest, staysDesk]) client.socket.close();
});
