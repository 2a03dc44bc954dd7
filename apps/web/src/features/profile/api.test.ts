// @vitest-environment jsdom
import type { User } from '@parley/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { authApi } from '../auth/api';
import { profileApi } from './api';

const user = (first_name: string) => ({ id: 7, first_name, last_name: 'Tester', email: 'c@x.io' }) as User;
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('saving the profile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the new name when a session load sent before the save answers after it', async () => {
    let answerFirstLoad: (r: Response) => void = () => undefined;
    let loads = 0;
    // The API's base is relative ('/api'), which Node's Request cannot take without a page address.
    const NodeRequest = Request;
    vi.stubGlobal(
      'Request',
      class extends NodeRequest {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
        }
      },
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        if (request.method === 'PUT') return json(user('Cleopatra'));
        loads += 1;
        // The first load read the user before the save; the next one reads it after.
        return loads === 1 ? new Promise<Response>((r) => (answerFirstLoad = r)) : json(user('Cleopatra'));
      }),
    );
    const store = makeStore();
    const session = store.dispatch(authApi.endpoints.getMe.initiate());
    await vi.waitFor(() => expect(loads).toBe(1));

    await store.dispatch(
      profileApi.endpoints.updateProfile.initiate({
        id: 7,
        body: { first_name: 'Cleopatra', last_name: 'Tester', username: 'cleo' },
      }),
    );
    answerFirstLoad(json(user('Cleo')));

    await vi.waitFor(() => expect(loads).toBe(2));
    await vi.waitFor(() => expect(store.getState().session.user?.first_name).toBe('Cleopatra'));
    session.unsubscribe();
  });
});
