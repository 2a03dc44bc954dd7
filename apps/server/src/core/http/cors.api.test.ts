import { afterAll, beforeAll, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';

// A console served from another origin than its API (CORS_ORIGINS), beside the widget's public
// endpoints that any site may call.
const CONSOLE = 'https://console.example';
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ env: { CORS_ORIGINS: CONSOLE } });
  token = (await signupOwner(server)).access_token;
});
afterAll(() => server.close());

const preflight = (path: string, origin: string, method: string) =>
  fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization',
    },
  });

it('lets the configured console origin call the API with credentials, and no other', async () => {
  const allowed = await server.get('/api/auth/user', {
    headers: { origin: CONSOLE, authorization: `Bearer ${token}` },
  });
  expect(allowed.status).toBe(200);
  expect(allowed.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
  expect(allowed.headers.get('vary')).toBe('Origin');
  const ask = await preflight('/api/auth/user', CONSOLE, 'GET');
  expect(ask.status).toBe(204);
  expect(ask.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  expect(ask.headers.get('access-control-allow-headers')).toBe('authorization');

  const other = await server.get('/api/auth/user', {
    headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` },
  });
  expect(other.headers.get('access-control-allow-origin')).toBeNull();
  const otherAsk = await preflight('/api/auth/user', 'https://evil.example', 'GET');
  expect(otherAsk.headers.get('access-control-allow-origin')).toBeNull();
});

it("opens the widget's endpoints to any site, without credentials", async () => {
  const ask = await preflight('/api/chat/visitor', 'https://shop.example', 'POST');
  expect(ask.status).toBe(204);
  expect(ask.headers.get('access-control-allow-origin')).toBe('*');
  expect(ask.headers.get('access-control-allow-credentials')).toBeNull();
  const config = await server.get('/api/auth/public-bots', { headers: { origin: 'https://shop.example' } });
  expect(config.headers.get('access-control-allow-origin')).toBe('*');
});

it('says nothing of CORS to a request without Origin, which no browser sends cross-origin', async () => {
  const plain = await server.get('/api/auth/user', { headers: { authorization: `Bearer ${token}` } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  expect(plain.headers.get('access-control-allow-credentials')).toBeNull();
  // A cache must still keep it apart from the answers to browsers of other origins.
  expect(plain.headers.get('vary')).toBe('Origin');
});
