// @vitest-environment jsdom
import type { AuthResponse } from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshSession } from './refresh';

const auth = (token: string): AuthResponse => ({
  access_token: token,
  token_type: 'bearer',
  expires_in: 900,
  user: {} as AuthResponse['user'],
});

describe('refreshSession', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('accessToken', 'old');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renews through the refresh cookie, stores the token and its expiry', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(auth('new')), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const dispatch = vi.fn();
    const before = Date.now();
    await expect(refreshSession(dispatch)).resolves.toBe('renewed');
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/refresh', {
      method: 'POST',
      credentials: 'same-origin',
    });
    expect(localStorage.getItem('accessToken')).toBe('new');
    expect(Number(localStorage.getItem('accessTokenExpiresAt'))).toBeGreaterThanOrEqual(before + 900_000);
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'session/tokenRefreshed' }));
  });

  it('shares one request between concurrent callers (the cookie rotates)', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(auth('new')), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const results = await Promise.all([
      refreshSession(vi.fn()),
      refreshSession(vi.fn()),
      refreshSession(vi.fn()),
    ]);
    expect(results).toEqual(['renewed', 'renewed', 'renewed']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reports an expired session on 401 and a passing failure otherwise', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"detail":"x"}', { status: 401 })),
    );
    await expect(refreshSession(vi.fn())).resolves.toBe('expired');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503 })),
    );
    await expect(refreshSession(vi.fn())).resolves.toBe('failed');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(refreshSession(vi.fn())).resolves.toBe('failed');
    expect(localStorage.getItem('accessToken')).toBe('old');
  });
});
