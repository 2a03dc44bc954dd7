import {
  DEFAULT_ROLES,
  type Feature,
  MESSAGES,
  OWNER_ROLE_DESCRIPTION,
  type Role,
  SEEDED_FEATURES,
  type User,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let owner: Account;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });

const listRoles = async (account: Account = owner) => {
  const reply = await server.get<Role[]>(`/api/role/roles/${account.user.tenant_id}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const listFeatures = async (account: Account = owner) => {
  const reply = await server.get<Feature[]>('/api/role/features', as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const currentUser = async (account: Account) => {
  const reply = await server.get<User>('/api/auth/user', as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const roleNamed = async (name: string, account: Account = owner) => {
  const role = (await listRoles(account)).find((r) => r.name === name);
  expect(role, `role ${name}`).toBeDefined();
  return role!;
};
const featureNamed = async (name: string, account: Account = owner) => {
  const feature = (await listFeatures(account)).find((f) => f.name === name);
  expect(feature, `feature ${name}`).toBeDefined();
  return feature!;
};
const grant = (feature: Feature, flags: { create?: boolean; read?: boolean; write?: boolean }) => ({
  feature_permission_id: feature.id,
  can_create: flags.create ?? false,
  can_read: flags.read ?? false,
  can_write: flags.write ?? false,
});
/** The role's grants as `name: crw` strings, easy to compare. */
const grantsOf = (role: Role) =>
  Object.fromEntries(
    role.feature_permissions.map((p) => [
      p.feature_permission.name,
      `${p.can_create ? 'c' : '-'}${p.can_read ? 'r' : '-'}${p.can_write ? 'w' : '-'}`,
    ]),
  );
const uniqueName = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
});

describe('roles', () => {
  it("lists the workspace's roles: Owner with every feature, then Admin, Agent, Viewer and Member, each described", async () => {
    const [roles, features] = await Promise.all([listRoles(), listFeatures()]);
    expect(roles.map((r) => [r.name, r.is_owner, r.tenant_id, r.description])).toEqual([
      ['Owner', true, owner.user.tenant_id, OWNER_ROLE_DESCRIPTION],
      ...DEFAULT_ROLES.map((d) => [d.name, false, owner.user.tenant_id, d.description]),
    ]);
    const [ownerRole, admin, agent, viewer, member] = roles as [Role, Role, Role, Role, Role];
    expect(ownerRole.feature_permissions.map((p) => p.feature_permission_id).sort()).toEqual(
      features.map((f) => f.id).sort(),
    );
    for (const p of ownerRole.feature_permissions) {
      expect(p, p.feature_permission.name).toMatchObject({
        role_id: ownerRole.id,
        can_create: true,
        can_read: true,
        can_write: true,
      });
    }
    expect(grantsOf(member)).toEqual({ Home: '-r-', Profile: '-r-' });
    // Admin: everything but billing (Subscriptions, Upgrade); Agent: the inbox and leads; Viewer reads.
    expect(grantsOf(admin)).toEqual({
      Home: '-r-',
      'Create Bot': 'crw',
      Inbox: 'crw',
      Analytics: 'crw',
      Profile: 'crw',
      Roles: 'crw',
      'API Documentation': '-r-',
      'User Role': '-r-',
      Leads: '-r-',
    });
    expect(grantsOf(agent)).toEqual({ Home: '-r-', Inbox: 'crw', Profile: '-r-', Leads: '-r-' });
    expect(grantsOf(viewer)).toEqual({
      Home: '-r-',
      Inbox: '-r-',
      Analytics: '-r-',
      Profile: '-r-',
      Leads: '-r-',
    });
    // The signed-up owner holds the Owner role.
    expect(owner.user.roles.map((r) => r.id)).toEqual([ownerRole.id]);
  });

  it("gives the signed-in user's roles exactly as the role list does (grants and features in order)", async () => {
    // The user is loaded in one statement that builds roles in SQL; the list reads them row by row.
    const reader = await createRole(server, owner, {
      Roles: { read: true },
      Home: { read: true, write: true },
    });
    const teammate = await addTeammate(server, owner, reader, readToken);
    const roles = await listRoles();
    for (const account of [owner, teammate]) {
      const me = await currentUser(account);
      expect(me.roles.length).toBeGreaterThan(0);
      expect(me.roles).toEqual(roles.filter((r) => me.roles.some((m) => m.id === r.id)));
    }
    expect(grantsOf((await currentUser(teammate)).roles[0]!)).toEqual({ Home: '-rw', Roles: '-r-' });
  });

  it('creates a role with no grants (201) and lists it', async () => {
    const name = uniqueName('Support');
    const reply = await server.post<Role>('/api/role/create', { name: `  ${name}  ` }, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(Number),
      tenant_id: owner.user.tenant_id,
      name,
      description: null,
      is_owner: false,
      feature_permissions: [],
    });
    expect((await listRoles()).map((r) => r.name)).toContain(name);
  });

  it('refuses a duplicate role name (409), whatever its case, and adds nothing', async () => {
    const name = uniqueName('Sales');
    expect((await server.post('/api/role/create', { name }, as(owner))).status).toBe(201);
    const before = await listRoles();
    for (const again of [name, name.toUpperCase(), 'owner']) {
      const reply = await server.post('/api/role/create', { name: again }, as(owner));
      expect(reply.status, again).toBe(409);
      expect(reply.body).toEqual({ detail: MESSAGES.roles.roleNameTaken });
    }
    expect(await listRoles()).toEqual(before);
  });

  it('refuses an empty or missing role name (400) with a clear detail', async () => {
    const before = await listRoles();
    for (const body of [{ name: '' }, { name: '   ' }, {}]) {
      const reply = await server.post('/api/role/create', body, as(owner));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ detail: 'Role name is required' });
    }
    const tooLong = await server.post('/api/role/create', { name: 'x'.repeat(61) }, as(owner));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ detail: 'Role name must be at most 60 characters' });
    expect(await listRoles()).toEqual(before);
  });

  it('keeps roles per workspace: another workspace may use the same name and never sees these', async () => {
    const name = uniqueName('Agents');
    expect((await server.post('/api/role/create', { name }, as(owner))).status).toBe(201);
    const other = await signupOwner(server);
    const created = await server.post<Role>('/api/role/create', { name }, as(other));
    expect(created.status).toBe(201);
    expect(created.body.tenant_id).toBe(other.user.tenant_id);
    const theirs = await listRoles(other);
    expect(theirs.map((r) => r.name)).toEqual(['Owner', 'Admin', 'Agent', 'Viewer', 'Member', name]);
    expect(theirs.every((r) => r.tenant_id === other.user.tenant_id)).toBe(true);
  });
});

describe('features', () => {
  it('lists the eleven seeded platform features', async () => {
    const other = await signupOwner(server);
    const features = (await listFeatures(other)).filter((f) => f.tenant_id === null);
    expect(features.map((f) => f.name)).toEqual([...SEEDED_FEATURES]);
    expect(SEEDED_FEATURES).toEqual([
      'Home',
      'Create Bot',
      'Inbox',
      'Analytics',
      'Profile',
      'Roles',
      'Subscriptions',
      'Upgrade',
      'API Documentation',
      'User Role',
      'Leads',
    ]);
    for (const f of features) expect(f.is_archived, f.name).toBe(false);
  });

  it("creates a workspace feature (201) that the Owner role receives at once and others don't", async () => {
    const name = uniqueName('Reports');
    const reply = await server.post<Feature>(
      '/api/role/feature-permissions',
      { name, description: 'Monthly reports' },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(Number),
      name,
      description: 'Monthly reports',
      tenant_id: owner.user.tenant_id,
      is_archived: false,
    });
    expect(await listFeatures()).toContainEqual(reply.body);
    expect(grantsOf(await roleNamed('Owner'))[name]).toBe('crw');
    expect(grantsOf(await roleNamed('Member'))[name]).toBeUndefined();
    // The owner's own session sees the new grant on its next request.
    const me = await currentUser(owner);
    expect(grantsOf(me.roles[0]!)[name]).toBe('crw');

    const other = await signupOwner(server);
    expect((await listFeatures(other)).map((f) => f.id)).not.toContain(reply.body.id);
    expect(grantsOf(await roleNamed('Owner', other))[name]).toBeUndefined();
    const same = await server.post<Feature>('/api/role/feature-permissions', { name }, as(other));
    expect(same.status, 'another workspace may use the same name').toBe(201);
    expect(same.body.description).toBeNull();
  });

  it('refuses a duplicate feature name or a platform feature name (409), and an empty one (400)', async () => {
    const name = uniqueName('Exports');
    expect((await server.post('/api/role/feature-permissions', { name }, as(owner))).status).toBe(201);
    const before = await listFeatures();
    for (const again of [name, name.toLowerCase().toUpperCase(), 'Inbox', 'home', 'User Role']) {
      const reply = await server.post('/api/role/feature-permissions', { name: again }, as(owner));
      expect(reply.status, again).toBe(409);
      expect(reply.body).toEqual({ detail: MESSAGES.features.nameTaken });
    }
    for (const body of [{ name: '' }, { name: '  ' }, {}]) {
      const reply = await server.post('/api/role/feature-permissions', body, as(owner));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ detail: 'Feature name is required' });
    }
    expect(await listFeatures()).toEqual(before);
  });

  it('refuses the names the ability builder reserves (all, Admin, Partner, Permissions): no one gains them', async () => {
    const before = await listFeatures();
    for (const name of ['all', 'ALL', 'Admin', 'admin', 'Partner', 'Permissions']) {
      const reply = await server.post('/api/role/feature-permissions', { name }, as(owner));
      expect(reply.status, name).toBe(409);
      expect(reply.body).toEqual({ detail: MESSAGES.features.nameTaken });
    }
    expect(await listFeatures()).toEqual(before);
    // The Owner, who receives every new feature, holds none of them.
    const names = (await currentUser(owner)).roles.flatMap((r) =>
      r.feature_permissions.map((p) => p.feature_permission.name),
    );
    for (const reserved of ['all', 'Admin', 'Partner', 'Permissions']) {
      expect(names.map((n) => n.toLowerCase())).not.toContain(reserved.toLowerCase());
    }
  });

  it('refuses to delete a feature assigned to a role (409) and keeps it', async () => {
    const created = await server.post<Feature>(
      '/api/role/feature-permissions',
      { name: uniqueName('Leads') },
      as(owner),
    );
    const role = await createRole(server, owner, { [created.body.name]: { read: true } });
    const reply = await server.delete(`/api/role/feature/${created.body.id}`, as(owner));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({
      detail: "Can't delete this feature as it's assigned to different roles. Please archive instead",
    });
    expect(await listFeatures()).toContainEqual(created.body);
    expect(grantsOf(await roleNamed(role.name))[created.body.name]).toBe('-r-');
    expect(grantsOf(await roleNamed('Owner'))[created.body.name]).toBe('crw');
  });

  it('deletes a feature no role but Owner holds: gone from the list and from the Owner role', async () => {
    const created = await server.post<Feature>(
      '/api/role/feature-permissions',
      { name: uniqueName('Drafts') },
      as(owner),
    );
    expect(created.status).toBe(201);
    const reply = await server.delete(`/api/role/feature/${created.body.id}`, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ message: 'Feature deleted successfully' });
    expect((await listFeatures()).map((f) => f.id)).not.toContain(created.body.id);
    expect(grantsOf(await roleNamed('Owner'))[created.body.name]).toBeUndefined();
    const again = await server.delete(`/api/role/feature/${created.body.id}`, as(owner));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Feature not found' });
  });

  it('refuses to delete or archive a platform feature (403) and leaves it as it was', async () => {
    const before = await listFeatures();
    for (const name of ['Home', 'Roles', 'Inbox']) {
      const feature = before.find((f) => f.name === name)!;
      const deleted = await server.delete(`/api/role/feature/${feature.id}`, as(owner));
      expect(deleted.status, `delete ${name}`).toBe(403);
      expect(deleted.body).toEqual({ detail: MESSAGES.features.platformFeature });
      const archived = await server.patch(
        `/api/role/feature/${feature.id}/archive`,
        { is_archived: true },
        as(owner),
      );
      expect(archived.status, `archive ${name}`).toBe(403);
      expect(archived.body).toEqual({ detail: MESSAGES.features.platformFeature });
    }
    expect(await listFeatures()).toEqual(before);
    // The owner still holds Roles (archiving would have taken it away).
    expect((await server.get(`/api/role/roles/${owner.user.tenant_id}`, as(owner))).status).toBe(200);
  });

  it("archives a feature: is_archived everywhere, a holder's session sees it on its next request, restore undoes it", async () => {
    const created = await server.post<Feature>(
      '/api/role/feature-permissions',
      { name: uniqueName('Campaigns') },
      as(owner),
    );
    const role = await createRole(server, owner, { [created.body.name]: { read: true, write: true } });
    const teammate = await addTeammate(server, owner, role, readToken);
    const held = (user: User) =>
      user.roles[0]!.feature_permissions.find((p) => p.feature_permission_id === created.body.id);
    // Prime the teammate's session.
    expect(held(await currentUser(teammate))?.feature_permission.is_archived).toBe(false);

    const archived = await server.patch<Feature>(
      `/api/role/feature/${created.body.id}/archive`,
      { is_archived: true },
      as(owner),
    );
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body).toEqual({ ...created.body, is_archived: true });
    expect((await listFeatures()).find((f) => f.id === created.body.id)?.is_archived).toBe(true);
    const grantNow = held(await currentUser(teammate));
    expect(grantNow).toMatchObject({
      can_read: true,
      can_write: true,
      feature_permission: { is_archived: true },
    });
    expect((await roleNamed(role.name)).feature_permissions[0]?.feature_permission.is_archived).toBe(true);

    // An archived feature is still assigned, so it still cannot be deleted.
    expect((await server.delete(`/api/role/feature/${created.body.id}`, as(owner))).status).toBe(409);

    const restored = await server.patch<Feature>(
      `/api/role/feature/${created.body.id}/archive`,
      { is_archived: false },
      as(owner),
    );
    expect(restored.status).toBe(200);
    expect(restored.body.is_archived).toBe(false);
    expect(held(await currentUser(teammate))?.feature_permission.is_archived).toBe(false);

    const bad = await server.patch(`/api/role/feature/${created.body.id}/archive`, {}, as(owner));
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('detail');
  });
});

describe('assign-feature-permissions', () => {
  it("upserts a role's grants, keeps the others, and changes a teammate's access at once", async () => {
    const [home, profile, roles] = await Promise.all([
      featureNamed('Home'),
      featureNamed('Profile'),
      featureNamed('Roles'),
    ]);
    const role = await createRole(server, owner, { Home: { read: true }, Profile: { read: true } });
    const teammate = await addTeammate(server, owner, role, readToken);
    const listUsers = () => server.get<User[]>(`/api/auth/user/all/${owner.user.tenant_id}`, as(teammate));

    const refused = await listUsers();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: MESSAGES.auth.forbidden });

    const given = await server.post<Role>(
      '/api/role/assign-feature-permissions',
      { role_id: role.id, feature_permissions: [grant(roles, { read: true })] },
      as(owner),
    );
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect(given.body.id).toBe(role.id);
    expect(grantsOf(given.body)).toEqual({ Home: '-r-', Profile: '-r-', Roles: '-r-' });
    expect(given.body.feature_permissions.find((p) => p.feature_permission_id === roles.id)).toMatchObject({
      role_id: role.id,
      feature_permission: { name: 'Roles', tenant_id: null, is_archived: false },
    });

    const allowed = await listUsers();
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.map((u) => u.id)).toEqual(expect.arrayContaining([owner.user.id, teammate.user.id]));
    // Read is not create: creating a role still needs create on Roles.
    const create = await server.post('/api/role/create', { name: uniqueName('Nope') }, as(teammate));
    expect(create.status).toBe(403);

    // The same feature again updates the grant in place (no duplicate row).
    const changed = await server.post<Role>(
      '/api/role/assign-feature-permissions',
      {
        role_id: role.id,
        feature_permissions: [
          grant(roles, { create: true }),
          grant(home, { read: true }),
          grant(profile, { read: true, write: true }),
        ],
      },
      as(owner),
    );
    expect(changed.status).toBe(200);
    expect(grantsOf(changed.body)).toEqual({ Home: '-r-', Profile: '-rw', Roles: 'c--' });
    expect(changed.body.feature_permissions).toHaveLength(3);
    expect(grantsOf(await roleNamed(role.name))).toEqual(grantsOf(changed.body));

    const takenAway = await listUsers();
    expect(takenAway.status).toBe(403);
    expect(takenAway.body).toEqual({ detail: MESSAGES.auth.forbidden });
    const created = await server.post<Role>(
      '/api/role/create',
      { name: uniqueName('Allowed') },
      as(teammate),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('lets a User Role grant read Roles', async () => {
    const role = await createRole(server, owner, { 'User Role': { read: true } });
    const teammate = await addTeammate(server, owner, role, readToken);
    const reply = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(teammate));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.map((r) => r.id)).toContain(role.id);
    expect((await server.post('/api/role/create', { name: uniqueName('No') }, as(teammate))).status).toBe(
      403,
    );
  });

  it('refuses to edit the Owner role (400) and leaves it whole', async () => {
    const [ownerRole, home] = await Promise.all([roleNamed('Owner'), featureNamed('Home')]);
    const reply = await server.post(
      '/api/role/assign-feature-permissions',
      { role_id: ownerRole.id, feature_permissions: [grant(home, {})] },
      as(owner),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: MESSAGES.roles.ownerLocked });
    expect(await roleNamed('Owner')).toEqual(ownerRole);
    expect((await server.get(`/api/role/roles/${owner.user.tenant_id}`, as(owner))).status).toBe(200);
  });

  it('changes nothing when one of the grants names an unknown feature or the role is unknown (404)', async () => {
    const [home, roles] = await Promise.all([featureNamed('Home'), featureNamed('Roles')]);
    const role = await createRole(server, owner, { Home: { read: true } });
    const before = await listRoles();
    const unknownFeature = await server.post(
      '/api/role/assign-feature-permissions',
      {
        role_id: role.id,
        feature_permissions: [
          grant(roles, { read: true }),
          { ...grant(home, {}), feature_permission_id: 99_999_999 },
        ],
      },
      as(owner),
    );
    expect(unknownFeature.status).toBe(404);
    expect(unknownFeature.body).toEqual({ detail: 'Feature not found' });
    const unknownRole = await server.post(
      '/api/role/assign-feature-permissions',
      { role_id: 99_999_999, feature_permissions: [grant(roles, { read: true })] },
      as(owner),
    );
    expect(unknownRole.status).toBe(404);
    expect(unknownRole.body).toEqual({ detail: 'Role not found' });
    expect(await listRoles()).toEqual(before);
  });

  it('refuses malformed grants (400)', async () => {
    const role = await createRole(server, owner, {});
    const before = await listRoles();
    for (const body of [
      { role_id: role.id },
      { role_id: role.id, feature_permissions: [{ feature_permission_id: 1, can_read: 'yes' }] },
      { role_id: 0, feature_permissions: [] },
      { role_id: 'abc', feature_permissions: [] },
    ]) {
      const reply = await server.post('/api/role/assign-feature-permissions', body, as(owner));
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
    expect(await listRoles()).toEqual(before);
  });
});

describe('assign-role', () => {
  it("replaces a user's role, and their access follows at once", async () => {
    const plain = await createRole(server, owner, { Home: { read: true } });
    const reader = await createRole(server, owner, { Roles: { read: true } });
    const teammate = await addTeammate(server, owner, plain, readToken);
    expect(teammate.user.roles.map((r) => r.id)).toEqual([plain.id]);
    expect((await server.get(`/api/role/roles/${owner.user.tenant_id}`, as(teammate))).status).toBe(403);

    const reply = await server.post<User>(
      '/api/role/assign-role',
      { user_id: teammate.user.id, role_id: reader.id },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.id).toBe(teammate.user.id);
    expect(reply.body.roles.map((r) => r.id)).toEqual([reader.id]);
    expect(grantsOf(reply.body.roles[0]!)).toEqual({ Roles: '-r-' });
    expect((await currentUser(teammate)).roles.map((r) => r.id)).toEqual([reader.id]);
    expect((await server.get(`/api/role/roles/${owner.user.tenant_id}`, as(teammate))).status).toBe(200);

    const users = await server.get<User[]>(`/api/auth/user/all/${owner.user.tenant_id}`, as(owner));
    expect(users.body.find((u) => u.id === teammate.user.id)?.roles.map((r) => r.id)).toEqual([reader.id]);

    // Assigning the role it already has is harmless.
    const again = await server.post<User>(
      '/api/role/assign-role',
      { user_id: teammate.user.id, role_id: reader.id },
      as(owner),
    );
    expect(again.status).toBe(200);
    expect(again.body.roles.map((r) => r.id)).toEqual([reader.id]);
  });

  it('answers 404 for an unknown user or role and changes nothing', async () => {
    const role = await createRole(server, owner, {});
    const teammate = await addTeammate(server, owner, role, readToken);
    const member = await roleNamed('Member');
    const unknownUser = await server.post(
      '/api/role/assign-role',
      { user_id: 99_999_999, role_id: member.id },
      as(owner),
    );
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toEqual({ detail: 'User not found' });
    const unknownRole = await server.post(
      '/api/role/assign-role',
      { user_id: teammate.user.id, role_id: 99_999_999 },
      as(owner),
    );
    expect(unknownRole.status).toBe(404);
    expect(unknownRole.body).toEqual({ detail: 'Role not found' });
    expect((await currentUser(teammate)).roles.map((r) => r.id)).toEqual([role.id]);
  });

  it('never leaves a workspace without an owner: the last one can be neither demoted nor deleted', async () => {
    const boss = await signupOwner(server);
    const [ownerRole, member] = [await roleNamed('Owner', boss), await roleNamed('Member', boss)];
    const demote = await server.post(
      '/api/role/assign-role',
      { user_id: boss.user.id, role_id: member.id },
      as(boss),
    );
    expect(demote.status).toBe(400);
    expect(demote.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    const remove = await server.delete(`/api/auth/user/${boss.user.id}`, as(boss));
    expect(remove.status).toBe(400);
    expect(remove.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    expect((await currentUser(boss)).roles.map((r) => r.id)).toEqual([ownerRole.id]);

    // With a second owner, the first may step down; then the second is the last one.
    const readTokenB = (email: string) => outboxText(server.database, email).then(tokenFromText);
    const second = await addTeammate(server, boss, member, readTokenB);
    const promote = await server.post<User>(
      '/api/role/assign-role',
      { user_id: second.user.id, role_id: ownerRole.id },
      as(boss),
    );
    expect(promote.status).toBe(200);
    expect(promote.body.roles.map((r) => r.is_owner)).toEqual([true]);
    const stepDown = await server.post<User>(
      '/api/role/assign-role',
      { user_id: boss.user.id, role_id: member.id },
      as(boss),
    );
    expect(stepDown.status, JSON.stringify(stepDown.body)).toBe(200);
    expect(stepDown.body.roles.map((r) => r.id)).toEqual([member.id]);
    // The former owner lost Roles on the spot.
    expect((await server.get(`/api/role/roles/${boss.user.tenant_id}`, as(boss))).status).toBe(403);

    const demoteLast = await server.post(
      '/api/role/assign-role',
      { user_id: second.user.id, role_id: member.id },
      as(second),
    );
    expect(demoteLast.status).toBe(400);
    expect(demoteLast.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    const deleteLast = await server.delete(`/api/auth/user/${second.user.id}`, as(second));
    expect(deleteLast.status).toBe(400);
    expect(deleteLast.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    expect((await currentUser(second)).roles.map((r) => r.id)).toEqual([ownerRole.id]);
  });
  it('keeps an owner when two owners step down at the same moment', async () => {
    const boss = await signupOwner(server);
    const [ownerRole, member] = [await roleNamed('Owner', boss), await roleNamed('Member', boss)];
    const second = await addTeammate(server, boss, member, readToken);
    const promote = await server.post(
      '/api/role/assign-role',
      { user_id: second.user.id, role_id: ownerRole.id },
      as(boss),
    );
    expect(promote.status).toBe(200);

    const replies = await Promise.all([
      server.post('/api/role/assign-role', { user_id: boss.user.id, role_id: member.id }, as(boss)),
      server.post('/api/role/assign-role', { user_id: second.user.id, role_id: member.id }, as(second)),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)?.body).toEqual({ detail: MESSAGES.auth.lastOwner });
    const users = await server.get<User[]>(`/api/auth/user/all/${boss.user.tenant_id}`, {
      token: (replies[0]!.status === 400 ? boss : second).access_token,
    });
    expect(users.status).toBe(200);
    expect(users.body.filter((u) => u.roles.some((r) => r.is_owner))).toHaveLength(1);
  });

  it('keeps an owner when two owners remove each other at the same moment', async () => {
    const boss = await signupOwner(server);
    const [ownerRole, member] = [await roleNamed('Owner', boss), await roleNamed('Member', boss)];
    const second = await addTeammate(server, boss, member, readToken);
    expect(
      (
        await server.post(
          '/api/role/assign-role',
          { user_id: second.user.id, role_id: ownerRole.id },
          as(boss),
        )
      ).status,
    ).toBe(200);

    const replies = await Promise.all([
      server.delete(`/api/auth/user/${second.user.id}`, as(boss)),
      server.delete(`/api/auth/user/${boss.user.id}`, as(second)),
    ]);
    // One removal wins; the other is refused as the last owner, or its caller is already gone (401).
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) expect([400, 401]).toContain(r.status);
    const survivor = replies[0]!.status === 200 ? boss : second;
    const users = await server.get<User[]>(`/api/auth/user/all/${boss.user.tenant_id}`, as(survivor));
    expect(users.status).toBe(200);
    expect(users.body.map((u) => u.id)).toEqual([survivor.user.id]);
    expect(users.body[0]!.roles.map((r) => r.is_owner)).toEqual([true]);
  });
});

describe('permissions of the Roles routes', () => {
  it('refuses a Member (Home and Profile only) with 403 and a detail, and changes nothing', async () => {
    const member = await roleNamed('Member');
    const teammate = await addTeammate(server, owner, member, readToken);
    const home = await featureNamed('Home');
    const [rolesBefore, featuresBefore] = await Promise.all([listRoles(), listFeatures()]);
    const replies = await Promise.all([
      server.get(`/api/role/roles/${owner.user.tenant_id}`, as(teammate)),
      server.get('/api/role/features', as(teammate)),
      server.post('/api/role/create', { name: uniqueName('Sneaky') }, as(teammate)),
      server.post('/api/role/feature-permissions', { name: uniqueName('Sneaky') }, as(teammate)),
      server.delete(`/api/role/feature/${home.id}`, as(teammate)),
      server.patch(`/api/role/feature/${home.id}/archive`, { is_archived: true }, as(teammate)),
      server.post(
        '/api/role/assign-feature-permissions',
        {
          role_id: member.id,
          feature_permissions: [
            grant(await featureNamed('Roles'), { create: true, read: true, write: true }),
          ],
        },
        as(teammate),
      ),
      server.post(
        '/api/role/assign-role',
        { user_id: teammate.user.id, role_id: (await roleNamed('Owner')).id },
        as(teammate),
      ),
    ]);
    for (const reply of replies) {
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
    }
    expect(await listRoles()).toEqual(rolesBefore);
    expect(await listFeatures()).toEqual(featuresBefore);
    expect((await currentUser(teammate)).roles.map((r) => r.id)).toEqual([member.id]);
  });
});

describe('no one grants what they do not hold', () => {
  const mailedTo = async (email: string) =>
    outboxText(server.database, email, 300).then(
      () => true,
      () => false,
    );
  /** A teammate who may manage roles (Roles create, read, write) and nothing else. */
  const rolesManager = async () => {
    const role = await createRole(server, owner, { Roles: { create: true, read: true, write: true } });
    return { role, manager: await addTeammate(server, owner, role, readToken) };
  };

  it('refuses an invitation with the Owner role or a role holding more (403) and mails nothing', async () => {
    const { manager } = await rolesManager();
    const botMaker = await createRole(server, owner, { 'Create Bot': { create: true } });
    const rolesReader = await createRole(server, owner, { Roles: { read: true } });
    const refusals = [
      [(await roleNamed('Owner')).id, MESSAGES.roles.ownerOnlyByOwner],
      [botMaker.id, MESSAGES.roles.grantBeyondOwn],
    ] as const;
    for (const [roleId, detail] of refusals) {
      const email = `${uniqueName('escalate').replace(' ', '-')}@example.com`;
      const reply = await server.post('/api/auth/invite-user', { email, role_id: roleId }, as(manager));
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail });
      expect(await mailedTo(email)).toBe(false);
    }
    const allowed = await server.post(
      '/api/auth/invite-user',
      { email: `${uniqueName('reader').replace(' ', '-')}@example.com`, role_id: rolesReader.id },
      as(manager),
    );
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  });

  it('refuses to assign the Owner role or a stronger role, to oneself or others (403), changing nothing', async () => {
    const { role, manager } = await rolesManager();
    const member = await roleNamed('Member');
    const other = await addTeammate(server, owner, member, readToken);
    const stronger = await createRole(server, owner, {
      Roles: { create: true, read: true, write: true },
      Inbox: { read: true },
    });
    const attempts = [
      [manager.user.id, (await roleNamed('Owner')).id, MESSAGES.roles.ownerOnlyByOwner],
      [manager.user.id, stronger.id, MESSAGES.roles.grantBeyondOwn],
      [other.user.id, stronger.id, MESSAGES.roles.grantBeyondOwn],
      // Taking ownership away, even with a role the manager may give.
      [owner.user.id, role.id, MESSAGES.roles.ownerOnlyByOwner],
    ] as const;
    for (const [userId, roleId, detail] of attempts) {
      const reply = await server.post(
        '/api/role/assign-role',
        { user_id: userId, role_id: roleId },
        as(manager),
      );
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail });
    }
    expect((await currentUser(manager)).roles.map((r) => r.id)).toEqual([role.id]);
    expect((await currentUser(other)).roles.map((r) => r.id)).toEqual([member.id]);
    expect((await currentUser(owner)).roles.map((r) => r.is_owner)).toEqual([true]);
    const within = await server.post(
      '/api/role/assign-role',
      { user_id: other.user.id, role_id: (await createRole(server, owner, { Roles: { read: true } })).id },
      as(manager),
    );
    expect(within.status, JSON.stringify(within.body)).toBe(200);
  });

  it("refuses to add to a role's grants what the editor lacks (403), yet lets them pass on or remove what they hold", async () => {
    const { role, manager } = await rolesManager();
    const [inbox, roles] = [await featureNamed('Inbox'), await featureNamed('Roles')];
    const before = grantsOf(await roleNamed(role.name));
    const raise = await server.post(
      '/api/role/assign-feature-permissions',
      { role_id: role.id, feature_permissions: [grant(inbox, { read: true })] },
      as(manager),
    );
    expect(raise.status).toBe(403);
    expect(raise.body).toEqual({ detail: MESSAGES.roles.grantBeyondOwn });
    expect(grantsOf(await roleNamed(role.name))).toEqual(before);

    const other = await createRole(server, owner, { Inbox: { read: true } });
    const edit = await server.post<Role>(
      '/api/role/assign-feature-permissions',
      {
        role_id: other.id,
        feature_permissions: [grant(roles, { read: true }), grant(inbox, { read: true })],
      },
      as(manager),
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(grantsOf(edit.body)).toEqual({ Inbox: '-r-', Roles: '-r-' });
    const removal = await server.post<Role>(
      '/api/role/assign-feature-permissions',
      { role_id: other.id, feature_permissions: [grant(inbox, {})] },
      as(manager),
    );
    expect(removal.status).toBe(200);
    expect(grantsOf(removal.body)).toEqual({ Inbox: '---', Roles: '-r-' });
  });
});

describe('renaming and deleting roles', () => {
  const invite = (roleId: number, by: Account = owner) =>
    server.post(
      '/api/auth/invite-user',
      { email: `${uniqueName('offer').replace(' ', '-')}@example.com`, role_id: roleId },
      as(by),
    );

  it('renames a role in use: its holders see the new name on their next request, grants unchanged', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true, write: true } });
    const holder = await addTeammate(server, owner, role, readToken);
    await currentUser(holder); // their session is cached before the change
    const name = uniqueName('Support agent');
    const reply = await server.patch<Role>(
      `/api/role/${role.id}`,
      { name, description: 'Answers the inbox' },
      as(owner),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ id: role.id, name, description: 'Answers the inbox' });
    expect(grantsOf(reply.body)).toEqual(grantsOf(role));
    expect((await currentUser(holder)).roles.map((r) => r.name)).toEqual([name]);
    // An empty description clears it.
    const cleared = await server.patch<Role>(`/api/role/${role.id}`, { description: '' }, as(owner));
    expect(cleared.body).toMatchObject({ name, description: null });
  });

  it('refuses a rename to a taken name (409, any case), an empty one (400), and the Owner role (400)', async () => {
    const role = await createRole(server, owner, {});
    const cases = [
      [role.id, { name: 'agent' }, 409, MESSAGES.roles.roleNameTaken],
      [role.id, { name: '  ' }, 400, 'Role name is required'],
      [role.id, {}, 400, 'Nothing to update'],
      [(await roleNamed('Owner')).id, { name: 'Boss' }, 400, MESSAGES.roles.ownerLocked],
    ] as const;
    for (const [id, body, status, detail] of cases) {
      const reply = await server.patch<{ detail: string }>(`/api/role/${id}`, body, as(owner));
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      expect(reply.body.detail).toContain(detail);
    }
    expect((await roleNamed(role.name)).id).toBe(role.id);
    expect((await roleNamed('Owner')).is_owner).toBe(true);
  });

  it('deletes a role nobody holds: gone from the list, and its name is free again', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const reply = await server.delete(`/api/role/${role.id}`, as(owner));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ message: MESSAGES.roles.deleted });
    expect((await listRoles()).map((r) => r.id)).not.toContain(role.id);
    expect((await server.delete(`/api/role/${role.id}`, as(owner))).status).toBe(404);
    expect((await server.post('/api/role/create', { name: role.name }, as(owner))).status).toBe(201);
  });

  it('refuses to delete a role teammates hold or a pending invitation offers (409, saying what to do)', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const holders = [
      await addTeammate(server, owner, role, readToken),
      await addTeammate(server, owner, role, readToken),
    ];
    expect((await invite(role.id)).status).toBe(201);
    const refused = await server.delete(`/api/role/${role.id}`, as(owner));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: MESSAGES.roles.inUse(2, 1) });
    expect(MESSAGES.roles.inUse(2, 1)).toBe(
      "Can't delete this role: 2 teammates have it and 1 pending invitation offers it. First give each another role and revoke the invitation.",
    );
    for (const holder of holders) {
      expect((await currentUser(holder)).roles.map((r) => r.id)).toEqual([role.id]);
    }
    // Once nobody needs it (the holders moved, the invitation revoked), it goes.
    const member = await roleNamed('Member');
    for (const holder of holders) {
      const moved = await server.post(
        '/api/role/assign-role',
        { user_id: holder.user.id, role_id: member.id },
        as(owner),
      );
      expect(moved.status).toBe(200);
    }
    const only = await server.delete(`/api/role/${role.id}`, as(owner));
    expect(only.body).toEqual({ detail: MESSAGES.roles.inUse(0, 1) });
    const invitations = await server.get<Array<{ id: number; role_id: number }>>(
      '/api/auth/invitations',
      as(owner),
    );
    for (const invitation of invitations.body.filter((i) => i.role_id === role.id)) {
      expect((await server.delete(`/api/auth/invitations/${invitation.id}`, as(owner))).status).toBe(200);
    }
    expect((await server.delete(`/api/role/${role.id}`, as(owner))).status).toBe(200);
  });

  it('never deletes the Owner role, and keeps other workspaces and stronger roles out of reach', async () => {
    const ownerRole = await roleNamed('Owner');
    const refused = await server.delete(`/api/role/${ownerRole.id}`, as(owner));
    expect([refused.status, refused.body]).toEqual([400, { detail: MESSAGES.roles.ownerNotDeletable }]);

    const stranger = await signupOwner(server);
    const theirs = await createRole(server, stranger, {});
    for (const reply of [
      await server.delete(`/api/role/${theirs.id}`, as(owner)),
      await server.patch(`/api/role/${theirs.id}`, { name: 'Mine now' }, as(owner)),
    ]) {
      expect([reply.status, reply.body]).toEqual([404, { detail: 'Role not found' }]);
    }
    expect((await listRoles(stranger)).find((r) => r.id === theirs.id)?.name).toBe(theirs.name);

    // A manager of roles touches only roles they could give: not a stronger one, not the Owner role.
    const managerRole = await createRole(server, owner, { Roles: { create: true, read: true, write: true } });
    const manager = await addTeammate(server, owner, managerRole, readToken);
    const stronger = await createRole(server, owner, { Subscriptions: { read: true, write: true } });
    for (const reply of [
      await server.delete(`/api/role/${stronger.id}`, as(manager)),
      await server.patch(`/api/role/${stronger.id}`, { name: uniqueName('Harmless') }, as(manager)),
    ]) {
      expect([reply.status, reply.body]).toEqual([403, { detail: MESSAGES.roles.grantBeyondOwn }]);
    }
    const ownerAttempt = await server.delete(`/api/role/${ownerRole.id}`, as(manager));
    expect([ownerAttempt.status, ownerAttempt.body]).toEqual([
      403,
      { detail: MESSAGES.roles.ownerOnlyByOwner },
    ]);
    expect((await roleNamed(stronger.name)).id).toBe(stronger.id);
    const within = await createRole(server, owner, { Roles: { read: true } });
    expect((await server.delete(`/api/role/${within.id}`, as(manager))).status).toBe(200);

    // Without write on Roles: 403 before anything is looked at.
    const reader = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Roles: { read: true } }),
      readToken,
    );
    const readerAttempt = await server.delete(`/api/role/${stronger.id}`, as(reader));
    expect([readerAttempt.status, readerAttempt.body]).toEqual([403, { detail: MESSAGES.auth.forbidden }]);
  });
});
