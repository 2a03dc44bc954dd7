import { type Addon, BILLING_TEXTS, MESSAGES, type PendingInvitation } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { subscriptionAddons } from '../billing/billing.schema.js';

/**
 * An expired invitation holds no seat of the plan (someone else may take it), so resending it takes
 * one again: refused while the plan is full, like a new invitation.
 */
let server: TestServer;
let owner: Account;
const as = (account: Account) => ({ token: account.access_token });
const invite = (email: string) =>
  server.post('/api/auth/invite-user', { email, role_id: owner.user.roles[0]!.id }, as(owner));
const pending = async () => (await server.get<PendingInvitation[]>('/api/auth/invitations', as(owner))).body;

beforeAll(async () => {
  server = await startTestServer({ env: { PLAN_LIMITS: 'on' } });
  owner = await signupOwner(server);
  // The Free plan's one seat (the owner) and one bought: room for one teammate.
  const seat = (await server.get<Addon[]>('/api/pricing/addons', as(owner))).body.find(
    (a) => a.kind === 'team_members',
  )!;
  await server.database.db
    .insert(subscriptionAddons)
    .values({ tenantId: owner.user.tenant_id, addonId: seat.id, quantity: 1, status: 'active' });
});
afterAll(() => server.close());

it('resends an expired invitation only while the plan has a seat for it', async () => {
  expect((await invite('first@example.com')).status).toBe(201);
  await server.database.db.execute(
    sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE email = 'first@example.com'`,
  );
  // The expired one freed its seat: someone else is invited in its place.
  expect((await invite('second@example.com')).status).toBe(201);
  const expired = (await pending()).find((i) => i.email === 'first@example.com')!;
  expect(expired.expired).toBe(true);

  const refused = await server.post(`/api/auth/invitations/${expired.id}/resend`, {}, as(owner));
  expect(refused.status).toBe(402);
  expect(refused.body).toEqual({ detail: BILLING_TEXTS.limitReached('team members', 2, 'Free') });
  expect((await pending()).find((i) => i.id === expired.id)?.expired).toBe(true);

  const second = (await pending()).find((i) => i.email === 'second@example.com')!;
  expect((await server.delete(`/api/auth/invitations/${second.id}`, as(owner))).body).toEqual({
    message: MESSAGES.users.inviteRevoked,
  });
  const resent = await server.post(`/api/auth/invitations/${expired.id}/resend`, {}, as(owner));
  expect(resent.status, JSON.stringify(resent.body)).toBe(200);
  expect((await pending()).map((i) => [i.email, i.expired])).toEqual([['first@example.com', false]]);
});
