import { type AuthResponse, type InvitedUser, MESSAGES, type Role } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { startTestServer, type TestServer } from '../../test/server.js';

let smtp: SmtpCapture;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const memberRole = async (token: string, tenantId: number) => {
  const roles = await server.get<Role[]>(`/api/role/roles/${tenantId}`, { token });
  return roles.body.find((r) => r.name === 'Member')!;
};

it('invites by mail; the link joins the inviting workspace with the invited role, once', async () => {
  const owner = await signupOwner(server);
  const role = await memberRole(owner.access_token, owner.user.tenant_id);
  const invited = await server.post<{ message: string }>(
    '/api/auth/invite-user',
    { email: 'Teammate@Example.com', role_id: role.id },
    { token: owner.access_token },
  );
  expect(invited.status).toBe(201);
  expect(invited.body.message).toBe(MESSAGES.users.inviteSent);

  const mail = await smtp.waitFor('teammate@example.com', /invited you/);
  expect(mail.subject).toContain(owner.user.tenant_name);
  expect(mail.text).toContain('http://parley.test/signup?token=');
  const token = tokenFromText(mail.text);

  const lookup = await server.get<InvitedUser>(`/api/auth/invited-user/${token}`);
  expect(lookup.status).toBe(200);
  expect(lookup.body).toMatchObject({
    email: 'teammate@example.com',
    tenant_id: owner.user.tenant_id,
    tenant_name: owner.user.tenant_name,
    role_id: role.id,
    role_name: 'Member',
    invited_by: 'Ada Lovelace',
  });

  const joined = await server.post<AuthResponse>('/api/auth/signup', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'teammate@example.com',
    password: PASSWORD,
    token,
  });
  expect(joined.status).toBe(201);
  expect(joined.body.user).toMatchObject({ tenant_id: owner.user.tenant_id, email_verified: true });
  expect(joined.body.user.roles.map((r) => r.id)).toEqual([role.id]);

  expect((await server.get(`/api/auth/invited-user/${token}`)).status).toBe(404);
  const reuse = await server.post('/api/auth/signup', {
    first_name: 'X',
    last_name: 'Y',
    email: 'other@example.com',
    password: PASSWORD,
    token,
  });
  expect(reuse.status).toBe(400);
  expect(reuse.body).toEqual({ detail: MESSAGES.auth.invitationInvalid });
});

it('refuses an invitation used with another email, and leaves it usable', async () => {
  const owner = await signupOwner(server);
  const role = await memberRole(owner.access_token, owner.user.tenant_id);
  await server.post(
    '/api/auth/invite-user',
    { email: 'right@example.com', role_id: role.id },
    { token: owner.access_token },
  );
  const token = tokenFromText((await smtp.waitFor('right@example.com')).text);
  const wrong = await server.post('/api/auth/signup', {
    first_name: 'A',
    last_name: 'B',
    email: 'wrong@example.com',
    password: PASSWORD,
    token,
  });
  expect(wrong.status).toBe(400);
  expect(wrong.body).toEqual({ detail: MESSAGES.auth.invitationEmailMismatch });
  expect(
    (await server.post('/api/auth/login', { username: 'wrong@example.com', password: PASSWORD })).status,
  ).toBe(401);
  expect((await server.get(`/api/auth/invited-user/${token}`)).status).toBe(200);
});

it('replaces an earlier invitation to the same person, and refuses people who already have an account', async () => {
  const owner = await signupOwner(server);
  const role = await memberRole(owner.access_token, owner.user.tenant_id);
  await server.post(
    '/api/auth/invite-user',
    { email: 'twice@example.com', role_id: role.id },
    { token: owner.access_token },
  );
  const firstToken = tokenFromText((await smtp.waitFor('twice@example.com')).text);
  smtp.mails.length = 0;
  await server.post(
    '/api/auth/invite-user',
    { email: 'twice@example.com', role_id: role.id },
    { token: owner.access_token },
  );
  const secondToken = tokenFromText((await smtp.waitFor('twice@example.com')).text);
  expect(secondToken).not.toBe(firstToken);
  expect((await server.get(`/api/auth/invited-user/${firstToken}`)).status).toBe(404);
  expect((await server.get(`/api/auth/invited-user/${secondToken}`)).status).toBe(200);

  const existing = await server.post(
    '/api/auth/invite-user',
    { email: owner.user.email, role_id: role.id },
    { token: owner.access_token },
  );
  expect(existing.status).toBe(409);
  expect(existing.body).toEqual({ detail: MESSAGES.users.alreadyMember });
  // Whatever the case it is typed in; someone of another workspace is told apart, and nothing is sent.
  smtp.mails.length = 0;
  const elsewhere = await signupOwner(server);
  for (const email of [elsewhere.user.email, elsewhere.user.email.toUpperCase()]) {
    const refused = await server.post(
      '/api/auth/invite-user',
      { email, role_id: role.id },
      { token: owner.access_token },
    );
    expect([refused.status, refused.body]).toEqual([409, { detail: MESSAGES.users.inOtherWorkspace }]);
  }
  const upper = await server.post(
    '/api/auth/invite-user',
    { email: owner.user.email.toUpperCase(), role_id: role.id },
    { token: owner.access_token },
  );
  expect(upper.body).toEqual({ detail: MESSAGES.users.alreadyMember });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(smtp.mails).toEqual([]);
});

it('refuses an unknown or expired token without hinting which', async () => {
  expect((await server.get('/api/auth/invited-user/not-a-real-token-at-all')).status).toBe(404);
  const owner = await signupOwner(server);
  const role = await memberRole(owner.access_token, owner.user.tenant_id);
  await server.post(
    '/api/auth/invite-user',
    { email: 'late@example.com', role_id: role.id },
    { token: owner.access_token },
  );
  const token = tokenFromText((await smtp.waitFor('late@example.com')).text);
  await server.database.db.execute(
    (await import('drizzle-orm'))
      .sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE email = 'late@example.com'`,
  );
  const reply = await server.get(`/api/auth/invited-user/${token}`);
  expect(reply.status).toBe(404);
  expect(reply.body).toEqual({ detail: MESSAGES.auth.invitationInvalid });
});

it('mail that the server sent is no longer readable in the outbox', async () => {
  const { mailOutbox } = await import('../../core/db/schema.js');
  const rows = await server.database.db.select().from(mailOutbox);
  const sent = rows.filter((r) => r.status === 'sent');
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.every((r) => r.textBody === null)).toBe(true);
});
