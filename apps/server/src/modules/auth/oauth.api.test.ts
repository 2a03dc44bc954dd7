import { type AuthResponse, MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import { type JwksFake, startJwksFake } from '../../test/fakes/jwks.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const CLIENT_ID = 'parley-test.apps.googleusercontent.com';
let jwks: JwksFake;
let server: TestServer;
let unconfigured: TestServer;

beforeAll(async () => {
  jwks = await startJwksFake(CLIENT_ID);
  [server, unconfigured] = await Promise.all([
    startTestServer({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: jwks.url } }),
    startTestServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), unconfigured.close()]);
  await jwks.close();
});

const login = (id_token: string, on = server) =>
  on.post<AuthResponse>('/api/auth/oauth/login', { provider: 'google', id_token });

it('creates a verified account with a workspace on first sign-in, and finds it again by subject', async () => {
  const token = await jwks.signIdToken({
    sub: 'g-1001',
    email: 'Grace@Example.com',
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
  });
  const first = await login(token);
  expect(first.status).toBe(200);
  expect(first.body.user).toMatchObject({
    email: 'grace@example.com',
    first_name: 'Grace',
    last_name: 'Hopper',
    email_verified: true,
  });
  expect(first.body.user.roles[0]?.is_owner).toBe(true);
  const again = await login(
    await jwks.signIdToken({ sub: 'g-1001', email: 'grace@example.com', email_verified: true }),
  );
  expect(again.body.user.id).toBe(first.body.user.id);
  const me = await server.get('/api/auth/user', { token: again.body.access_token });
  expect(me.status).toBe(200);
});

it('links to an existing account with the same verified email', async () => {
  const owner = await signupOwner(server);
  const reply = await login(
    await jwks.signIdToken({ sub: 'g-2002', email: owner.user.email, email_verified: true }),
  );
  expect(reply.status).toBe(200);
  expect(reply.body.user.id).toBe(owner.user.id);
});

it('refuses a token for another audience, from another issuer, or with an unverified email', async () => {
  const tokens = [
    await jwks.signIdToken(
      { sub: 'g-3', email: 'x3@example.com', email_verified: true },
      { audience: 'someone-else' },
    ),
    await jwks.signIdToken(
      { sub: 'g-4', email: 'x4@example.com', email_verified: true },
      { issuer: 'https://evil.example.com' },
    ),
    await jwks.signIdToken({ sub: 'g-5', email: 'x5@example.com', email_verified: false }),
  ];
  for (const token of tokens) {
    const reply = await login(token);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ detail: MESSAGES.auth.googleTokenInvalid });
  }
});

it('says so when Google sign-in is not configured', async () => {
  const token = await jwks.signIdToken({ sub: 'g-6', email: 'x6@example.com', email_verified: true });
  const reply = await login(token, unconfigured);
  expect(reply.status).toBe(400);
  expect(reply.body).toEqual({ detail: MESSAGES.auth.googleNotConfigured });
});

it('tells the sign-in page whether Google is offered, and allows its script only then', async () => {
  const on = await server.get<{ google_client_id: string | null }>('/api/auth/config');
  expect(on.body).toEqual({ google_client_id: CLIENT_ID });
  // The sign-in page's policy (a document's), not the API's, is what lets Google's script run.
  const onPage = await server.get('/login');
  expect(onPage.headers.get('content-security-policy')).toContain('https://accounts.google.com/gsi/client');
  const off = await unconfigured.get('/api/auth/config');
  expect(off.body).toEqual({ google_client_id: null });
  const offPage = await unconfigured.get('/login');
  expect(offPage.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(offPage.headers.get('content-security-policy')).not.toContain('accounts.google.com');
});

it('counts a first Google sign-in through a partner’s link as their referral, and only a first', async () => {
  const partner = await signupOwner(server);
  const as = { token: partner.access_token };
  expect((await server.post('/api/affiliation/partners/become', {}, as)).status).toBe(200);
  const code = `g-${partner.user.id}`;
  expect((await server.post('/api/affiliation/partners/links', { code }, as)).status).toBe(201);
  const click = await fetch(`${server.url}/r/${code}`, {
    redirect: 'manual',
    // A browser's: the click of a crawler sets no cookie.
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
    },
  });
  const cookie = click.headers
    .getSetCookie()
    .find((c) => c.startsWith('parley_ref='))
    ?.split(';')[0];
  expect(cookie).toBeDefined();
  const claims = { email: `referred-${partner.user.id}@example.com`, email_verified: true };
  const signIn = async (sub: string) =>
    server.post(
      '/api/auth/oauth/login',
      { provider: 'google', id_token: await jwks.signIdToken({ sub, ...claims }) },
      { cookie },
    );
  expect((await signIn(`g-ref-${partner.user.id}`)).status).toBe(200);
  // Signing in again, or with a second Google account on the same email, creates no workspace.
  expect((await signIn(`g-ref-${partner.user.id}`)).status).toBe(200);
  expect((await signIn(`g-ref2-${partner.user.id}`)).status).toBe(200);
  const referrals = await server.get<{ total: number }>('/api/affiliation/partners/referrals', as);
  expect(referrals.body.total).toBe(1);
});
