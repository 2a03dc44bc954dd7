import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedUrlError, checkUrl, forbiddenAddressReason, safeFetch } from './safe-fetch.js';

const base = { allowPrivate: false, userAgent: 'ParleyTest', timeoutMs: 2000, maxBytes: 100_000 };

let server: http.Server;
let port: number;
const hits: string[] = [];
/** The Accept-Encoding each request carried, by path. */
const encodingsAsked: Record<string, string | undefined> = {};
const PAGE = `<p>${'Opening hours: nine to five, Monday to Saturday. '.repeat(40)}</p>`;
/** Pages sent compressed, by path: the Content-Encoding and the bytes. */
const COMPRESSED: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', gzipSync(PAGE)],
  '/brotli': ['br', brotliCompressSync(PAGE)],
  '/deflate': ['deflate', deflateSync(PAGE)],
  // 200 KB of one letter packs into a few hundred bytes: over the 100,000-byte limit once unpacked.
  '/bomb': ['gzip', gzipSync('x'.repeat(200_000))],
  '/broken': ['gzip', Buffer.from('not gzip at all')],
  '/zstd': ['zstd', Buffer.from('whatever')],
};
/** The validators each request carried, by path. */
const conditions: Record<string, [string | undefined, string | undefined]> = {};
const ETAG = '"v1"';
const LAST_MODIFIED = 'Tue, 01 Jan 2030 00:00:00 GMT';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    conditions[req.url ?? ''] = [req.headers['if-none-match'], req.headers['if-modified-since']];
    encodingsAsked[req.url ?? ''] = req.headers['accept-encoding'];
    const compressed = COMPRESSED[req.url ?? ''];
    if (compressed) {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': compressed[0] });
      res.end(compressed[1]);
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(301, { location: '/cached' });
      res.end();
    } else if (req.url === '/cached') {
      const fresh = req.headers['if-none-match'] === ETAG;
      res.writeHead(fresh ? 304 : 200, {
        'content-type': 'text/html',
        etag: ETAG,
        'last-modified': LAST_MODIFIED,
      });
      res.end(fresh ? undefined : '<p>cached page</p>');
    } else if (req.url === '/to-loopback') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
      res.end();
    } else if (req.url === '/to-metadata') {
      res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    } else if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('x'.repeat(200_000));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<p>hello from ${req.headers.host}</p>`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const refused = async (url: string) => {
  const error = await checkUrl(url, base).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(BlockedUrlError);
  return (error as Error).message;
};

describe('SSRF guard without CRAWLER_ALLOW_PRIVATE', () => {
  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1, which is a loopback address/],
    ['http://localhost/', /loopback address/],
    ['http://[::1]/', /::1, which is a loopback address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254, which is a linkLocal address/],
    ['http://10.0.0.1/', /10\.0\.0\.1, which is a private address/],
    ['http://172.16.5.4/', /private address/],
    ['http://192.168.1.1/', /private address/],
    ['http://100.64.0.1/', /carrierGradeNat address/],
    ['http://224.0.0.1/', /multicast address/],
    ['http://0.0.0.0/', /unspecified address/],
    ['http://2130706433/', /127\.0\.0\.1, which is a loopback address/],
    ['http://0x7f.0.0.1/', /127\.0\.0\.1, which is a loopback address/],
    ['http://0x7f.1/', /127\.0\.0\.1, which is a loopback address/],
    ['http://0177.0.0.1/', /127\.0\.0\.1, which is a loopback address/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped/],
    ['http://[fd00::1]/', /uniqueLocal address/],
    ['http://[fe80::1]/', /linkLocal address/],
  ])('refuses %s', async (url, reason) => {
    const message = await refused(url);
    expect(message).toMatch(/^Refused to fetch /);
    expect(message).toMatch(reason);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/file', 'gopher://example.com/', 'javascript:alert(1)'])(
    'refuses the scheme of %s',
    async (url) => {
      expect(await refused(url)).toMatch(/only http and https URLs can be crawled/);
    },
  );

  it('refuses a host when any of its addresses is private', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '10.1.2.3', family: 4 as const },
    ];
    await expect(checkUrl('http://mixed.example/', { ...base, resolve })).rejects.toThrow(/10\.1\.2\.3/);
  });

  it('accepts public addresses', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 as const }];
    const { address } = await checkUrl('https://public.example/page', { ...base, resolve });
    expect(address.address).toBe('93.184.216.34');
    expect(forbiddenAddressReason('2606:4700::6810:84e5')).toBeNull();
  });

  it('refuses a redirect to loopback or the metadata address before connecting to it', async () => {
    // The first hop is allowed as if public (a narrowed policy); the redirect targets are not.
    const addressPolicy = (address: string) =>
      address === '127.0.0.1' ? null : (forbiddenAddressReason(address) ?? null);
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const options = { ...base, resolve, addressPolicy };
    await expect(safeFetch(`http://public.example:${port}/to-metadata`, options)).rejects.toThrow(
      /Refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: .*linkLocal/,
    );
    // A redirect to loopback with the real policy: refused, and the secret is never requested.
    hits.length = 0;
    const strict = { ...base, resolve: async () => [{ address: '127.0.0.1', family: 4 as const }] };
    await expect(safeFetch(`http://public.example:${port}/to-loopback`, strict)).rejects.toThrow(/loopback/);
    expect(hits).not.toContain('/secret');
  });

  it('connects to the checked address (no second lookup) and stops at 5 redirects and the byte limit', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const options = { ...base, allowPrivate: true, resolve };
    const response = await safeFetch(`http://only-in-fake-dns.test:${port}/hello`, options);
    expect(response.status).toBe(200);
    expect(response.body?.toString()).toContain(`hello from only-in-fake-dns.test:${port}`);
    await expect(safeFetch(`http://127.0.0.1:${port}/loop`, options)).rejects.toThrow(/Too many redirects/);
    await expect(safeFetch(`http://127.0.0.1:${port}/big`, options)).rejects.toThrow(
      /larger than 100000 bytes/,
    );
  });
});

describe('compressed pages', () => {
  const options = { ...base, allowPrivate: true };

  it('asks for gzip or brotli and reads gzip, brotli and deflate as the page', async () => {
    for (const path of ['/gzip', '/brotli', '/deflate']) {
      const reply = await safeFetch(`http://127.0.0.1:${port}${path}`, options);
      expect(reply.body?.toString(), path).toBe(PAGE);
    }
    expect(encodingsAsked['/gzip']).toBe('gzip, br');
  });

  it('holds the unpacked bytes to the limit, and names a page it cannot unpack', async () => {
    await expect(safeFetch(`http://127.0.0.1:${port}/bomb`, options)).rejects.toThrow(
      /larger than 100000 bytes/,
    );
    await expect(safeFetch(`http://127.0.0.1:${port}/broken`, options)).rejects.toThrow(
      /\/broken could not be read/,
    );
    await expect(safeFetch(`http://127.0.0.1:${port}/zstd`, options)).rejects.toThrow(
      /an encoding this crawler cannot read \(zstd\)/,
    );
  });
});

describe('conditional requests', () => {
  const options = { ...base, allowPrivate: true };

  it("answers the page's validators, and a 304 without a body when they are sent back", async () => {
    const full = await safeFetch(`http://127.0.0.1:${port}/cached`, options);
    expect(full).toMatchObject({ status: 200, etag: ETAG, lastModified: LAST_MODIFIED });
    expect(full.body?.toString()).toContain('cached page');
    const again = await safeFetch(`http://127.0.0.1:${port}/cached`, {
      ...options,
      validators: { etag: full.etag, lastModified: full.lastModified },
    });
    expect(again).toMatchObject({ status: 304, body: null, etag: ETAG });
    expect(conditions['/cached']).toEqual([ETAG, LAST_MODIFIED]);
  });

  it("sends them on the first request only, never to a redirect's target", async () => {
    const reply = await safeFetch(`http://127.0.0.1:${port}/moved`, {
      ...options,
      validators: { etag: ETAG, lastModified: LAST_MODIFIED },
    });
    expect(conditions['/moved']).toEqual([ETAG, LAST_MODIFIED]);
    expect(conditions['/cached']).toEqual([undefined, undefined]);
    expect(reply.status).toBe(200);
  });
});
