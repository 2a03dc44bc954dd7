import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROUTE_RULES } from '@parley/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let webDir: string;
beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'parley-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Parley</title><div id="root"></div>');
  writeFileSync(path.join(webDir, 'app.js'), 'console.log("parley")');
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log("hashed")');
  server = await startTestServer({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(() => server.close());

it('reports the database in /api/health', async () => {
  const reply = await server.get<{ status: string; database: { ok: boolean; kind: string } }>('/api/health');
  expect(reply.status).toBe(200);
  expect(reply.body.status).toBe('ok');
  expect(reply.body.database).toMatchObject({
    ok: true,
    kind: process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite',
  });
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  const traced = await server.get('/api/health', { headers: { 'x-request-id': 'support-ticket-42' } });
  expect(traced.headers.get('x-request-id')).toBe('support-ticket-42');
  // Refusals and unknown routes carry it too, with the security headers.
  for (const url of ['/api/auth/user', '/api/no-such-route']) {
    const refused = await server.get(url, { headers: { 'x-request-id': 'support-ticket-43' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.get('x-request-id')).toBe('support-ticket-43');
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
  }
});

it('documents every route of the permission map in OpenAPI, and serves the docs UI', async () => {
  const spec = await server.get<{ paths: Record<string, Record<string, unknown>> }>('/api/docs/json');
  expect(spec.status).toBe(200);
  const documented = new Set(
    Object.entries(spec.body.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map(
        (method) => `${method.toUpperCase()} ${p.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    ),
  );
  // WebSocket upgrades have no request/response schema for OpenAPI; docs/realtime.md documents them.
  const websockets = new Set(['GET /chat/stream', 'GET /chat/helpdesk']);
  const missing = Object.keys(ROUTE_RULES).filter((key) => !documented.has(key) && !websockets.has(key));
  expect(missing).toEqual([]);
  expect(readFileSync(new URL('../../../../../docs/realtime.md', import.meta.url), 'utf8')).toContain(
    '/api/chat/stream',
  );
  const ui = await server.get<string>('/api/docs/');
  expect(ui.status).toBe(200);
  expect(String(ui.body)).toContain('swagger');
});

it('answers unknown API routes with 404 and a detail', async () => {
  const reply = await server.get('/api/nothing-here');
  expect(reply.status).toBe(404);
  expect(reply.body).toEqual({ detail: 'Route GET /api/nothing-here not found' });
});

it('serves the web app with history fallback, but never for API paths or missing files', async () => {
  const root = await server.get<string>('/');
  expect(root.status).toBe(200);
  expect(String(root.body)).toContain('<div id="root">');
  const deep = await server.get<string>('/roles/anything?x=1');
  expect(deep.status).toBe(200);
  expect(deep.headers.get('content-type')).toContain('text/html');
  expect((await server.get('/app.js')).status).toBe(200);
  expect((await server.get('/missing.js')).status).toBe(404);
});

it('sends secure headers and no CORS grant to unknown origins', async () => {
  const reply = await server.get('/api/health', { headers: { origin: 'https://evil.example.com' } });
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  // An API answer lets nothing load and nothing frame it, should a browser ever open it as a page.
  expect(reply.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(reply.headers.get('x-frame-options')).toBe('DENY');
  expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
  expect(reply.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  // Headers that only a document heeds stay on documents.
  expect(reply.headers.get('cross-origin-opener-policy')).toBeNull();
  expect(reply.headers.get('x-dns-prefetch-control')).toBeNull();
  // Served over plain http here: no HSTS.
  expect(reply.headers.get('strict-transport-security')).toBeNull();
  expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  // Swagger UI is a page: the document's policy, which lets its own scripts run.
  const docs = await server.get('/api/docs/');
  expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
});

it("sends a hashed asset only the headers a script heeds, and a page the document's", async () => {
  const asset = await server.get<string>('/assets/index-abc123.js');
  expect(asset.status).toBe(200);
  expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  expect(asset.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(asset.headers.get('content-security-policy')).toBeNull();
  expect(asset.headers.get('x-frame-options')).toBeNull();
  const page = await server.get<string>('/login');
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  // Over plain http, no upgrade of the app's requests to https.
  expect(page.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
});

it('never shows internals for a server error', async () => {
  // A string where a job id (uuid) is expected is a 400, not a crash.
  const signup = await server.post<{ access_token: string }>('/api/auth/signup', {
    first_name: 'A',
    last_name: 'B',
    email: 'platform@example.com',
    password: 'long enough password',
  });
  const bad = await server.get('/api/jobs/not-a-uuid', { token: signup.body.access_token });
  expect(bad.status).toBe(400);
  expect(bad.body).toEqual({ detail: 'id: must be a job id' });
  const missing = await server.get('/api/jobs/00000000-0000-4000-8000-000000000000', {
    token: signup.body.access_token,
  });
  expect(missing.status).toBe(404);
});
