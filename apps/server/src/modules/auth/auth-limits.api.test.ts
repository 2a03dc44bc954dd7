import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, signupOwner } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_RATE_LIMIT_PER_ACCOUNT: '3', AUTH_RATE_LIMIT_PER_IP: '12' } });
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
