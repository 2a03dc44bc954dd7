import {
  type AuthResponse,
  MESSAGES,
  type PendingInvitation,
  type Role,
  type Teammate,
  type User,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, refreshCookie, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let owner: Account;
let member: Role;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });
const usersPath = () => `/api/auth/user/all/${owner.user.tenant_id}`;

const listUsers = async (account: Account = owner) => {
  const reply = await server.get<User[]>(`/api/auth/user/all/${account.user.tenant_id}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const currentUser = async (account: Account) => {
  const reply = await server.get<User>('/api/auth/user', as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const login = (username: string, password: string) =>
  server.post<AuthResponse>('/api/auth/login', { username, password });
const unique = () => Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
  const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
  member = roles.body.find((r) => r.name === 'Member')!;
});
afterAll(async () => {
  await server?.close();
});

describe('listing users', () => {
  it('lists the users of the workspace with their roles, and no one else', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const stranger = await signupOwner(server);
    const users = await listUsers();
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([owner.user.id, teammate.user.id]));
    expect(users.map((u) => u.id)).not.toContain(stranger.user.id);
    for (const user of users) expect(user.tenant_id).toBe(owner.user.tenant_id);

    const listedOwner = users.find((u) => u.id === owner.user.id)!;
    expect(listedOwner).toMatchObject({
      email: owner.user.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      user_type: 'user',
      tenant_name: owner.user.tenant_name,
    });
    expect(listedOwner.roles.map((r) => [r.name, r.is_owner])).toEqual([['Owner', true]]);
    const listedTeammate = users.find((u) => u.id === teammate.user.id)!;
    expect(listedTeammate.roles).toEqual([member]);
    expect(listedTeammate.email_verified).toBe(true);
    // Nothing secret leaves the server.
    for (const user of users) {
      expect(Object.keys(user).sort()).toEqual(
        [
          'all_bots',
          'created_at',
          'email',
          'email_verified',
          'is_partner',
          'first_name',
          'id',
          'last_name',
          'roles',
          'tenant_id',
          'tenant_name',
          'user_type',
          'username',
        ].sort(),
      );
    }
  });

  it('needs read on Roles: a Member gets 403', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const reply = await server.get(usersPath(), as(teammate));
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
  });
});

describe('teammates for the inbox', () => {
  it('lists names and emails to someone who reads the Inbox without Roles; another workspace is 404', async () => {
    const agentRole = await createRole(server, owner, { Inbox: { read: true, write: true } });
    const agent = await addTeammate(server, owner, agentRole, readToken);
    const stranger = await signupOwner(server);
    const path = (tenantId: number) => `/api/auth/user/teammates/${tenantId}`;

    expect((await server.get(usersPath(), as(agent))).status).toBe(403);
    const reply = await server.get<Teammate[]>(path(owner.user.tenant_id), as(agent));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const ids = reply.body.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([owner.user.id, agent.user.id]));
    expect(ids).not.toContain(stranger.user.id);
    for (const teammate of reply.body)
      expect(Object.keys(teammate).sort()).toEqual(['email', 'first_name', 'id', 'last_name']);

    expect((await server.get(path(stranger.user.tenant_id), as(agent))).status).toBe(404);
    const noInbox = await addTeammate(server, owner, await createRole(server, owner, {}), readToken);
    expect((await server.get(path(owner.user.tenant_id), as(noInbox))).status).toBe(403);
  });
});

describe('profiles', () => {
  it('lets anyone edit their own profile (200 with the user) and sees it on the next request', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const username = `grace_${unique()}`;
    const reply = await server.put<User>(
      `/api/auth/user/profile/${teammate.user.id}`,
      { first_name: ' Grace B. ', last_name: 'Hopper-Murray', username },
      as(teammate),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      id: teammate.user.id,
      first_name: 'Grace B.',
      last_name: 'Hopper-Murray',
      username,
      email: teammate.user.email,
    });
    expect(reply.body.roles.map((r) => r.id)).toEqual([member.id]);
    expect(await currentUser(teammate)).toMatchObject({ first_name: 'Grace B.', username });
    expect((await listUsers()).find((u) => u.id === teammate.user.id)).toMatchObject({
      last_name: 'Hopper-Murray',
    });
    // The new username signs in.
    expect((await login(username, PASSWORD)).status).toBe(200);

    // Only the given fields change.
    const partial = await server.put<User>(
      `/api/auth/user/profile/${teammate.user.id}`,
      { last_name: 'Hopper' },
      as(teammate),
    );
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ first_name: 'Grace B.', last_name: 'Hopper', username });
    expect(MESSAGES.users.profileUpdated).toBe('Profile updated successfully');
  });

  it("refuses a teammate's profile without write on Roles (403), and allows it with", async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const before = await currentUser(owner);
    const refused = await server.put(
      `/api/auth/user/profile/${owner.user.id}`,
      { first_name: 'Mallory' },
      as(teammate),
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: MESSAGES.auth.forbidden });
    expect(await currentUser(owner)).toEqual(before);

    // Read on Roles is not enough.
    const readerRole = await createRole(server, owner, { Roles: { read: true } });
    const reader = await addTeammate(server, owner, readerRole, readToken);
    const stillRefused = await server.put(
      `/api/auth/user/profile/${teammate.user.id}`,
      { first_name: 'Mallory' },
      as(reader),
    );
    expect(stillRefused.status).toBe(403);
    expect((await currentUser(teammate)).first_name).toBe('Grace');

    const edited = await server.put<User>(
      `/api/auth/user/profile/${teammate.user.id}`,
      { first_name: 'Amazing' },
      as(owner),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ id: teammate.user.id, first_name: 'Amazing' });
    expect((await currentUser(teammate)).first_name).toBe('Amazing');
  });

  it('refuses a username someone else has (409, any case, any workspace) and keeps both', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const stranger = await signupOwner(server);
    const before = await currentUser(teammate);
    for (const username of [owner.user.username, owner.user.username.toUpperCase(), stranger.user.username]) {
      const reply = await server.put(
        `/api/auth/user/profile/${teammate.user.id}`,
        { username, first_name: 'X' },
        as(teammate),
      );
      expect(reply.status, username).toBe(409);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.usernameTaken });
    }
    expect(await currentUser(teammate)).toEqual(before);
    // Keeping one's own username (in another case) is not a conflict.
    const own = await server.put<User>(
      `/api/auth/user/profile/${teammate.user.id}`,
      { username: teammate.user.username.toUpperCase() },
      as(teammate),
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it('refuses an empty or invalid profile (400) and an unknown user (404)', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const before = await currentUser(teammate);
    const cases: Array<[unknown, string]> = [
      [{}, 'Nothing to update'],
      [{ first_name: '  ' }, 'First name is required'],
      [{ username: 'ab' }, 'Username must be at least 3 characters'],
      [{ username: 'has space' }, 'Username may hold only letters, digits, dots, dashes and underscores'],
    ];
    for (const [body, detail] of cases) {
      const reply = await server.put(`/api/auth/user/profile/${teammate.user.id}`, body, as(teammate));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ detail });
    }
    expect(await currentUser(teammate)).toEqual(before);
    const unknown = await server.put('/api/auth/user/profile/99999999', { first_name: 'Nobody' }, as(owner));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'User not found' });
  });
});

describe('passwords', () => {
  it('refuses a wrong current password (400) and leaves the password as it was', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const reply = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: 'not the password', new_password: 'a brand new secret' },
      as(teammate),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: 'Current password is incorrect' });
    expect((await login(teammate.user.email, PASSWORD)).status).toBe(200);
    expect((await login(teammate.user.email, 'a brand new secret')).status).toBe(401);
  });

  it("refuses another user's password (403), even for the owner", async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const reply = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: PASSWORD, new_password: 'taken over by owner' },
      as(owner),
    );
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: MESSAGES.auth.ownPasswordOnly });
    const upward = await server.put(
      `/api/auth/user/password/${owner.user.id}`,
      { current_password: PASSWORD, new_password: 'taken over by member' },
      as(teammate),
    );
    expect(upward.status).toBe(403);
    expect(upward.body).toEqual({ detail: MESSAGES.auth.ownPasswordOnly });
    expect((await login(teammate.user.email, PASSWORD)).status).toBe(200);
    expect((await login(owner.user.email, PASSWORD)).status).toBe(200);
  });

  it('refuses a too short new password (400)', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const reply = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: PASSWORD, new_password: 'short' },
      as(teammate),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: 'Password must be at least 8 characters' });
    const missing = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { new_password: 'long enough pw' },
      as(teammate),
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ detail: 'Current password is required' });
    expect((await login(teammate.user.email, PASSWORD)).status).toBe(200);
  });

  it('changes the password: the old one fails, the new one works, earlier refresh tokens are revoked', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const otherDevice = await login(teammate.user.email, PASSWORD);
    expect(otherDevice.status).toBe(200);
    const otherCookie = refreshCookie(otherDevice.headers)!;

    const newPassword = 'a much better passphrase';
    const reply = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: PASSWORD, new_password: newPassword },
      as(teammate),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ message: 'Password changed successfully' });
    // The device that changed it keeps its session through a fresh refresh cookie.
    const keptCookie = refreshCookie(reply.headers)!;
    expect(keptCookie).toBeTruthy();
    expect(keptCookie).not.toBe(teammate.cookie);
    expect((await server.post('/api/auth/refresh', undefined, { cookie: keptCookie })).status).toBe(200);

    const old = await login(teammate.user.email, PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ detail: MESSAGES.auth.invalidCredentials });
    const fresh = await login(teammate.user.username, newPassword);
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.id).toBe(teammate.user.id);

    for (const cookie of [teammate.cookie, otherCookie]) {
      const refreshed = await server.post('/api/auth/refresh', undefined, { cookie });
      expect(refreshed.status).toBe(401);
      expect(refreshed.body).toEqual({ detail: MESSAGES.auth.sessionExpired });
    }
    // The session started after the change still refreshes.
    const renewed = await server.post<AuthResponse>('/api/auth/refresh', undefined, {
      cookie: refreshCookie(fresh.headers)!,
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
  });
});

describe('removing users', () => {
  it('removes a teammate: gone from the list, their token and refresh cookie refused', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    await currentUser(teammate); // their session is known (and cached) before the removal
    const reply = await server.delete(`/api/auth/user/${teammate.user.id}`, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ message: MESSAGES.users.deleted });

    expect((await listUsers()).map((u) => u.id)).not.toContain(teammate.user.id);
    const me = await server.get('/api/auth/user', as(teammate));
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ detail: MESSAGES.auth.notAuthenticated });
    expect((await server.post('/api/auth/refresh', undefined, { cookie: teammate.cookie })).status).toBe(401);
    expect((await login(teammate.user.email, PASSWORD)).status).toBe(401);

    const again = await server.delete(`/api/auth/user/${teammate.user.id}`, as(owner));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'User not found' });
  });

  it("withdraws the invitations a removed teammate sent that nobody accepted, and says so; others' stay", async () => {
    // Member reads Home and Profile: a manager may invite with it only holding those too.
    const managerRole = await createRole(server, owner, {
      Roles: { create: true, read: true },
      Profile: { read: true },
    });
    const manager = await addTeammate(server, owner, managerRole, readToken);
    const joined = await addTeammate(server, manager, member, readToken);
    const theirs = `pending-theirs-${unique()}@example.com`;
    const alsoTheirs = `pending-also-${unique()}@example.com`;
    const vouched = `pending-vouched-${unique()}@example.com`;
    const ours = `pending-ours-${unique()}@example.com`;
    for (const [email, by] of [
      [theirs, manager],
      [alsoTheirs, manager],
      [vouched, manager],
      [ours, owner],
    ] as const) {
      const invited = await server.post('/api/auth/invite-user', { email, role_id: member.id }, as(by));
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    }
    const theirToken = await readToken(theirs);
    // The owner resends one of the manager's: from then on it is the owner's invitation.
    const listed = await server.get<PendingInvitation[]>('/api/auth/invitations', as(owner));
    const toVouch = listed.body.find((i) => i.email === vouched)!;
    expect((await server.post(`/api/auth/invitations/${toVouch.id}/resend`, {}, as(owner))).status).toBe(200);

    const reply = await server.delete(`/api/auth/user/${manager.user.id}`, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({
      message: `${MESSAGES.users.deleted}. ${MESSAGES.users.invitationsWithdrawn(2)}`,
    });
    // Whoever they brought in earlier stays; their open links no longer sign anyone up.
    expect((await listUsers()).map((u) => u.id)).toContain(joined.user.id);
    const lookup = await server.get(`/api/auth/invited-user/${theirToken}`);
    expect([lookup.status, lookup.body]).toEqual([404, { detail: MESSAGES.auth.invitationInvalid }]);
    const signup = await server.post('/api/auth/signup', {
      first_name: 'Late',
      last_name: 'Friend',
      email: theirs,
      password: PASSWORD,
      token: theirToken,
    });
    expect([signup.status, signup.body]).toEqual([400, { detail: MESSAGES.auth.invitationInvalid }]);
    const pending = await server.get<PendingInvitation[]>('/api/auth/invitations', as(owner));
    const emails = pending.body.map((i) => i.email);
    expect(emails).toEqual(expect.arrayContaining([ours, vouched]));
    expect(emails).not.toContain(theirs);
    expect(emails).not.toContain(alsoTheirs);
    expect(pending.body.find((i) => i.email === vouched)?.invited_by).toBe('Ada Lovelace');
    expect((await server.get(`/api/auth/invited-user/${await readToken(ours)}`)).status).toBe(200);

    // Someone who invited nobody leaves with the plain message.
    const quiet = await addTeammate(server, owner, member, readToken);
    const plain = await server.delete(`/api/auth/user/${quiet.user.id}`, as(owner));
    expect(plain.body).toEqual({ message: MESSAGES.users.deleted });
  });

  it('needs write on Roles: a Member gets 403 and no one is removed', async () => {
    const teammate = await addTeammate(server, owner, member, readToken);
    const target = await addTeammate(server, owner, member, readToken);
    for (const id of [target.user.id, teammate.user.id, owner.user.id]) {
      const reply = await server.delete(`/api/auth/user/${id}`, as(teammate));
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
    }
    expect((await listUsers()).map((u) => u.id)).toEqual(
      expect.arrayContaining([owner.user.id, teammate.user.id, target.user.id]),
    );
  });

  it('an owner is removed or edited only by an owner: Roles write is not enough (403, nothing changed)', async () => {
    const second = await addTeammate(server, owner, member, readToken);
    const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
    const ownerRole = roles.body.find((r) => r.is_owner)!;
    const promoted = await server.post(
      '/api/role/assign-role',
      { user_id: second.user.id, role_id: ownerRole.id },
      as(owner),
    );
    expect(promoted.status, JSON.stringify(promoted.body)).toBeLessThan(300);
    const managerRole = await createRole(server, owner, {
      Roles: { create: true, read: true, write: true },
      Profile: { read: true },
    });
    const manager = await addTeammate(server, owner, managerRole, readToken);

    for (const target of [owner, second]) {
      const removal = await server.delete(`/api/auth/user/${target.user.id}`, as(manager));
      expect(removal.status).toBe(403);
      expect(removal.body).toEqual({ detail: MESSAGES.auth.ownerOnlyByOwner });
      const edit = await server.put(
        `/api/auth/user/profile/${target.user.id}`,
        { first_name: 'Mallory', last_name: 'X', username: `m-${unique()}` },
        as(manager),
      );
      expect(edit.status).toBe(403);
    }
    expect((await listUsers()).map((u) => u.id)).toEqual(
      expect.arrayContaining([owner.user.id, second.user.id]),
    );
    expect((await currentUser(owner)).first_name).toBe('Ada');
    // An owner still removes another owner.
    expect((await server.delete(`/api/auth/user/${second.user.id}`, as(owner))).status).toBe(200);
  });

  it('never removes the last owner (400)', async () => {
    const reply = await server.delete(`/api/auth/user/${owner.user.id}`, as(owner));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    expect((await currentUser(owner)).id).toBe(owner.user.id);
  });
});
