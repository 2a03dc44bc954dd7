// @vitest-environment jsdom
import type { User } from '@parley/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { BrowserRequest, json } from '../../test/api-stubs';
import { partnerApi } from '../partner/api';
import { profileApi } from '../profile/api';
import { authApi } from './api';

/** Generous for a loaded CI machine: a few promise turns and a stubbed fetch, normally in milliseconds. */
const SETTLED = { timeout: 5000 };

const user = (first_name: string, is_partner = false) =>
  ({ id: 7, first_name, last_name: 'Tester', email: 'c@x.io', is_partner }) as User;

/**
 * The session's user is written by the session load (GET /auth/user) and by the calls that change
 * it. A load sent before such a call and answered after it must not put the old user back.
 */
describe('a change to the signed-in user while the session load is on its way', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The first session load answers only when told, with the user as it was; later ones as it is. */
  function stubServer(before: User, after: User, changed: unknown) {
    vi.stubGlobal('Request', BrowserRequest);
    let answerFirstLoad: (r: Response) => void = () => undefined;
    const loads = { count: 0 };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        if (request.method !== 'GET') return json(changed);
        loads.count += 1;
        return loads.count === 1 ? new Promise<Response>((r) => (answerFirstLoad = r)) : json(after);
      }),
    );
    return { loads, answerFirstLoad: () => answerFirstLoad(json(before)) };
  }

  it('keeps the new name after a profile save', async () => {
    const server = stubServer(user('Cleo'), user('Cleopatra'), user('Cleopatra'));
    const store = makeStore();
    const session = store.dispatch(authApi.endpoints.getMe.initiate());
    await vi.waitFor(() => expect(server.loads.count).toBe(1), SETTLED);

    await store.dispatch(
      profileApi.endpoints.updateProfile.initiate({
        id: 7,
        body: { first_name: 'Cleopatra', last_name: 'Tester', username: 'cleo' },
      }),
    );
    server.answerFirstLoad();

    await vi.waitFor(() => expect(server.loads.count).toBe(2), SETTLED);
    await vi.waitFor(() => expect(store.getState().session.user?.first_name).toBe('Cleopatra'), SETTLED);
    session.unsubscribe();
  });

  it('keeps the partner area after joining the partner programme', async () => {
    const server = stubServer(user('Cleo'), user('Cleo', true), { message: 'joined' });
    const store = makeStore();
    const session = store.dispatch(authApi.endpoints.getMe.initiate());
    await vi.waitFor(() => expect(server.loads.count).toBe(1), SETTLED);

    await store.dispatch(partnerApi.endpoints.becomePartner.initiate());
    server.answerFirstLoad();

    await vi.waitFor(() => expect(server.loads.count).toBe(2), SETTLED);
    await vi.waitFor(() => expect(store.getState().session.user?.is_partner).toBe(true), SETTLED);
    session.unsubscribe();
  });
});
