import { describe, expect, it, vi } from 'vitest';
import { fetchBlob, fileNameFrom } from './download';

describe('fileNameFrom', () => {
  it('reads quoted, bare and RFC 5987 names, dropping any path', () => {
    expect(fileNameFrom('attachment; filename="leads-3-2025-01-02.csv"', 'x.csv')).toBe(
      'leads-3-2025-01-02.csv',
    );
    expect(fileNameFrom('attachment; filename=leads.csv', 'x.csv')).toBe('leads.csv');
    expect(fileNameFrom('attachment; filename*=UTF-8\'\'caf%C3%A9.csv; filename="cafe.csv"', 'x.csv')).toBe(
      'café.csv',
    );
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('passwd');
    expect(fileNameFrom('attachment', 'x.csv')).toBe('x.csv');
    expect(fileNameFrom(null, 'x.csv')).toBe('x.csv');
  });
});

describe('fetchBlob', () => {
  it('sends the bearer token and returns the blob with the server file name', async () => {
    const fetchImpl = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response('a,b\r\n', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="leads-1.csv"' },
        }),
    );
    const outcome = await fetchBlob('/api/x.csv', { token: 'tok', fallbackName: 'f.csv', fetchImpl });
    expect(fetchImpl.mock.calls[0]?.[1].headers).toEqual({ Authorization: 'Bearer tok' });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.fileName).toBe('leads-1.csv');
      expect(await outcome.blob.text()).toBe('a,b\r\n');
    }
  });

  it("reports the server's status and detail", async () => {
    const fetchImpl = async () =>
      new Response(JSON.stringify({ detail: 'Bot not found' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    expect(await fetchBlob('/api/x.csv', { token: null, fallbackName: 'f.csv', fetchImpl })).toEqual({
      ok: false,
      reason: 'http',
      status: 404,
      detail: 'Bot not found',
    });
  });

  it('gives up after the time-out, and tells a network failure apart', async () => {
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    expect(
      await fetchBlob('/api/x.csv', { token: null, fallbackName: 'f', timeoutMs: 20, fetchImpl: hanging }),
    ).toEqual({ ok: false, reason: 'timeout' });
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await fetchBlob('/api/x.csv', { token: null, fallbackName: 'f', fetchImpl: offline })).toEqual({
      ok: false,
      reason: 'network',
    });
  });
});
