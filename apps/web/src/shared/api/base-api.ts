import { MESSAGES, SESSION_VERSION_HEADER, UI_TIMING } from '@parley/contracts';
import {
  type BaseQueryFn,
  createApi,
  type FetchArgs,
  type FetchBaseQueryError,
  fetchBaseQuery,
} from '@reduxjs/toolkit/query/react';
import toast from 'react-hot-toast';
import { takeEarlySessionCheck } from '../../app/early-session';
import { isLoginOrSignupPath } from '../../app/startup-rules';
import { refreshSession } from '../../features/auth/refresh';
import { sessionEnded } from '../../features/auth/session-slice';
import { sessionVersionChanged } from '../../features/auth/session-version';
import { clearAuth, readAccessToken } from '../lib/session-storage';
import { requestText, serverDetail } from './errors';
import { rememberPlanLimit } from './plan-limit';

/**
 * Seconds a page's data stays fresh when the page mounts (`refetchOnMountOrArgChange`): pages that
 * read fresh data on every visit take a result this young as fresh, so what the page's preload
 * fetched a moment before it rendered is not asked for again (issue 36).
 */
export const FRESH_ON_VISIT_S = 5;

/** Per-endpoint options: `silent` endpoints show their own failure (for example an invalid invitation). */
export type ApiExtraOptions = { silent?: boolean };

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  // The session check index.html's first module sent may already be on its way (app/early-session.ts).
  fetchFn: (request) => takeEarlySessionCheck(request as Request) ?? fetch(request),
  credentials: 'same-origin',
  prepareHeaders: (headers) => {
    const token = readAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** GET of the signed-in user (features/auth/api getMe). */
const ME_URL = '/auth/user';

/** Calls that answer 401 for a wrong password, not an expired session. */
const SESSION_LESS = ['/auth/login', '/auth/signup', '/auth/oauth/login', '/auth/refresh', '/auth/logout'];

function describe(args: string | FetchArgs): { method: string; url: string } {
  return typeof args === 'string'
    ? { method: 'GET', url: args }
    : { method: (args.method ?? 'GET').toUpperCase(), url: args.url };
}

/**
 * Every request: bearer token attached; on a 401 the token is renewed once through the refresh
 * cookie and the request retried; a second 401 clears the token and ends the session (the route
 * guard then sends the visitor to /login unless already on a login or signup page). Any other
 * failure shows an error toast with the server's detail, else the request text (spec section 8).
 */
export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  ApiExtraOptions
> = async (args, api, extraOptions) => {
  const { method, url } = describe(args);
  const sessionCall = !SESSION_LESS.some((path) => url.startsWith(path));
  let result = await rawBaseQuery(args, api, extraOptions ?? {});
  if (result.error?.status === 401 && sessionCall && readAccessToken()) {
    const outcome = await refreshSession(api.dispatch);
    if (outcome === 'renewed') result = await rawBaseQuery(args, api, extraOptions ?? {});
  }
  // The signed-in user changed on the server (a role granted more): read it again, so the menu
  // gains the entry without a reload. Not after the read of the user itself, which is that read.
  const version = result.meta?.response?.headers.get(SESSION_VERSION_HEADER);
  if (version && sessionVersionChanged(version) && url !== ME_URL) api.dispatch(reloadSignedInUser());
  const error = result.error;
  if (!error) return result;
  if (error.status === 401 && sessionCall) {
    // The token is dropped everywhere; the redirect to /login is the route guard's, which leaves
    // login and signup pages alone (spec section 4).
    const hadSession =
      (api.getState() as { session?: { status?: string } }).session?.status === 'authenticated';
    clearAuth();
    api.dispatch(sessionEnded());
    if (hadSession && !isLoginOrSignupPath(window.location.pathname)) {
      toast.error(MESSAGES.auth.sessionExpired, { id: 'session-expired', duration: UI_TIMING.toastMs });
    }
    return result;
  }
  // Refused for a permission: the user's role may have changed since they were loaded (an owner
  // took a grant away), so they are read again and menus and route guards follow the role at once.
  if (error.status === 403 && sessionCall) api.dispatch(reloadSignedInUser());
  // A plan limit (402): whichever toast shows its text offers an Upgrade link (app/providers).
  if (error.status === 402) {
    const detail = serverDetail(error);
    if (detail) rememberPlanLimit(detail);
  }
  if (!extraOptions?.silent) {
    const text = serverDetail(error) ?? requestText(method, `/api${url}`, error);
    // The id folds identical failures (several queries failing together) into one toast.
    toast.error(text, { id: text, duration: UI_TIMING.toastMs });
  }
  return result;
};

/** The one API slice; features add their endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'Users', 'Roles', 'Features', 'Invitations'],
  endpoints: () => ({}),
});

const reloadSignedInUser = () => api.util.invalidateTags(['Me']);
