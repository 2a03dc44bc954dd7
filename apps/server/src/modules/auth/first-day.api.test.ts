import {
  type AuthResponse,
  type Bot,
  type InviteResponse,
  MESSAGES,
  type PendingInvitation,
  type Role,
  type User,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

/** Issue 31 items 2, 3 and 9 on a server as a fresh install has it: no SMTP configured. */
let server: TestServer;
let owner: Account;
let roles: Role[];
beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  roles = (await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner))).body;
});
afterAll(async () => {
  await server.close();
});

const as = (account: Account) => ({ token: account.access_token });
const unique = () => Math.random().toString(36).slice(2, 8);
const role = (name: string) => roles.find((r) => r.name === name)!;
const readToken = async (email: string) => tokenFromText(await outboxText(server.database, email));
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const signupWith = (email: string, token: string) =>
  server.post<AuthResponse>('/api/auth/signup', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email,
    password: PASSWORD,
    token,
  });
const pending = async (account: Account) =>
  (await server.get<PendingInvitation[]>('/api/auth/invitations', as(account))).body;

describe('invitations without mail (item 3)', () => {
  it('says mail is not set up and hands the inviter the link, which signs the teammate up', async () => {
    const email = `agent-${unique()}@example.com`;
    const invited = await server.post<InviteResponse>(
      '/api/auth/invite-user',
      { email, role_id: role('Agent').id },
      as(owner),
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body.message).toBe(MESSAGES.users.inviteNotMailed);
    expect(invited.body.mailed).toBe(false);
    expect(invited.body.link).toMatch(/\/signup\?token=[\w-]+$/);
    // The pending list shows the same link to whoever may invite.
    const listed = (await pending(owner)).find((i) => i.email === email)!;
    expect(listed.link).toBe(invited.body.link);
    expect(tokenOf(invited.body.link)).toBe(await readToken(email));
    const joined = await signupWith(email, tokenOf(invited.body.link));
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body.user.roles.map((r) => r.name)).toEqual(['Agent']);
    expect((await pending(owner)).find((i) => i.email === email)).toBeUndefined();
  });

  it('resends with a new link shown in the list; the old one stops working', async () => {
    const email = `resend-${unique()}@example.com`;
    const first = await server.post<InviteResponse>(
      '/api/auth/invite-user',
      { email, role_id: role('Viewer').id },
      as(owner),
    );
    const { id } = (await pending(owner)).find((i) => i.email === email)!;
    const again = await server.post<InviteResponse>(`/api/auth/invitations/${id}/resend`, {}, as(owner));
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(MESSAGES.users.inviteNotMailed);
    expect(again.body.link).not.toBe(first.body.link);
    expect((await pending(owner)).find((i) => i.id === id)!.link).toBe(again.body.link);
    expect((await signupWith(email, tokenOf(first.body.link))).status).toBe(400);
  });

  it('shows no links to someone who may read the list but not invite', async () => {
    await server.post(
      '/api/auth/invite-user',
      { email: `quiet-${unique()}@example.com`, role_id: role('Member').id },
      as(owner),
    );
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Roles: { read: true } }),
      readToken,
    );
    const listed = await pending(reader);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((i) => i.link === null)).toBe(true);
  });

  it("answers 404 for another workspace's invitation", async () => {
    const other = await signupOwner(server);
    const { id } = (await pending(owner))[0]!;
    expect((await server.post(`/api/auth/invitations/${id}/resend`, {}, as(other))).status).toBe(404);
  });
});

describe('roles a team can use on day one (item 2)', () => {
  it('lets an Agent work the inbox and read leads, and refuses settings, roles, billing and bot management', async () => {
    const agent = await addTeammate(server, owner, role('Agent'), readToken);
    const tenant = owner.user.tenant_id;
    expect((await server.get(`/api/chat/helpdesk/grouped/${tenant}`, as(agent))).status).toBe(200);
    for (const path of [
      `/api/role/roles/${tenant}`,
      `/api/auth/user/all/${tenant}`,
      '/api/settings/llm/company',
      `/api/chat/bots/user/${agent.user.id}`,
      '/api/shopify/stores',
      '/api/social/instagram/accounts',
    ]) {
      expect((await server.get(path, as(agent))).status, path).toBe(403);
    }
  });

  it('lets an Admin manage the team but neither billing nor the Owner role', async () => {
    const admin = await addTeammate(server, owner, role('Admin'), readToken);
    const tenant = owner.user.tenant_id;
    expect((await server.get(`/api/auth/user/all/${tenant}`, as(admin))).status).toBe(200);
    const invited = await server.post(
      '/api/auth/invite-user',
      { email: `by-admin-${unique()}@example.com`, role_id: role('Agent').id },
      as(admin),
    );
    expect(invited.status).toBe(201);
    const owning = await server.post(
      '/api/auth/invite-user',
      { email: `owner-${unique()}@example.com`, role_id: role('Owner').id },
      as(admin),
    );
    expect(owning.status).toBe(403);
    expect(admin.user.roles[0]!.feature_permissions.map((p) => p.feature_permission.name)).not.toContain(
      'Subscriptions',
    );
  });

  it('shows new bots to a teammate without an "Assign bots" step, until the owner restricts them', async () => {
    const agent = await addTeammate(server, owner, role('Agent'), readToken);
    const bots: Bot[] = [];
    for (const name of ['First_bot', 'Second_bot']) {
      const form = new FormData();
      form.append('bot_name', `${name}_${unique()}`);
      const made = await fetch(`${server.url}/api/chat/bots`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${owner.access_token}` },
      });
      expect(made.status, await made.clone().text()).toBe(201);
      bots.push((await made.json()) as Bot);
    }
    const assignedPath = `/api/auth/bots-assigned/${agent.user.id}/tenant/${owner.user.tenant_id}`;
    const seen = async () => (await server.get<Bot[]>(assignedPath, as(agent))).body.map((b) => b.bot_id);
    expect(await seen()).toEqual(expect.arrayContaining(bots.map((b) => b.bot_id)));
    const me = async () => (await server.get<User>('/api/auth/user', as(agent))).body;
    expect((await me()).all_bots).toBe(true);

    const restrict = await server.put(
      `/api/auth/bots-assigned/${agent.user.id}`,
      { bot_ids: [bots[1]!.bot_id] },
      as(owner),
    );
    expect(restrict.status).toBe(200);
    expect(await seen()).toEqual([bots[1]!.bot_id]);
    expect((await me()).all_bots).toBe(false);

    const every = await server.put(
      `/api/auth/bots-assigned/${agent.user.id}`,
      { bot_ids: [bots[1]!.bot_id], all_bots: true },
      as(owner),
    );
    expect(every.status).toBe(200);
    expect(await seen()).toEqual(expect.arrayContaining(bots.map((b) => b.bot_id)));
    expect((await me()).all_bots).toBe(true);
  });
});

describe('a partner keeps their workspace (item 9)', () => {
  it('is a workspace member and a partner at once', async () => {
    const person = await signupOwner(server);
    const became = await server.post('/api/affiliation/partners/become', {}, as(person));
    expect(became.status).toBe(200);
    const me = (await server.get<User>('/api/auth/user', as(person))).body;
    expect(me).toMatchObject({ user_type: 'user', is_partner: true });
    expect(me.roles.map((r) => r.name)).toEqual(['Owner']);
    expect((await server.get(`/api/role/roles/${me.tenant_id}`, as(person))).status).toBe(200);
    expect((await server.get('/api/affiliation/partners/me', as(person))).status).toBe(200);
    expect((await server.get('/api/affiliation/partners/me', as(owner))).status).toBe(403);
  });
});
