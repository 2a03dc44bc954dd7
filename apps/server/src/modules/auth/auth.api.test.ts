import { type AuthResponse, MESSAGES, SEEDED_FEATURES, type User } from '@parley/contracts';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../core/crypto.js';
import { PASSWORD, signupOwner } from '../../test/factories.js';
import { refreshCookie, startTestServer, TEST_SECRET, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const signupBody = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email,
  password: PASSWORD,
});

describe('signup', () => {
  it('creates a workspace whose owner holds every feature, and sets a strict httpOnly refresh cookie', async () => {
    const reply = await server.post<AuthResponse>('/api/auth/signup', {
      ...signupBody('New.Owner@Example.com'),
      company_name: 'Acme',
    });
    expect(reply.status).toBe(201);
    const { user } = reply.body;
    expect(user).toMatchObject({
      email: 'new.owner@example.com',
      tenant_name: 'Acme',
      user_type: 'user',
      first_name: 'Ada',
    });
    expect(user.roles).toHaveLength(1);
    expect(user.roles[0]).toMatchObject({ name: 'Owner', is_owner: true });
    const granted = user.roles[0]!.feature_permissions.filter(
      (p) => p.can_create && p.can_read && p.can_write,
    );
    expect(granted.map((p) => p.feature_permission.name).sort()).toEqual([...SEEDED_FEATURES].sort());
    expect(JSON.stringify(reply.body)).not.toMatch(/password/i);
    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith('parley_refresh='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
  });

  it('issues an access token of at most 15 minutes', async () => {
    const owner = await signupOwner(server);
    const claims = decodeJwt(owner.access_token);
    expect(owner.expires_in).toBeLessThanOrEqual(900);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(900);
  });

  it.each([
    [{ ...signupBody('a@example.com'), password: 'short' }, 'Password must be at least 8 characters'],
    [{ ...signupBody('not-an-email') }, 'Enter a valid email address'],
    [{ ...signupBody('b@example.com'), first_name: '  ' }, 'First name is required'],
    [{ last_name: 'x', email: 'c@example.com', password: PASSWORD }, 'First name is required'],
  ])('refuses invalid input with a clear detail (%#)', async (body, detail) => {
    const reply = await server.post('/api/auth/signup', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail });
  });

  it('refuses an email or username already taken, whatever the case', async () => {
    const owner = await signupOwner(server);
    const again = await server.post('/api/auth/signup', signupBody(owner.user.email.toUpperCase()));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: MESSAGES.auth.emailTaken });
    const sameName = await server.post('/api/auth/signup', {
      ...signupBody('fresh@example.com'),
      username: owner.user.username.toUpperCase(),
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ detail: MESSAGES.auth.usernameTaken });
  });

  it('refuses malformed JSON and oversized bodies without writing anything', async () => {
    const broken = await server.post('/api/auth/signup', '{"email":');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ detail: 'The request body is not valid JSON' });
    const huge = await server.post('/api/auth/signup', {
      ...signupBody('huge@example.com'),
      company_name: 'x'.repeat(2_000_000),
    });
    expect(huge.status).toBe(413);
    const login = await server.post('/api/auth/login', { username: 'huge@example.com', password: PASSWORD });
    expect(login.status).toBe(401);
  });
});

describe('login', () => {
  it('accepts the email or the username, in any case', async () => {
    const owner = await signupOwner(server);
    for (const name of [owner.user.email, owner.user.username.toUpperCase()]) {
      const reply = await server.post<AuthResponse>('/api/auth/login', {
        username: name,
        password: PASSWORD,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.user.id).toBe(owner.user.id);
      expect(refreshCookie(reply.headers)).toBeTruthy();
    }
    const alias = await server.post<AuthResponse>('/api/auth/login', {
      email: owner.user.email,
      password: PASSWORD,
    });
    expect(alias.status).toBe(200);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const owner = await signupOwner(server);
    const wrong = await server.post('/api/auth/login', {
      username: owner.user.email,
      password: 'wrong password',
    });
    const unknown = await server.post('/api/auth/login', {
      username: 'nobody@example.com',
      password: 'wrong password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ detail: MESSAGES.auth.invalidCredentials });
    expect(unknown.body).toEqual(wrong.body);
  });
});

describe('access tokens', () => {
  const key = new Uint8Array(deriveKey(TEST_SECRET, 'access-token'));

  it('returns the current user for a valid token', async () => {
    const owner = await signupOwner(server);
    const me = await server.get<User>('/api/auth/user', { token: owner.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(owner.user);
  });

  it('refuses a missing, garbled, unsigned, wrongly signed or expired token with 401', async () => {
    const owner = await signupOwner(server);
    const claims = decodeJwt(owner.access_token);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const [header, payload] = owner.access_token.split('.');
    const wrongSignature = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    const foreignKey = await new SignJWT({ tid: claims.tid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(owner.user.id))
      .setIssuer('parley')
      .setAudience('parley-api')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const expired = await new SignJWT({ tid: claims.tid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(owner.user.id))
      .setIssuer('parley')
      .setAudience('parley-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    // The same key, but claiming another tenant: the user is not in it, so nobody is found.
    const otherTenant = await new SignJWT({ tid: Number(claims.tid) + 1000, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(owner.user.id))
      .setIssuer('parley')
      .setAudience('parley-api')
      .setExpirationTime('5m')
      .sign(key);
    expect((await server.get('/api/auth/user')).status).toBe(401);
    for (const token of ['garbage', unsigned, wrongSignature, foreignKey, expired, otherTenant]) {
      const reply = await server.get('/api/auth/user', { token });
      expect(reply.status, token).toBe(401);
      expect(reply.body).toEqual({ detail: MESSAGES.auth.notAuthenticated });
    }
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh token; reusing a rotated one revokes the whole family', async () => {
    const owner = await signupOwner(server);
    const first = await server.post<AuthResponse>('/api/auth/refresh', undefined, { cookie: owner.cookie });
    expect(first.status).toBe(200);
    expect(first.body.user.id).toBe(owner.user.id);
    const second = refreshCookie(first.headers)!;
    expect(second).not.toBe(owner.cookie);
    const me = await server.get('/api/auth/user', { token: first.body.access_token });
    expect(me.status).toBe(200);

    const reuse = await server.post('/api/auth/refresh', undefined, { cookie: owner.cookie });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ detail: MESSAGES.auth.sessionExpired });
    // The family is gone: the legitimate newest token no longer works either.
    expect((await server.post('/api/auth/refresh', undefined, { cookie: second })).status).toBe(401);
  });

  it('keeps other sign-ins alive when one family is revoked', async () => {
    const owner = await signupOwner(server);
    const login = await server.post('/api/auth/login', { username: owner.user.email, password: PASSWORD });
    const other = refreshCookie(login.headers)!;
    await server.post('/api/auth/refresh', undefined, { cookie: owner.cookie });
    await server.post('/api/auth/refresh', undefined, { cookie: owner.cookie });
    expect((await server.post('/api/auth/refresh', undefined, { cookie: other })).status).toBe(200);
  });

  it('refuses refresh without a cookie and after logout', async () => {
    const owner = await signupOwner(server);
    expect((await server.post('/api/auth/refresh')).status).toBe(401);
    const out = await server.post('/api/auth/logout', undefined, { cookie: owner.cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join(';')).toMatch(/parley_refresh=;/);
    expect((await server.post('/api/auth/refresh', undefined, { cookie: owner.cookie })).status).toBe(401);
  });
});
