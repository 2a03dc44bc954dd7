import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, signupOwner } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { AUTH_RATE_LIMIT_PER_ACCOUNT: '3', AUTH_RATE_LIMIT_PER_IP: '12', AUTH_SIGNUP_LIMIT_PER_IP: '4' },
  });
});
afterAll(() => server.close());

it('locks an account after its failures, even for the right password, and tells when to retry', async () => {
  const owner = await signupOwner(server);
  for (let i = 0; i < 3; i++) {
    expect(
      (await server.post('/api/auth/login', { username: owner.user.email, password: 'wrong-password' }))
        .status,
    ).toBe(401);
  }
  const locked = await server.post<{ detail: string }>('/api/auth/login', {
    username: owner.user.email,
    password: PASSWORD,
  });
  expect(locked.status).toBe(429);
  expect(locked.body.detail).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
  expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
});

it('counts failures by the account, so its email and its username share one budget', async () => {
  const owner = await signupOwner(server);
  const typed = [owner.user.email, owner.user.username, owner.user.email.toUpperCase()];
  for (const name of typed) {
    expect(
      (await server.post('/api/auth/login', { username: name, password: 'wrong-password' })).status,
    ).toBe(401);
  }
  const locked = await server.post('/api/auth/login', { username: owner.user.username, password: PASSWORD });
  expect(locked.status).toBe(429);
});

it('limits sign-ups per IP with a 429 and Retry-After, creating nothing', async () => {
  // Two sign-ups of the four allowed were made by the tests above.
  await signupOwner(server);
  await signupOwner(server);
  const refused = await server.post<{ detail: string }>('/api/auth/signup', {
    first_name: 'Eve',
    last_name: 'Many',
    email: 'one-too-many@example.com',
    password: PASSWORD,
    company_name: 'One too many',
  });
  expect(refused.status).toBe(429);
  expect(refused.body.detail).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
  const login = await server.post('/api/auth/login', {
    username: 'one-too-many@example.com',
    password: PASSWORD,
  });
  expect(login.status).toBe(401);
});

it('limits attempts per IP across accounts', async () => {
  let last = 0;
  for (let i = 0; i < 12 && last !== 429; i++) {
    last = (await server.post('/api/auth/login', { username: `nobody${i}@example.com`, password: 'x' }))
      .status;
  }
  expect(last).toBe(429);
  const reset = await server.post<{ detail: string }>('/api/notification/request-password-reset/', {
    email: 'x@example.com',
  });
  expect(reset.status).toBe(429);
  expect(reset.body.detail).toContain('Too many attempts');
  expect(MESSAGES.generic.tooManyRequests(5)).toContain('5 seconds');
});
