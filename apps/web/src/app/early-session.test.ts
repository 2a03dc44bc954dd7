// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const USER_URL = 'http://localhost/api/auth/user';
const answer = () => new Response('{"id":1}', { status: 200 });

/** Loads the module afresh, as a page load does, with `token` stored (or none). */
async function loadWith(token: string | null) {
  localStorage.clear();
  if (token) localStorage.setItem('accessToken', token);
  vi.resetModules();
  return import('./early-session');
}

const get = (url: string, token: string, method = 'GET') =>
  new Request(url, { method, headers: { Authorization: `Bearer ${token}` } });

describe('the early session check', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the user at once with the stored token, and hands the answer over once', async () => {
    const { takeEarlySessionCheck } = await loadWith('t1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/user');
    expect((fetchMock.mock.calls[0]![1] as RequestInit).headers).toEqual({ Authorization: 'Bearer t1' });
    const early = takeEarlySessionCheck(get(USER_URL, 't1'));
    expect(early).not.toBeNull();
    expect((await early!).status).toBe(200);
    expect(takeEarlySessionCheck(get(USER_URL, 't1'))).toBeNull();
  });

  it('is not used for another call, another method or a renewed token', async () => {
    const { takeEarlySessionCheck } = await loadWith('t1');
    expect(takeEarlySessionCheck(get('http://localhost/api/home/summary', 't1'))).toBeNull();
    expect(takeEarlySessionCheck(get(USER_URL, 't1', 'PUT'))).toBeNull();
    expect(takeEarlySessionCheck(get(USER_URL, 't2'))).toBeNull();
    // Still there for the request it was made for.
    expect(takeEarlySessionCheck(get(USER_URL, 't1'))).not.toBeNull();
  });

  it('asks nothing without a stored token', async () => {
    const { takeEarlySessionCheck } = await loadWith(null);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takeEarlySessionCheck(get(USER_URL, 't1'))).toBeNull();
  });
});
