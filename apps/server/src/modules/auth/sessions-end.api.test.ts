import { type AuthResponse, MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTeammate, createRole, PASSWORD, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, refreshCookie, startTestServer, type TestServer } from '../../test/server.js';

/**
 * A password change or reset ends every other session of the account at once: not only the refresh
 * cookies but the access tokens already handed out (which would otherwise work for up to 15 minutes,
 * long enough for whoever stole one to keep going after the owner reset their password).
 */
let server: TestServer;
let owner: Account;
const as = (account: { access_token: string }) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);
const login = (username: string, password: string) =>
  server.post<AuthResponse>('/api/auth/login', { username, password });
const me = (token: string) => server.get('/api/auth/user', { token });

beforeAll(async () => {
  server = await startTestServer();
  owner = await signupOwner(server);
});
afterAll(() => server.close());

describe('a password change', () => {
  it("refuses the other devices' access tokens at once, and this device renews through its new cookie", async () => {
    const teammate = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Home: { read: true } }),
      readToken,
    );
    const otherDevice = await login(teammate.user.email, PASSWORD);
    // Both sessions are in use (and cached) before the change.
    expect((await me(otherDevice.body.access_token)).status).toBe(200);
    expect((await me(teammate.access_token)).status).toBe(200);

    const changed = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: PASSWORD, new_password: 'a much better passphrase' },
      as(teammate),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    for (const token of [otherDevice.body.access_token, teammate.access_token]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ detail: MESSAGES.auth.notAuthenticated });
    }
    const renewed = await server.post<AuthResponse>('/api/auth/refresh', undefined, {
      cookie: refreshCookie(changed.headers)!,
    });
    expect(renewed.status).toBe(200);
    expect((await me(renewed.body.access_token)).status).toBe(200);
    const fresh = await login(teammate.user.email, 'a much better passphrase');
    expect((await me(fresh.body.access_token)).status).toBe(200);
  });

  it('leaves the sessions of teammates alone', async () => {
    const teammate = await addTeammate(
      server,
      owner,
      await createRole(server, owner, { Home: { read: true } }),
      readToken,
    );
    const changed = await server.put(
      `/api/auth/user/password/${teammate.user.id}`,
      { current_password: PASSWORD, new_password: 'another passphrase' },
      as(teammate),
    );
    expect(changed.status).toBe(200);
    expect((await me(owner.access_token)).status).toBe(200);
  });

  it('keeps the access token of a refused change (wrong current password) working', async () => {
    const account = await signupOwner(server);
    const refused = await server.put(
      `/api/auth/user/password/${account.user.id}`,
      { current_password: 'not my password', new_password: 'another passphrase' },
      as(account),
    );
    expect(refused.status).toBe(400);
    expect((await me(account.access_token)).status).toBe(200);
  });
});

describe('a password reset', () => {
  it('refuses every access token issued before it, and says every device was signed out', async () => {
    const account = await signupOwner(server);
    const otherDevice = await login(account.user.email.toUpperCase(), PASSWORD);
    expect((await me(account.access_token)).status).toBe(200);

    await server.post('/api/notification/request-password-reset/', { email: account.user.email });
    const code = /is (\d{6})/.exec(await outboxText(server.database, account.user.email))![1];
    const done = await server.post('/api/notification/complete-password-reset/', {
      email: account.user.email.toUpperCase(),
      otp: code,
      new_password: 'a brand new password',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ message: MESSAGES.otp.passwordReset });
    expect(MESSAGES.otp.passwordReset).toContain('signed out');

    for (const token of [account.access_token, otherDevice.body.access_token]) {
      expect((await me(token)).status).toBe(401);
    }
    for (const cookie of [account.cookie, refreshCookie(otherDevice.headers)!]) {
      expect((await server.post('/api/auth/refresh', undefined, { cookie })).status).toBe(401);
    }
    const signedIn = await login(account.user.email, 'a brand new password');
    expect(signedIn.status).toBe(200);
    expect((await me(signedIn.body.access_token)).status).toBe(200);
  });
});
