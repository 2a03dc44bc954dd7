import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  type Bot,
  type ChatMessage,
  HELPDESK_TEXTS,
  type HelpdeskControlStatus,
  type Presence,
  type VisitorIdentity,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../../test/database.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/**
 * Two API processes on one PostgreSQL server (issue 6 item 7): a visitor on one node and an agent on
 * the other see each other's messages, control changes and presence, both ways. PostgreSQL only:
 * PGlite lives inside one process.
 */
const ON_POSTGRES = testDatabaseKind() === 'postgres';
const FIXTURE = fileURLToPath(new URL('./helpdesk-node.fixture.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

type Frame = {
  type?: string;
  error?: string;
  message?: string;
  agents_online?: boolean;
  conversation_id?: number;
  content?: HelpdeskControlStatus;
  final_result_object?: ChatMessage;
};

let testDb: TestDatabase | undefined;
let nodeA: TestServer | undefined;
let nodeB: { url: string; child: ChildProcess } | undefined;
let owner: Account;
let bot: Bot;

async function openSocket(url: string) {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    stored: (conversationId: number) => {
      const bySeq = new Map<number, ChatMessage>();
      for (const f of frames) {
        const m = f.final_result_object;
        if (m?.conversation_id === conversationId) bySeq.set(m.seq, m);
      }
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    },
    last: (type: string) => frames.filter((f) => f.type === type).at(-1),
    close: async () => {
      socket.close();
      await closed;
    },
  };
}

const ws = (base: string) => base.replace('http', 'ws');

async function agentOn(base: string) {
  const client = await openSocket(
    `${ws(base)}/api/chat/helpdesk?token=${owner.access_token}&tenant_id=${owner.user.tenant_id}&user_id=${owner.user.id}`,
  );
  client.send({
    content: {
      bot_id: 0,
      user_id: owner.user.id,
      tenant_id: owner.user.tenant_id,
      conversation_id: 0,
      message: 'connection',
      message_type: 'helpdesk',
    },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  return client;
}

async function visitorOn(base: string) {
  const identity = (await (
    await fetch(`${base}/api/chat/visitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bot_uuid: bot.uuid }),
    })
  ).json()) as VisitorIdentity;
  const client = await openSocket(`${ws(base)}/api/chat/stream?visitor_token=${identity.visitor_token}`);
  client.send({
    content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
    elements: [],
  });
  await expect.poll(() => client.frames.some((f) => f.type === 'connected')).toBe(true);
  let id = 0;
  const say = async (message: string, expected: number) => {
    client.send({
      content: { bot_id: bot.bot_id, conversation_id: id, message, message_type: 'user' },
      elements: [],
    });
    await expect
      .poll(
        () => (id ? client.stored(id).length : client.frames.filter((f) => f.final_result_object).length),
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThanOrEqual(expected);
    id ||= client.frames.find((f) => f.final_result_object)!.final_result_object!.conversation_id;
    return id;
  };
  return { ...client, say };
}

const call = async <T>(base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${owner.access_token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
};

const control = (base: string, id: number, held: boolean) =>
  call<HelpdeskControlStatus>(base, 'PATCH', `/chat/conversations/${id}/helpdesk-control`, {
    tenant_id: owner.user.tenant_id,
    is_helpdesk_in_control: held,
  });

function startNode(url: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, url], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (data) => {
    stderr += data;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data) => {
      const match = /ready (\S+)/.exec(String(data));
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`node B exited (${code}) before it was ready: ${stderr}`)));
  });
}

beforeAll(async () => {
  if (!ON_POSTGRES) return;
  testDb = await createTestDatabase();
  nodeA = await startTestServer({ database: testDb, role: 'api' });
  nodeB = await startNode(testDb.url!);
  owner = await signupOwner(nodeA);
  const form = new FormData();
  form.append('bot_name', 'Two nodes');
  const created = await fetch(`${nodeA.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${owner.access_token}` },
  });
  bot = (await created.json()) as Bot;
}, 120_000);

afterAll(async () => {
  if (nodeB) {
    const exited = new Promise((resolve) => nodeB!.child.once('exit', resolve));
    nodeB.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (nodeB.child.exitCode === null) nodeB.child.kill('SIGKILL');
  }
  await nodeA?.close({ dropDatabase: false });
  await testDb?.drop();
});

describe('two API processes on one PostgreSQL server', () => {
  it.skipIf(!ON_POSTGRES)(
    'carry messages, control changes and presence from a visitor on one node to an agent on the other, both ways',
    async () => {
      const a = nodeA!.url;
      const b = nodeB!.url;

      // Visitor on A, agent on B.
      const guest = await visitorOn(a);
      const agent = await agentOn(b);
      await expect.poll(() => guest.last('presence')?.agents_online, { timeout: 10_000 }).toBe(true);
      expect(
        (await call<Presence>(a, 'GET', `/chat/helpdesk/presence/${owner.user.tenant_id}`)).body,
      ).toEqual({
        agents_online: true,
        count: 1,
      });
      const id = await guest.say('Hello from node A', 3);
      await expect.poll(() => agent.stored(id).length, { timeout: 10_000 }).toBe(3);

      expect((await control(b, id, true)).status).toBe(200);
      await expect
        .poll(() => guest.last('helpdesk_control')?.message, { timeout: 10_000 })
        .toBe(HELPDESK_TEXTS.agentJoined('Ada Lovelace'));
      agent.send({
        content: {
          bot_id: bot.bot_id,
          conversation_id: id,
          message: 'Agent on node B',
          message_type: 'helpdesk',
        },
        elements: [],
      });
      await expect.poll(() => guest.stored(id).at(-1)?.message, { timeout: 10_000 }).toBe('Agent on node B');
      await guest.say('The bot is quiet now', 6);
      await expect
        .poll(() => agent.stored(id).at(-1)?.message, { timeout: 10_000 })
        .toBe('The bot is quiet now');
      // The agent joining is a stored notice too, in its place.
      expect(guest.stored(id).map((m) => m.message_type)).toEqual([
        'bot',
        'user',
        'bot',
        'system',
        'helpdesk',
        'user',
      ]);

      // Visitor on B, agent on A.
      const guestB = await visitorOn(b);
      const agentA = await agentOn(a);
      const idB = await guestB.say('Hello from node B', 3);
      await expect.poll(() => agentA.stored(idB).length, { timeout: 10_000 }).toBe(3);
      expect((await control(a, idB, true)).status).toBe(200);
      await expect
        .poll(() => guestB.last('helpdesk_control')?.message, { timeout: 10_000 })
        .toBe(HELPDESK_TEXTS.agentJoined('Ada Lovelace'));
      const reply = await call<ChatMessage>(a, 'POST', `/chat/helpdesk/conversations/${idB}/reply`, {
        message: 'Agent on node A',
      });
      expect(reply.status).toBe(201);
      await expect
        .poll(() => guestB.stored(idB).at(-1)?.message, { timeout: 10_000 })
        .toBe('Agent on node A');
      expect((await control(a, idB, false)).status).toBe(200);
      await expect
        .poll(() => guestB.last('helpdesk_control')?.message, { timeout: 10_000 })
        .toBe(HELPDESK_TEXTS.botBack);
      // The agent on B sees the control change made on A.
      await expect
        .poll(() => agent.frames.some((f) => f.type === 'helpdesk_control' && f.conversation_id === idB))
        .toBe(true);

      // Presence crosses too: both agents gone, visitors on both nodes are told.
      await agent.close();
      await agentA.close();
      await expect.poll(() => guest.last('presence')?.agents_online, { timeout: 10_000 }).toBe(false);
      await expect.poll(() => guestB.last('presence')?.agents_online, { timeout: 10_000 }).toBe(false);
      await Promise.all([guest.close(), guestB.close()]);
    },
  );

  it.skipIf(!ON_POSTGRES)(
    "closes a user's sockets on the other node within a second when they sign out (issue 13 item 6)",
    async () => {
      const agent = await agentOn(nodeB!.url);
      const code = new Promise<number>((resolve) => agent.socket.once('close', (c) => resolve(c)));
      const started = Date.now();
      const logout = await fetch(`${nodeA!.url}/api/auth/logout`, {
        method: 'POST',
        headers: { cookie: owner.cookie },
      });
      expect(logout.status).toBe(200);
      expect(await code).toBe(4401);
      expect(Date.now() - started).toBeLessThan(1000);
    },
  );
});
