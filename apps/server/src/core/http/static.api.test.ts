import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

// A built web app and widget as the build leaves them: each file beside its .br and .gz siblings.
const INDEX =
  '<!doctype html><title>Parley</title><div id="root"></div><script src="/assets/index-a1b2c3.js">';
const ASSET = `console.log(${JSON.stringify('parley '.repeat(200))});`;
const WIDGET = `(()=>{${'window.parley=1;'.repeat(100)}})();`;

let server: TestServer;

function writeBuilt(dir: string, name: string, text: string): void {
  writeFileSync(path.join(dir, name), text);
  writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(text));
  writeFileSync(path.join(dir, `${name}.gz`), gzipSync(text));
}

beforeAll(async () => {
  const webDir = mkdtempSync(path.join(tmpdir(), 'parley-static-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeBuilt(webDir, 'index.html', INDEX);
  writeBuilt(webDir, 'assets/index-a1b2c3.js', ASSET);
  const widgetDir = mkdtempSync(path.join(tmpdir(), 'parley-static-widget-'));
  writeBuilt(widgetDir, 'widget.js', WIDGET);
  server = await startTestServer({ env: { WEB_DIST_DIR: webDir, WIDGET_DIST_DIR: widgetDir } });
});
afterAll(() => server.close());

/** fetch decompresses the body itself; content-encoding says what travelled. */
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${url}`, { headers: { 'accept-encoding': 'br, gzip', ...headers } });

/** A conditional GET for the brotli form, over node:http: fetch marks such requests `cache-control: no-cache`. */
function conditionalStatus(url: string, etag: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request(
      `${server.url}${url}`,
      { headers: { 'if-none-match': etag, 'accept-encoding': 'br' } },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    )
      .on('error', reject)
      .end();
  });
}

describe('hashed assets', () => {
  it('are sent brotli-compressed from the build, cached a year as immutable', async () => {
    const reply = await get('/assets/index-a1b2c3.js');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-encoding')).toBe('br');
    expect(reply.headers.get('content-type')).toContain('javascript');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(reply.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    // Never revalidated: no validators to carry.
    expect(reply.headers.get('etag')).toBeNull();
    expect(reply.headers.get('last-modified')).toBeNull();
    expect(await reply.text()).toBe(ASSET);
  });

  it('fall back to gzip, then to the plain file, by Accept-Encoding', async () => {
    const gzip = await get('/assets/index-a1b2c3.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe(ASSET);
    const plain = await get('/assets/index-a1b2c3.js', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(await plain.text()).toBe(ASSET);
  });

  it('are never routes of their own in compressed form', async () => {
    expect((await get('/assets/index-a1b2c3.js.br')).status).toBe(404);
  });
});

describe('index.html', () => {
  it('is revalidated on every load with its ETag, compressed too', async () => {
    const first = await get('/');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(first.headers.get('content-type')).toContain('text/html');
    expect(await first.text()).toBe(INDEX);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await conditionalStatus('/', etag as string)).toBe(304);
  });

  it('answers client-side routes (history fallback) with the same caching', async () => {
    const deep = await get('/bots/7/conversations');
    expect(deep.status).toBe(200);
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    expect(deep.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(await deep.text()).toBe(INDEX);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('leaves API answers alone', async () => {
    const health = await get('/api/health');
    expect(health.headers.get('cache-control')).not.toBe('no-cache');
    expect(health.headers.get('content-encoding')).toBeNull();
  });
});

describe('/widget.js', () => {
  it('is compressed, cached 5 minutes with an ETag, for any site', async () => {
    const reply = await get('/widget.js', { origin: 'https://shop.example.com' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-encoding')).toBe('br');
    expect(reply.headers.get('content-type')).toContain('javascript');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=300');
    expect(reply.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(reply.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(await reply.text()).toBe(WIDGET);
    const etag = reply.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await conditionalStatus('/widget.js', etag as string)).toBe(304);
  });
});
