import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_ROUTE_RULES,
  AFFILIATE_ROUTE_RULES,
  ANALYTICS_ROUTE_RULES,
  BILLING_ROUTE_RULES,
  BOT_ROUTE_RULES,
  CALENDAR_ROUTE_RULES,
  CHAT_ROUTE_RULES,
  CRAWLER_ROUTE_RULES,
  type Feature,
  FILE_ROUTE_RULES,
  HANDOFF_ROUTE_RULES,
  HELPDESK_ROUTE_RULES,
  type HomeSummary,
  INTEGRATION_ROUTE_RULES,
  KNOWLEDGE_ROUTE_RULES,
  LEAD_ROUTE_RULES,
  LLM_ROUTE_RULES,
  MESSAGES,
  NOTIFICATION_ROUTE_RULES,
  NOTION_ROUTE_RULES,
  PAYMENT_ROUTE_RULES,
  ROUTE_RULES,
  type Role,
  type RouteKey,
  type RouteRule,
  SEEDED_FEATURES,
  SHOPIFY_BILLING_ROUTE_RULES,
  SHOPIFY_ROUTE_RULES,
  SOCIAL_ROUTE_RULES,
  UNANSWERED_ROUTE_RULES,
  type User,
  WHATSAPP_ROUTE_RULES,
  WOO_ROUTE_RULES,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../test/bots.js';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, type Reply, startTestServer, type TestServer } from '../../test/server.js';
import { invitations, mailOutbox } from '../db/schema.js';

/**
 * Tenant isolation and the permission map, route by route. Every case list below is checked against
 * ROUTE_RULES and the OpenAPI document, so a new route that takes an id cannot ship without a case.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Call = { method: Method; path: string; body?: unknown };

/** The ids of one workspace that a route may be handed. */
type Ids = {
  tenantId: number;
  ownerId: number;
  userId: number;
  roleId: number;
  ownerRoleId: number;
  memberRoleId: number;
  featureId: number;
  jobId: string;
  /** A pending invitation of the workspace. */
  invitationId: number;
};

type Workspace = { owner: Account; teammate: Account; role: Role; feature: Feature; ids: Ids };

let server: TestServer;
let a: Workspace;
let b: Workspace;
let platformRoles: Feature;
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const as = (account: Account) => ({ token: account.access_token });
const NEW_PASSWORD = 'someone else chose this';

const send = <T = unknown>(call: Call, token?: string): Promise<Reply<T>> => {
  const options = token ? { token } : {};
  switch (call.method) {
    case 'GET':
      return server.get<T>(call.path, options);
    case 'DELETE':
      return server.delete<T>(call.path, options);
    case 'POST':
      return server.post<T>(call.path, call.body, options);
    case 'PUT':
      return server.put<T>(call.path, call.body, options);
    case 'PATCH':
      return server.patch<T>(call.path, call.body, options);
  }
};

const ghostEmail = () => `ghost-${randomUUID().slice(0, 8)}@example.com`;
const grant = (featureId: number) => ({
  feature_permission_id: featureId,
  can_create: true,
  can_read: true,
  can_write: true,
});

/**
 * Cross-tenant cases: each builds a request that hands the route another workspace's ids (`t`),
 * together with the caller's own valid ids (`own`) wherever the route needs more than one.
 */
const CROSS_TENANT: Partial<Record<RouteKey, Array<(t: Ids, own: Ids) => Call>>> = {
  'GET /auth/user/all/:tenantId': [(t) => ({ method: 'GET', path: `/api/auth/user/all/${t.tenantId}` })],
  'GET /auth/user/teammates/:tenantId': [
    (t) => ({ method: 'GET', path: `/api/auth/user/teammates/${t.tenantId}` }),
  ],
  'PUT /auth/user/profile/:id': [
    (t) => ({ method: 'PUT', path: `/api/auth/user/profile/${t.userId}`, body: { first_name: 'Hijacked' } }),
    (t) => ({ method: 'PUT', path: `/api/auth/user/profile/${t.ownerId}`, body: { last_name: 'Hijacked' } }),
  ],
  'PUT /auth/user/password/:id': [
    (t) => ({
      method: 'PUT',
      path: `/api/auth/user/password/${t.userId}`,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    }),
    (t) => ({
      method: 'PUT',
      path: `/api/auth/user/password/${t.ownerId}`,
      body: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    }),
  ],
  'DELETE /auth/user/:id': [
    (t) => ({ method: 'DELETE', path: `/api/auth/user/${t.userId}` }),
    // The other workspace's last owner: 404, never the "last owner" 400 that would reveal it.
    (t) => ({ method: 'DELETE', path: `/api/auth/user/${t.ownerId}` }),
  ],
  'POST /auth/invite-user': [
    (t) => ({
      method: 'POST',
      path: '/api/auth/invite-user',
      body: { email: ghostEmail(), role_id: t.roleId },
    }),
    (t) => ({
      method: 'POST',
      path: '/api/auth/invite-user',
      body: { email: ghostEmail(), role_id: t.ownerRoleId },
    }),
  ],
  'GET /role/roles/:tenantId': [(t) => ({ method: 'GET', path: `/api/role/roles/${t.tenantId}` })],
  'POST /auth/invitations/:id/resend': [
    (t) => ({ method: 'POST', path: `/api/auth/invitations/${t.invitationId}/resend` }),
  ],
  'DELETE /auth/invitations/:id': [
    (t) => ({ method: 'DELETE', path: `/api/auth/invitations/${t.invitationId}` }),
  ],
  'PATCH /role/:id': [
    (t) => ({ method: 'PATCH', path: `/api/role/${t.roleId}`, body: { name: 'Hijacked' } }),
    // Their Owner role: 404, never the "Owner cannot be edited" 400.
    (t) => ({ method: 'PATCH', path: `/api/role/${t.ownerRoleId}`, body: { name: 'Hijacked' } }),
  ],
  'DELETE /role/:id': [
    (t) => ({ method: 'DELETE', path: `/api/role/${t.roleId}` }),
    (t) => ({ method: 'DELETE', path: `/api/role/${t.ownerRoleId}` }),
  ],
  'DELETE /role/feature/:id': [(t) => ({ method: 'DELETE', path: `/api/role/feature/${t.featureId}` })],
  'PATCH /role/feature/:id/archive': [
    (t) => ({
      method: 'PATCH',
      path: `/api/role/feature/${t.featureId}/archive`,
      body: { is_archived: true },
    }),
  ],
  'POST /role/assign-feature-permissions': [
    // Their role, a platform feature.
    (t) => ({
      method: 'POST',
      path: '/api/role/assign-feature-permissions',
      body: { role_id: t.roleId, feature_permissions: [grant(platformRoles.id)] },
    }),
    // Their Owner role: 404, never the "Owner cannot be edited" 400.
    (t) => ({
      method: 'POST',
      path: '/api/role/assign-feature-permissions',
      body: { role_id: t.ownerRoleId, feature_permissions: [grant(platformRoles.id)] },
    }),
    // Our role, their feature (after a valid grant, which must be rolled back).
    (t, own) => ({
      method: 'POST',
      path: '/api/role/assign-feature-permissions',
      body: { role_id: own.roleId, feature_permissions: [grant(platformRoles.id), grant(t.featureId)] },
    }),
  ],
  'POST /role/assign-role': [
    (t, own) => ({
      method: 'POST',
      path: '/api/role/assign-role',
      body: { user_id: t.userId, role_id: own.roleId },
    }),
    (t, own) => ({
      method: 'POST',
      path: '/api/role/assign-role',
      body: { user_id: own.userId, role_id: t.ownerRoleId },
    }),
    (t) => ({
      method: 'POST',
      path: '/api/role/assign-role',
      body: { user_id: t.ownerId, role_id: t.memberRoleId },
    }),
  ],
  'GET /jobs/:id': [(t) => ({ method: 'GET', path: `/api/jobs/${t.jobId}` })],
};

/** Id-bearing routes that need no cross-tenant case, and why. */
const EXEMPT: Partial<Record<RouteKey, string>> = {
  'GET /auth/invited-user/:token':
    'public: the path holds a secret, single-use invitation token, not a tenant-scoped id; holding it is the permission',
};

/**
 * Feature modules keep their cross-tenant and permission cases in their own API tests (they need
 * their own fixtures: bots, files, sites). Their routes are checked here only to be named there.
 */
const MODULE_TESTS: Array<[Record<string, RouteRule>, string | string[]]> = [
  [KNOWLEDGE_ROUTE_RULES, '../../modules/qna/qna.api.test.ts'],
  [UNANSWERED_ROUTE_RULES, '../../modules/unanswered/unanswered.api.test.ts'],
  [FILE_ROUTE_RULES, '../../modules/files/files.api.test.ts'],
  [CRAWLER_ROUTE_RULES, '../../modules/crawler/crawler.api.test.ts'],
  [NOTION_ROUTE_RULES, '../../modules/notion/notion.api.test.ts'],
  [CALENDAR_ROUTE_RULES, '../../modules/calendar/calendar.api.test.ts'],
  [LEAD_ROUTE_RULES, '../../modules/leads/leads.api.test.ts'],
  [ANALYTICS_ROUTE_RULES, '../../modules/analytics/analytics.api.test.ts'],
  [LLM_ROUTE_RULES, '../../modules/llm/llm.api.test.ts'],
  [BOT_ROUTE_RULES, '../../modules/bots/bots.api.test.ts'],
  [CHAT_ROUTE_RULES, '../../modules/chat/chat.api.test.ts'],
  [HELPDESK_ROUTE_RULES, '../../modules/helpdesk/helpdesk.api.test.ts'],
  [HANDOFF_ROUTE_RULES, '../../modules/handoff/handoff.api.test.ts'],
  [SOCIAL_ROUTE_RULES, '../../modules/social/social.api.test.ts'],
  [WHATSAPP_ROUTE_RULES, '../../modules/whatsapp/whatsapp.api.test.ts'],
  [SHOPIFY_ROUTE_RULES, '../../modules/stores/shopify/shopify.api.test.ts'],
  [WOO_ROUTE_RULES, '../../modules/stores/woocommerce/woo.api.test.ts'],
  [
    BILLING_ROUTE_RULES,
    ['../../modules/billing/billing.api.test.ts', '../../modules/billing/complimentary.api.test.ts'],
  ],
  [PAYMENT_ROUTE_RULES, '../../modules/billing/payments/payments.api.test.ts'],
  [SHOPIFY_BILLING_ROUTE_RULES, '../../modules/billing/shopify/shopify-billing.api.test.ts'],
  [AFFILIATE_ROUTE_RULES, '../../modules/affiliates/affiliates.api.test.ts'],
  [ADMIN_ROUTE_RULES, '../../modules/admin/admin.api.test.ts'],
  [NOTIFICATION_ROUTE_RULES, '../../modules/notifications/notifications.api.test.ts'],
  [INTEGRATION_ROUTE_RULES, '../../modules/integrations/integrations.api.test.ts'],
];
const moduleRoute = (key: string) => MODULE_TESTS.some(([rules]) => key in rules);

/** Ids that exist nowhere: a foreign id must answer exactly as these do. */
const GHOST: Ids = {
  tenantId: 99_999_991,
  ownerId: 99_999_992,
  userId: 99_999_993,
  roleId: 99_999_994,
  ownerRoleId: 99_999_995,
  memberRoleId: 99_999_996,
  featureId: 99_999_997,
  jobId: '00000000-0000-4000-8000-000000000000',
  invitationId: 99_999_998,
};

/** A request to each route guarded by a subject that would succeed for someone allowed (own ids). */
const VALID: Partial<Record<RouteKey, (own: Ids) => Call>> = {
  'POST /auth/invite-user': (own) => ({
    method: 'POST',
    path: '/api/auth/invite-user',
    body: { email: ghostEmail(), role_id: own.roleId },
  }),
  'GET /auth/user/all/:tenantId': (own) => ({ method: 'GET', path: `/api/auth/user/all/${own.tenantId}` }),
  'GET /auth/user/teammates/:tenantId': (own) => ({
    method: 'GET',
    path: `/api/auth/user/teammates/${own.tenantId}`,
  }),
  'DELETE /auth/user/:id': (own) => ({ method: 'DELETE', path: `/api/auth/user/${own.userId}` }),
  'GET /role/roles/:tenantId': (own) => ({ method: 'GET', path: `/api/role/roles/${own.tenantId}` }),
  'GET /role/features': () => ({ method: 'GET', path: '/api/role/features' }),
  'GET /auth/invitations': () => ({ method: 'GET', path: '/api/auth/invitations' }),
  'POST /auth/invitations/:id/resend': (own) => ({
    method: 'POST',
    path: `/api/auth/invitations/${own.invitationId}/resend`,
  }),
  'DELETE /auth/invitations/:id': (own) => ({
    method: 'DELETE',
    path: `/api/auth/invitations/${own.invitationId}`,
  }),
  'POST /role/create': () => ({
    method: 'POST',
    path: '/api/role/create',
    body: { name: `Sneaky ${randomUUID().slice(0, 6)}` },
  }),
  'POST /role/feature-permissions': () => ({
    method: 'POST',
    path: '/api/role/feature-permissions',
    body: { name: `Sneaky ${randomUUID().slice(0, 6)}` },
  }),
  'PATCH /role/:id': (own) => ({
    method: 'PATCH',
    path: `/api/role/${own.roleId}`,
    body: { name: `Renamed ${randomUUID().slice(0, 6)}` },
  }),
  'DELETE /role/:id': (own) => ({ method: 'DELETE', path: `/api/role/${own.roleId}` }),
  'DELETE /role/feature/:id': (own) => ({ method: 'DELETE', path: `/api/role/feature/${own.featureId}` }),
  'PATCH /role/feature/:id/archive': (own) => ({
    method: 'PATCH',
    path: `/api/role/feature/${own.featureId}/archive`,
    body: { is_archived: true },
  }),
  'POST /role/assign-feature-permissions': (own) => ({
    method: 'POST',
    path: '/api/role/assign-feature-permissions',
    body: { role_id: own.memberRoleId, feature_permissions: [grant(platformRoles.id)] },
  }),
  'POST /role/assign-role': (own) => ({
    method: 'POST',
    path: '/api/role/assign-role',
    body: { user_id: own.userId, role_id: own.ownerRoleId },
  }),
};

/** Valid bodies for routes whose path id is being tested, so a 400 comes from the id alone. */
const BODY_FOR: Partial<Record<RouteKey, unknown>> = {
  'PUT /auth/user/profile/:id': { first_name: 'Valid' },
  'PUT /auth/user/password/:id': { current_password: PASSWORD, new_password: NEW_PASSWORD },
  'PATCH /role/feature/:id/archive': { is_archived: true },
  'PATCH /role/:id': { name: 'Valid name' },
};

const rules = Object.entries(ROUTE_RULES) as Array<[RouteKey, RouteRule]>;
const splitKey = (key: RouteKey) => {
  const [method, path] = key.split(' ') as [Method, string];
  return { method, path };
};
/** A route's path with each `:param` replaced. */
const pathOf = (key: RouteKey, value: string) => `/api${splitKey(key).path.replace(/:[A-Za-z]+/g, value)}`;

/** Everything of a workspace a cross-tenant request could change: what its owner sees, invitations and mail. */
async function snapshot(ws: Workspace) {
  const [users, roles, features, job, invited, mailed] = await Promise.all([
    server.get<User[]>(`/api/auth/user/all/${ws.ids.tenantId}`, as(ws.owner)),
    server.get<Role[]>(`/api/role/roles/${ws.ids.tenantId}`, as(ws.owner)),
    server.get<Feature[]>('/api/role/features', as(ws.owner)),
    server.get(`/api/jobs/${ws.ids.jobId}`, as(ws.owner)),
    server.database.db.$count(invitations, eq(invitations.tenantId, ws.ids.tenantId)),
    server.database.db.$count(mailOutbox, eq(mailOutbox.tenantId, ws.ids.tenantId)),
  ]);
  for (const reply of [users, roles, features, job])
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { users: users.body, roles: roles.body, features: features.body, job: job.body, invited, mailed };
}

/** Both workspaces, plus proof that nobody's password changed. */
async function everything() {
  const [snapA, snapB] = await Promise.all([snapshot(a), snapshot(b)]);
  return { a: snapA, b: snapB };
}
async function expectPasswordsUnchanged() {
  for (const account of [a.owner, a.teammate, b.owner, b.teammate]) {
    const login = await server.post('/api/auth/login', { username: account.user.email, password: PASSWORD });
    expect(login.status, `${account.user.email} still signs in with the old password`).toBe(200);
  }
}

async function makeWorkspace(): Promise<Workspace> {
  const owner = await signupOwner(server);
  const role = await createRole(server, owner, { Home: { read: true } });
  const teammate = await addTeammate(server, owner, role, readToken);
  const created = await server.post<Feature>(
    '/api/role/feature-permissions',
    { name: `Private ${randomUUID().slice(0, 6)}` },
    as(owner),
  );
  expect(created.status).toBe(201);
  const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
  // A job of this workspace that no worker handles, so it stays readable by id.
  const jobId = await server.parley.jobs.enqueue('test.tenancy', {}, { tenantId: owner.user.tenant_id });
  const invited = await server.post(
    '/api/auth/invite-user',
    { email: ghostEmail(), role_id: role.id },
    as(owner),
  );
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const pending = await server.get<Array<{ id: number }>>('/api/auth/invitations', as(owner));
  expect(pending.status).toBe(200);
  return {
    owner,
    teammate,
    role,
    feature: created.body,
    ids: {
      tenantId: owner.user.tenant_id,
      ownerId: owner.user.id,
      userId: teammate.user.id,
      roleId: role.id,
      ownerRoleId: roles.body.find((r) => r.is_owner)!.id,
      memberRoleId: roles.body.find((r) => r.name === 'Member')!.id,
      featureId: created.body.id,
      jobId,
      invitationId: pending.body[0]!.id,
    },
  };
}

/** Routes of the OpenAPI document that take an id (path, query or body), as ROUTE_RULES keys. */
type Schema = { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; allOf?: Schema[] };
type Operation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
function idFieldsOf(schema: Schema | undefined, found: string[] = []): string[] {
  if (!schema) return found;
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (/(^|_)ids?$/.test(name)) found.push(name);
    idFieldsOf(child, found);
  }
  idFieldsOf(schema.items, found);
  for (const sub of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) idFieldsOf(sub, found);
  return found;
}
async function idBearingRoutesFromOpenApi(): Promise<Map<string, string[]>> {
  const doc = await server.get<{ paths: Record<string, Record<string, Operation>> }>('/api/docs/json');
  expect(doc.status).toBe(200);
  const routes = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.body.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method.toUpperCase()} ${path.replace(/^\/api/, '').replace(/\{([^}]+)\}/g, ':$1')}`;
      const fields = [
        ...(operation.parameters ?? [])
          .filter((p) => p.in === 'path' || /(^|_)ids?$/.test(p.name))
          .map((p) => p.name),
        ...Object.values(operation.requestBody?.content ?? {}).flatMap((c) => idFieldsOf(c.schema)),
      ];
      if (fields.length > 0) routes.set(key, fields);
    }
  }
  return routes;
}

beforeAll(async () => {
  server = await startTestServer();
  a = await makeWorkspace();
  b = await makeWorkspace();
  const features = await server.get<Feature[]>('/api/role/features', as(a.owner));
  platformRoles = features.body.find((f) => f.name === 'Roles' && f.tenant_id === null)!;
});
afterAll(async () => {
  await server?.close();
});

describe('the case lists', () => {
  it('cover every id-bearing route of ROUTE_RULES and of the OpenAPI document', async () => {
    const fromOpenApi = await idBearingRoutesFromOpenApi();
    // The detection itself works: the routes known to take ids in the body are found.
    expect(fromOpenApi.get('POST /auth/invite-user')).toEqual(['role_id']);
    expect(fromOpenApi.get('POST /role/assign-feature-permissions')).toEqual([
      'role_id',
      'feature_permission_id',
    ]);
    expect(fromOpenApi.get('POST /role/assign-role')).toEqual(['user_id', 'role_id']);

    const idBearing = new Set<string>([
      ...rules.map(([key]) => key).filter((key) => key.includes('/:')),
      ...fromOpenApi.keys(),
    ]);
    const missing = [...idBearing].filter(
      (key) => !(key in CROSS_TENANT) && !(key in EXEMPT) && !moduleRoute(key),
    );
    expect(missing, 'id-bearing routes without a cross-tenant case (add one to CROSS_TENANT)').toEqual([]);
    for (const key of [...Object.keys(CROSS_TENANT), ...Object.keys(EXEMPT)]) {
      expect(ROUTE_RULES, `${key} is a route`).toHaveProperty([key]);
      expect(idBearing.has(key), `${key} takes an id`).toBe(true);
    }
    for (const key of Object.keys(EXEMPT) as RouteKey[])
      expect(ROUTE_RULES[key], key).toEqual({ public: true });
    // Every route guarded by a subject has a valid request for the permission matrix.
    const guarded = rules.filter(([key, rule]) => 'subject' in rule && !moduleRoute(key)).map(([key]) => key);
    expect(guarded.filter((key) => !(key in VALID))).toEqual([]);
  });
});

describe('feature modules', () => {
  it('name every route of theirs in their own API test, which holds its cross-tenant cases', () => {
    for (const [moduleRules, files] of MODULE_TESTS) {
      const keys = Object.keys(moduleRules);
      if (keys.length === 0) continue;
      const file = [files].flat().join(', ');
      const source = [files]
        .flat()
        .map((f) => readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8'))
        .join('\n');
      for (const key of keys) {
        const literal = key.split(' ')[1]!.split('/:')[0]!;
        expect(source.includes(literal), `${key} is exercised in ${file}`).toBe(true);
      }
      // Other workspaces' ids can only be tried where a route takes one.
      if (keys.some((key) => key.includes('/:')))
        expect(source, `${file} checks other workspaces' ids`).toMatch(/404/);
      expect(source, `${file} checks permissions`).toMatch(/403/);
    }
  });
});

describe("another workspace's ids", () => {
  it("answer 404 on every id-bearing route, exactly like ids that don't exist, and change nothing", async () => {
    const before = await everything();
    const ownB = b.ids;
    let checked = 0;
    for (const [key, cases] of Object.entries(CROSS_TENANT) as Array<
      [RouteKey, Array<(t: Ids, own: Ids) => Call>]
    >) {
      for (const [index, make] of cases.entries()) {
        const label = `${key} #${index + 1}`;
        const foreign = await send(make(a.ids, ownB), b.owner.access_token);
        expect(foreign.status, `${label}: ${JSON.stringify(foreign.body)}`).toBe(404);
        expect(foreign.body, label).toEqual({ detail: expect.any(String) });
        const ghost = await send(make(GHOST, ownB), b.owner.access_token);
        expect(ghost.status, `${label} (unknown id)`).toBe(404);
        expect(foreign.body, `${label}: same answer as an unknown id`).toEqual(ghost.body);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(Object.keys(CROSS_TENANT).length);
    expect(await everything()).toEqual(before);
    await expectPasswordsUnchanged();
  });

  it("answer 404 to a teammate too, whatever their permissions (B's teammate, Roles write)", async () => {
    // Inbox read as well: the inbox's teammates list is one of these routes.
    const writer = await createRole(server, b.owner, {
      Roles: { create: true, read: true, write: true },
      Inbox: { read: true },
    });
    const teammate = await addTeammate(server, b.owner, writer, readToken);
    const before = await everything();
    for (const [key, cases] of Object.entries(CROSS_TENANT) as Array<
      [RouteKey, Array<(t: Ids, own: Ids) => Call>]
    >) {
      const reply = await send(cases[0]!(a.ids, b.ids), teammate.access_token);
      expect(reply.status, `${key}: ${JSON.stringify(reply.body)}`).toBe(404);
    }
    expect(await everything()).toEqual(before);
    await expectPasswordsUnchanged();
  });

  it('still work for their own workspace (the 404s above are isolation, not bad ids)', async () => {
    for (const call of [
      { method: 'GET', path: `/api/auth/user/all/${a.ids.tenantId}` },
      { method: 'GET', path: `/api/role/roles/${a.ids.tenantId}` },
      { method: 'GET', path: `/api/jobs/${a.ids.jobId}` },
    ] as Call[]) {
      expect((await send(call, a.owner.access_token)).status, call.path).toBe(200);
    }
    const profile = await send<User>(
      { method: 'PUT', path: `/api/auth/user/profile/${a.ids.userId}`, body: { first_name: 'Grace' } },
      a.owner.access_token,
    );
    expect(profile.status).toBe(200);
  });

  it("never show up in another workspace's lists", async () => {
    const [users, roles, features] = await Promise.all([
      server.get<User[]>(`/api/auth/user/all/${b.ids.tenantId}`, as(b.owner)),
      server.get<Role[]>(`/api/role/roles/${b.ids.tenantId}`, as(b.owner)),
      server.get<Feature[]>('/api/role/features', as(b.owner)),
    ]);
    expect(users.body.map((u) => u.tenant_id)).toEqual(users.body.map(() => b.ids.tenantId));
    expect(users.body.map((u) => u.id)).not.toContain(a.ids.userId);
    expect(roles.body.map((r) => r.tenant_id)).toEqual(roles.body.map(() => b.ids.tenantId));
    expect(features.body.map((f) => f.id)).not.toContain(a.ids.featureId);
    expect(features.body.filter((f) => f.tenant_id !== null).map((f) => f.tenant_id)).toEqual([
      b.ids.tenantId,
    ]);
    expect(features.body.filter((f) => f.tenant_id === null)).toHaveLength(SEEDED_FEATURES.length);
  });

  it("never show up on another workspace's Home (its bots, or a tick on its checklist)", async () => {
    const bot = await insertBot(server, a.ids.tenantId);
    for (const account of [b.owner, b.teammate]) {
      const home = await server.get<HomeSummary>('/api/home/summary', as(account));
      expect(home.status, JSON.stringify(home.body)).toBe(200);
      expect(home.body.bots.map((found) => found.bot_id)).not.toContain(bot.id);
      expect(home.body.bot_count).toBe(0);
    }
    const owners = await server.get<HomeSummary>('/api/home/summary', as(b.owner));
    expect(owners.body.checklist?.find((item) => item.step === 'create_bot')?.done).toBe(false);
  });
});

describe('malformed ids', () => {
  // Platform-admin and partner routes answer a workspace owner 403 before reading the path;
  // billing.api.test.ts and affiliates.api.test.ts send them malformed ids as an admin and a partner.
  const pathRoutes = rules.filter(
    ([key, rule]) =>
      key.includes('/:') && !('subject' in rule && (rule.subject === 'Admin' || rule.subject === 'Partner')),
  );

  it.each(['abc', '0', '-1', '1.5', '', '%20'])(
    'answer 400 with a detail for %j on every route with a path id',
    async (bad) => {
      const before = await everything();
      for (const [key, rule] of pathRoutes) {
        const { method } = splitKey(key);
        const token = 'public' in rule ? undefined : a.owner.access_token;
        const reply = await send({ method, path: pathOf(key, bad), body: BODY_FOR[key] }, token);
        expect(reply.status, `${key} with ${JSON.stringify(bad)}: ${JSON.stringify(reply.body)}`).toBe(400);
        expect(reply.body, key).toEqual({ detail: expect.stringMatching(/\S/) });
      }
      expect(await everything()).toEqual(before);
    },
  );

  it('answer 400 for empty, zero, negative or non-numeric ids in bodies', async () => {
    const before = await everything();
    const own = a.ids;
    const bodies: Array<[string, (bad: unknown) => unknown]> = [
      ['/api/auth/invite-user', (bad) => ({ email: ghostEmail(), role_id: bad })],
      [
        '/api/role/assign-feature-permissions',
        (bad) => ({ role_id: bad, feature_permissions: [grant(platformRoles.id)] }),
      ],
      [
        '/api/role/assign-feature-permissions',
        (bad) => ({
          role_id: own.roleId,
          feature_permissions: [{ ...grant(platformRoles.id), feature_permission_id: bad }],
        }),
      ],
      ['/api/role/assign-role', (bad) => ({ user_id: bad, role_id: own.roleId })],
      ['/api/role/assign-role', (bad) => ({ user_id: own.userId, role_id: bad })],
    ];
    for (const [path, body] of bodies) {
      for (const bad of ['', 'abc', 0, -1, 1.5, null]) {
        const reply = await server.post(path, body(bad), as(a.owner));
        expect(reply.status, `${path} ${JSON.stringify(body(bad))}: ${JSON.stringify(reply.body)}`).toBe(400);
        expect(reply.body).toEqual({ detail: expect.stringMatching(/\S/) });
      }
    }
    expect(await everything()).toEqual(before);
  });
});

describe('the permission map', () => {
  // Feature modules check their own permissions in their API tests (they need their own fixtures).
  const guarded = rules.filter(
    (entry): entry is [RouteKey, Extract<RouteRule, { subject: string }>] =>
      'subject' in entry[1] && !moduleRoute(entry[0]),
  );

  it('refuses a Member (no Roles feature) with 403 and a detail on every Roles route, changing nothing', async () => {
    const member = await addTeammate(
      server,
      a.owner,
      (await server.get<Role[]>(`/api/role/roles/${a.ids.tenantId}`, as(a.owner))).body.find(
        (r) => r.name === 'Member',
      )!,
      readToken,
    );
    const before = await everything();
    const rolesRoutes = guarded.filter(([, rule]) => rule.subject === 'Roles');
    expect(rolesRoutes.length).toBeGreaterThanOrEqual(10);
    for (const [key] of rolesRoutes) {
      const reply = await send(VALID[key]!(a.ids), member.access_token);
      expect(reply.status, `${key}: ${JSON.stringify(reply.body)}`).toBe(403);
      expect(reply.body, key).toEqual({ detail: MESSAGES.auth.forbidden });
    }
    expect(await everything()).toEqual(before);
  });

  it('refuses a role that holds everything but the one action a route needs, and admits one holding only that', async () => {
    const pairs = [...new Set(guarded.map(([, rule]) => `${rule.action} ${rule.subject}`))];
    for (const pair of pairs) {
      const [action, ...rest] = pair.split(' ') as ['create' | 'read' | 'write', ...string[]];
      const subject = rest.join(' ');
      const allBut = Object.fromEntries(
        SEEDED_FEATURES.map((name) => {
          const flags = { create: true, read: true, write: true };
          if (name === subject) flags[action] = false;
          // User Role read also grants read on Roles.
          if (name === 'User Role' && subject === 'Roles' && action === 'read') flags.read = false;
          return [name, flags];
        }),
      );
      const lacking = await addTeammate(
        server,
        a.owner,
        await createRole(server, a.owner, allBut),
        readToken,
      );
      const only = await addTeammate(
        server,
        a.owner,
        await createRole(server, a.owner, { [subject]: { [action]: true } }),
        readToken,
      );

      for (const [key, rule] of guarded.filter(([, r]) => r.subject === subject && r.action === action)) {
        // A request that fails validation: the guard runs first, so 403 or, once past it, 400.
        const hasInput = key.includes('/:') || !['GET', 'DELETE'].includes(splitKey(key).method);
        const probe: Call = {
          method: splitKey(key).method,
          path: pathOf(key, 'abc'),
          body: hasInput ? {} : undefined,
        };
        const refused = await send(probe, lacking.access_token);
        expect(refused.status, `${key} without ${rule.action} ${rule.subject}`).toBe(403);
        expect(refused.body).toEqual({ detail: MESSAGES.auth.forbidden });
        const admitted = await send(probe, only.access_token);
        expect(
          admitted.status,
          `${key} with only ${rule.action} ${rule.subject}: ${JSON.stringify(admitted.body)}`,
        ).toBe(hasInput ? 400 : 200);
      }
    }
  });

  it('answers 401 with a detail to unauthenticated calls on every non-public route', async () => {
    const before = await everything();
    for (const [key, rule] of rules) {
      if ('public' in rule) continue;
      const call: Call = {
        method: splitKey(key).method,
        path: pathOf(key, '1'),
        body: BODY_FOR[key] ?? VALID[key]?.(a.ids).body,
      };
      for (const token of [undefined, 'not-a-token', `${a.owner.access_token}x`]) {
        const reply = await send(call, token);
        expect(reply.status, `${key} with ${token ? 'a bad token' : 'no token'}`).toBe(401);
        expect(reply.body).toEqual({ detail: MESSAGES.auth.notAuthenticated });
      }
    }
    expect(await everything()).toEqual(before);
  });
});
