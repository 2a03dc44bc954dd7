// @vitest-environment jsdom
import type { AuthResponse } from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { authApi } from '../../features/auth/api';
import { rolesApi } from '../../features/roles/api';
import { BrowserRequest, json } from '../../test/api-stubs';

const user = { id: 1, first_name: 'Ada', roles: [] } as unknown as AuthResponse['user'];
/** Answers by URL; records the Authorization header of every API call. */
function server(routes: Record<string, Array<() => Response>>) {
  const seen: Array<{ url: string; auth: string | null }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), location.href), init);
    const path = new URL(request.url).pathname;
    seen.push({ url: path, auth: request.headers.get('authorization') });
    const next = routes[path]?.shift();
    return next ? next() : json({ detail: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return seen;
}

describe('base query', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.clear();
    localStorage.setItem('accessToken', 'stale');
    localStorage.setItem('accessTokenExpiresAt', String(Date.now() + 600_000));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renews the token once on a 401 and retries the request with the new one', async () => {
    const seen = server({
      '/api/auth/user': [() => json({ detail: 'expired' }, 401), () => json(user)],
      '/api/auth/refresh': [
        () => json({ access_token: 'fresh', token_type: 'bearer', expires_in: 900, user }),
      ],
    });
    const store = makeStore();
    const result = await store.dispatch(authApi.endpoints.getMe.initiate());
    expect(result.data).toEqual(user);
    expect(seen.map((s) => `${s.url} ${s.auth}`)).toEqual([
      '/api/auth/user Bearer stale',
      '/api/auth/refresh null',
      '/api/auth/user Bearer fresh',
    ]);
    expect(store.getState().session.status).toBe('authenticated');
  });

  it('gives up after the retry: token cleared, session ended', async () => {
    server({
      '/api/auth/user': [() => json({ detail: 'expired' }, 401)],
      '/api/auth/refresh': [() => json({ detail: 'no cookie' }, 401)],
    });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.getMe.initiate());
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getState().session.status).toBe('anonymous');
  });

  it('reads the signed-in user again after a 403, so menus follow a role reduced meanwhile', async () => {
    const reduced = { ...user, roles: [{ id: 9, name: 'Viewer', feature_permissions: [] }] };
    const seen = server({
      '/api/auth/user': [() => json(user), () => json(reduced)],
      '/api/role/roles/1': [() => json({ detail: 'You do not have permission to do this' }, 403)],
    });
    const store = makeStore();
    store.dispatch(authApi.endpoints.getMe.initiate());
    await vi.waitFor(() => expect(store.getState().session.user).toEqual(user));
    await store.dispatch(rolesApi.endpoints.roles.initiate(1));
    await vi.waitFor(() => expect(store.getState().session.user).toEqual(reduced));
    expect(seen.map((s) => s.url)).toEqual(['/api/auth/user', '/api/role/roles/1', '/api/auth/user']);
  });
});
