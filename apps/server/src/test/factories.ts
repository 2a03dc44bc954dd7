import { randomBytes } from 'node:crypto';
import type { AuthResponse, Feature, Role, User } from '@parley/contracts';
import { expect } from 'vitest';
import { type Account, refreshCookie, type TestServer } from './server.js';

const unique = () => randomBytes(4).toString('hex');

export const PASSWORD = 'correct horse battery';

/** Signs up a new workspace owner (a new tenant). */
export async function signupOwner(
  server: TestServer,
  overrides: Record<string, string> = {},
): Promise<Account> {
  const id = unique();
  const body = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `owner-${id}@example.com`,
    password: PASSWORD,
    company_name: `Acme ${id}`,
    ...overrides,
  };
  const reply = await server.post<AuthResponse>('/api/auth/signup', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { ...reply.body, cookie: refreshCookie(reply.headers)!, password: body.password };
}

/** A role in the owner's workspace with exactly these grants (feature name → flags). */
export async function createRole(
  server: TestServer,
  owner: Account,
  grants: Record<string, { create?: boolean; read?: boolean; write?: boolean }>,
): Promise<Role> {
  const created = await server.post<Role>(
    '/api/role/create',
    { name: `Role ${unique()}` },
    { token: owner.access_token },
  );
  expect(created.status).toBe(201);
  const features = await server.get<Feature[]>('/api/role/features', { token: owner.access_token });
  const byName = new Map(features.body.map((f) => [f.name, f.id]));
  const feature_permissions = Object.entries(grants).map(([name, g]) => ({
    feature_permission_id: byName.get(name)!,
    can_create: g.create ?? false,
    can_read: g.read ?? false,
    can_write: g.write ?? false,
  }));
  const assigned = await server.post<Role>(
    '/api/role/assign-feature-permissions',
    { role_id: created.body.id, feature_permissions },
    { token: owner.access_token },
  );
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  return assigned.body;
}

/**
 * A teammate in the owner's workspace with the given role, joined through a real invitation.
 * The token is read from the database's outbox when no SMTP capture is given.
 */
export async function addTeammate(
  server: TestServer,
  owner: Account,
  role: Role,
  readToken: (email: string) => Promise<string>,
): Promise<Account> {
  const email = `member-${unique()}@example.com`;
  const invited = await server.post(
    '/api/auth/invite-user',
    { email, role_id: role.id },
    { token: owner.access_token },
  );
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const token = await readToken(email);
  const reply = await server.post<AuthResponse>('/api/auth/signup', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email,
    password: PASSWORD,
    token,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { ...reply.body, cookie: refreshCookie(reply.headers)!, password: PASSWORD };
}

export const tokenFromText = (text: string): string => {
  const token = /token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation token in: ${text}`);
  return token;
};

export type { User };
