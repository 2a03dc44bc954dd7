import { type Feature, type Role, SESSION_VERSION_HEADER, type User } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

type Frame = { type?: string; version?: string };

let server: TestServer;
let owner: Account;
const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
});
afterAll(() => server.close());

/** The version of the caller a signed-in answer carries (here the top bar's presence poll). */
async function versionSeenBy(account: Account): Promise<string | null> {
  const reply = await server.get(`/api/chat/helpdesk/presence/${account.user.tenant_id}`, as(account));
  expect(reply.status).toBe(200);
  return reply.headers.get(SESSION_VERSION_HEADER);
}

/** Sets the role's grants to exactly these (feature name → flags), as the Roles page saves them. */
async function grant(role: Role, grants: Record<string, { read?: boolean; write?: boolean }>) {
  const features = await server.get<Feature[]>('/api/role/features', as(owner));
  const byName = new Map(features.body.map((f) => [f.name, f.id]));
  const reply = await server.post(
    '/api/role/assign-feature-permissions',
    {
      role_id: role.id,
      feature_permissions: Object.entries(grants).map(([name, g]) => ({
        feature_permission_id: byName.get(name)!,
        can_create: false,
        can_read: g.read ?? false,
        can_write: g.write ?? false,
      })),
    },
    as(owner),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** The agent's help-desk socket, opened as the console opens it. */
async function adminChannel(account: Account) {
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/helpdesk?token=${account.access_token}&tenant_id=${account.user.tenant_id}&user_id=${account.user.id}`,
  );
  const frames: Frame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(raw.toString()) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({
      content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'helpdesk' },
      elements: [],
    }),
  );
  await expect.poll(() => frames.some((f) => f.type === 'connected')).toBe(true);
  return { frames, sessions: () => frames.filter((f) => f.type === 'session'), close: () => socket.close() };
}

describe("the signed-in user's version, so the console follows a role given more", () => {
  it('changes in every signed-in answer when their role gains a grant, and only then', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const agent = await addTeammate(server, owner, role, readToken);
    const me = await server.get<User>('/api/auth/user', as(agent));
    const before = me.headers.get(SESSION_VERSION_HEADER);
    expect(before).toMatch(/^[\w-]{16}$/);
    expect(await versionSeenBy(agent)).toBe(before);

    // Another teammate's role changing is no change of this one.
    const otherRole = await createRole(server, owner, { Inbox: { read: true } });
    await grant(otherRole, { Inbox: { read: true }, Analytics: { read: true } });
    expect(await versionSeenBy(agent)).toBe(before);

    await grant(role, { Inbox: { read: true }, Leads: { read: true } });
    const after = await versionSeenBy(agent);
    expect(after).not.toBe(before);
    const reread = await server.get<User>('/api/auth/user', as(agent));
    expect(reread.headers.get(SESSION_VERSION_HEADER)).toBe(after);
    const leads = reread.body.roles
      .flatMap((r) => r.feature_permissions)
      .find((p) => p.feature_permission.name === 'Leads');
    expect(leads?.can_read).toBe(true);
  });

  it("tells an agent's open help-desk socket at once, with the version their next answer carries", async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const agent = await addTeammate(server, owner, role, readToken);
    const channel = await adminChannel(agent);

    await grant(await createRole(server, owner, {}), { Analytics: { read: true } });
    await grant(role, { Inbox: { read: true }, Leads: { read: true } });
    await expect.poll(() => channel.sessions().length).toBe(1);
    expect(channel.sessions()[0]?.version).toBe(await versionSeenBy(agent));

    // A stronger role (assigned, not granted) is a change too; the socket stays open.
    const manager = await createRole(server, owner, {
      Inbox: { read: true, write: true },
      Analytics: { read: true },
    });
    const assigned = await server.post(
      '/api/role/assign-role',
      { user_id: agent.user.id, role_id: manager.id },
      as(owner),
    );
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    await expect.poll(() => channel.sessions().length).toBe(2);
    expect(channel.sessions()[1]?.version).toBe(await versionSeenBy(agent));
    expect(channel.frames.some((f) => f.type === 'error')).toBe(false);
    channel.close();
  });
});
