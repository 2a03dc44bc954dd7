// @vitest-environment jsdom
import type { AuthResponse } from '@parley/contracts';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { useTokenRefresh } from './useTokenRefresh';

const response = (token: string) =>
  new Response(
    JSON.stringify({
      access_token: token,
      token_type: 'bearer',
      expires_in: 900,
      user: { id: 1 },
    } as AuthResponse),
  );

function setup(expiresInMs: number) {
  localStorage.setItem('accessToken', 'old');
  localStorage.setItem('accessTokenExpiresAt', String(Date.now() + expiresInMs));
  const store = makeStore();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  const hook = renderHook(
    () => {
      const session = store.getState().session;
      useTokenRefresh('authenticated', session.tokenVersion);
    },
    { wrapper },
  );
  return { store, hook };
}

describe('useTokenRefresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('renews a minute before expiry, not earlier', async () => {
    const fetchMock = vi.fn(async () => response('new'));
    vi.stubGlobal('fetch', fetchMock);
    setup(900_000);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(839_000);
    });
    expect(fetchMock).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('accessToken')).toBe('new');
  });

  it('renews at once when the stored token has already expired', async () => {
    const fetchMock = vi.fn(async () => response('new'));
    vi.stubGlobal('fetch', fetchMock);
    setup(-1_000);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the server refuses the refresh cookie', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"detail":"expired"}', { status: 401 })),
    );
    const { store } = setup(-1_000);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(store.getState().session.status).toBe('anonymous');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });
});
