import { type AuthResponse, MESSAGES, type PendingInvitation, type Role } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

let smtp: SmtpCapture;
let server: TestServer;
let owner: Account;
let member: Role;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  owner = await signupOwner(server);
  const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
  member = roles.body.find((r) => r.name === 'Member')!;
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const as = (account: Account) => ({ token: account.access_token });
const unique = () => Math.random().toString(36).slice(2, 8);
const readToken = async (email: string) => tokenFromText((await smtp.waitFor(email)).text);
/** The invitation tokens mailed to `email`, oldest first, once there are `count` of them. */
async function mailedTokens(email: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = smtp.mails.filter((m) => m.to.includes(email));
    if (mails.length >= count) return mails.map((m) => tokenFromText(m.text));
    if (Date.now() > deadline) throw new Error(`fewer than ${count} mails to ${email}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const invite = async (email: string, by: Account = owner, role: Role = member) => {
  const reply = await server.post('/api/auth/invite-user', { email, role_id: role.id }, as(by));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
};
const listPending = async (account: Account = owner) => {
  const reply = await server.get<PendingInvitation[]>('/api/auth/invitations', as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const pendingFor = async (email: string, account: Account = owner) =>
  (await listPending(account)).find((i) => i.email === email);
const signupWith = (email: string, token: string) =>
  server.post<AuthResponse>('/api/auth/signup', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email,
    password: PASSWORD,
    token,
  });

it('lists pending invitations with role, inviter and dates; accepted ones leave the list', async () => {
  const [waiting, joining] = [`wait-${unique()}@example.com`, `join-${unique()}@example.com`];
  await invite(waiting);
  await invite(joining);
  const entry = await pendingFor(waiting);
  expect(entry).toMatchObject({
    email: waiting,
    role_id: member.id,
    role_name: 'Member',
    invited_by: `${owner.user.first_name} ${owner.user.last_name}`,
  });
  const days = (Date.parse(entry!.expires_at) - Date.parse(entry!.sent_at)) / 86_400_000;
  expect(days).toBeCloseTo(7, 1);

  expect((await signupWith(joining, await readToken(joining))).status).toBe(201);
  expect(await pendingFor(joining)).toBeUndefined();
  expect(await pendingFor(waiting)).toBeDefined();
});

it('resends with a new link: the old one stops working, the new one joins', async () => {
  const email = `resend-${unique()}@example.com`;
  await invite(email);
  const [first] = await mailedTokens(email, 1);
  const before = (await pendingFor(email))!;

  const resent = await server.post<{ message: string }>(
    `/api/auth/invitations/${before.id}/resend`,
    {},
    as(owner),
  );
  expect(resent.status, JSON.stringify(resent.body)).toBe(200);
  expect(resent.body.message).toBe(MESSAGES.users.inviteResent);
  const [, second] = await mailedTokens(email, 2);
  expect(second).not.toBe(first);
  expect((await pendingFor(email))!.id).toBe(before.id);

  expect((await server.get(`/api/auth/invited-user/${first}`)).status).toBe(404);
  const stale = await signupWith(email, first!);
  expect(stale.status).toBe(400);
  expect(stale.body).toEqual({ detail: MESSAGES.auth.invitationInvalid });
  expect((await signupWith(email, second!)).status).toBe(201);
});

it('revokes: the link no longer signs anyone up and the invitation leaves the list', async () => {
  const email = `revoke-${unique()}@example.com`;
  await invite(email);
  const token = await readToken(email);
  const { id } = (await pendingFor(email))!;

  const revoked = await server.delete(`/api/auth/invitations/${id}`, as(owner));
  expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
  expect(revoked.body).toEqual({ message: MESSAGES.users.inviteRevoked });
  expect(await pendingFor(email)).toBeUndefined();
  expect((await signupWith(email, token)).status).toBe(400);
  // Gone: neither resent nor revoked twice.
  for (const reply of [
    await server.delete(`/api/auth/invitations/${id}`, as(owner)),
    await server.post(`/api/auth/invitations/${id}/resend`, {}, as(owner)),
  ]) {
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: MESSAGES.users.invitationNotFound });
  }
});

it("keeps workspaces apart: another workspace's invitations are not listed and answer 404", async () => {
  const email = `private-${unique()}@example.com`;
  await invite(email);
  const { id } = (await pendingFor(email))!;
  const stranger = await signupOwner(server);
  expect((await listPending(stranger)).map((i) => i.email)).not.toContain(email);
  for (const reply of [
    await server.post(`/api/auth/invitations/${id}/resend`, {}, as(stranger)),
    await server.delete(`/api/auth/invitations/${id}`, as(stranger)),
  ]) {
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: MESSAGES.users.invitationNotFound });
  }
  expect(await pendingFor(email)).toBeDefined();
  expect(await mailedTokens(email, 1)).toHaveLength(1);
});

it('needs Roles: read to list, create to resend, write to revoke; a bad id is a 400', async () => {
  const email = `guarded-${unique()}@example.com`;
  await invite(email);
  const { id } = (await pendingFor(email))!;
  const teammate = await addTeammate(server, owner, member, readToken);
  const replies = [
    await server.get('/api/auth/invitations', as(teammate)),
    await server.post(`/api/auth/invitations/${id}/resend`, {}, as(teammate)),
    await server.delete(`/api/auth/invitations/${id}`, as(teammate)),
  ];
  for (const reply of replies) {
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: MESSAGES.auth.forbidden });
  }
  expect((await server.delete('/api/auth/invitations/abc', as(owner))).status).toBe(400);
  expect(await pendingFor(email)).toBeDefined();
});

it('resends only what the caller could give: a stronger role is refused (403) and nothing is mailed', async () => {
  const email = `strong-${unique()}@example.com`;
  const strong = await createRole(server, owner, {
    Inbox: { read: true },
    Roles: { create: true, read: true },
  });
  await invite(email, owner, strong);
  const { id } = (await pendingFor(email))!;
  const managerRole = await createRole(server, owner, { Roles: { create: true, read: true } });
  const manager = await addTeammate(server, owner, managerRole, readToken);
  const reply = await server.post(`/api/auth/invitations/${id}/resend`, {}, as(manager));
  expect(reply.status).toBe(403);
  expect(reply.body).toEqual({ detail: MESSAGES.roles.grantBeyondOwn });
  expect(await mailedTokens(email, 1)).toHaveLength(1);
});

it('keeps an expired invitation in the list, marked expired and without a link, until resent or revoked', async () => {
  const [late, dropped] = [`late-${unique()}@example.com`, `dropped-${unique()}@example.com`];
  await invite(late);
  await invite(dropped);
  const [stale] = await mailedTokens(late, 1);
  await server.database.db.execute(
    sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE email IN (${late}, ${dropped})`,
  );
  const expired = (await pendingFor(late))!;
  expect(expired).toMatchObject({ email: late, expired: true, link: null });
  expect((await pendingFor(dropped))!.expired).toBe(true);
  expect((await listPending()).filter((i) => !i.expired).every((i) => i.link !== null)).toBe(true);
  expect((await server.get(`/api/auth/invited-user/${stale}`)).status).toBe(404);

  // Resent: a new week and a link that works, the old one still dead.
  const resent = await server.post<{ message: string; link: string }>(
    `/api/auth/invitations/${expired.id}/resend`,
    {},
    as(owner),
  );
  expect(resent.status, JSON.stringify(resent.body)).toBe(200);
  expect(resent.body.message).toBe(MESSAGES.users.inviteResent);
  const again = (await pendingFor(late))!;
  expect(again).toMatchObject({ id: expired.id, expired: false });
  expect(Date.parse(again.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
  const [, fresh] = await mailedTokens(late, 2);
  expect((await signupWith(late, stale!)).status).toBe(400);
  expect((await signupWith(late, fresh!)).status).toBe(201);

  // Revoked: it leaves the list.
  const { id } = (await pendingFor(dropped))!;
  expect((await server.delete(`/api/auth/invitations/${id}`, as(owner))).status).toBe(200);
  expect(await pendingFor(dropped)).toBeUndefined();
});
