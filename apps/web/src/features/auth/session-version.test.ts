// @vitest-environment jsdom
import { type AuthResponse, SESSION_VERSION_HEADER } from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { BrowserRequest } from '../../test/api-stubs';
import { presenceApi } from '../inbox/presence-api';
import { authApi } from './api';
import { forgetSessionVersion } from './session-version';

type User = AuthResponse['user'];
const reader = { id: 1, first_name: 'Ada', roles: [{ id: 2, name: 'Support', feature_permissions: [] }] };
const granted = { ...reader, roles: [{ id: 2, name: 'Support', feature_permissions: [{ id: 5 }] }] };

/** A JSON answer carrying the server's version of the caller. */
const answer = (body: unknown, version: string) =>
  new Response(JSON.stringify(body), {
    headers: { 'content-type': 'application/json', [SESSION_VERSION_HEADER]: version },
  });

/** Answers by path, in order; records the paths asked for. */
function server(routes: Record<string, Array<() => Response>>) {
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL((input as Request).url).pathname;
      seen.push(path);
      return routes[path]?.shift()?.() ?? new Response('{}', { status: 404 });
    }),
  );
  return seen;
}

const presence = { agents_online: false, count: 0 };

describe('the signed-in user follows the server without a reload', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.clear();
    localStorage.setItem('accessToken', 'token');
    localStorage.setItem('accessTokenExpiresAt', String(Date.now() + 600_000));
    forgetSessionVersion();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads the user again when an answer carries a new version, once, and not while it stays', async () => {
    const seen = server({
      '/api/auth/user': [() => answer(reader, 'v1'), () => answer(granted, 'v2')],
      '/api/chat/helpdesk/presence/1': [
        () => answer(presence, 'v1'),
        () => answer(presence, 'v2'),
        () => answer(presence, 'v2'),
      ],
    });
    const store = makeStore();
    const me = store.dispatch(authApi.endpoints.getMe.initiate());
    await vi.waitFor(() => expect(store.getState().session.user).toEqual(reader as unknown as User));
    const poll = () =>
      store.dispatch(presenceApi.endpoints.helpdeskPresence.initiate(1, { forceRefetch: true })).unwrap();

    await poll();
    expect(seen).toEqual(['/api/auth/user', '/api/chat/helpdesk/presence/1']);
    await poll();
    await vi.waitFor(() => expect(store.getState().session.user).toEqual(granted as unknown as User));
    await poll();
    expect(seen.filter((path) => path === '/api/auth/user')).toHaveLength(2);
    me.unsubscribe();
  });
});
