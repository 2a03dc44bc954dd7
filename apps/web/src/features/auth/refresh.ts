import type { AuthResponse } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { readAccessToken, readTokenExpiry, storeAuth } from '../../shared/lib/session-storage';
import { isRefreshDue } from './refresh-schedule';
import { tokenAdopted, tokenRefreshed } from './session-slice';

/** `expired`: the server refused the refresh cookie; `failed`: network or server trouble, try later. */
export type RefreshOutcome = 'renewed' | 'expired' | 'failed';

let inflight: Promise<RefreshOutcome> | null = null;

/**
 * Renews the access token through the httpOnly refresh cookie. Concurrent callers share one request,
 * because the server rotates the cookie and a second use of the old one would be refused.
 */
export function refreshSession(dispatch: Dispatch): Promise<RefreshOutcome> {
  inflight ??= withTabLock(() => renew(dispatch, readAccessToken())).finally(() => {
    inflight = null;
  });
  return inflight;
}

async function renew(dispatch: Dispatch, tokenBefore: string | null): Promise<RefreshOutcome> {
  // Another tab may have renewed while this one waited for the lock: adopt its token.
  const current = readAccessToken();
  if (current && current !== tokenBefore && !isRefreshDue(readTokenExpiry(), Date.now())) {
    dispatch(tokenAdopted());
    return 'renewed';
  }
  try {
    const response = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' });
    if (response.status === 401) return 'expired';
    if (!response.ok) return 'failed';
    const auth = (await response.json()) as AuthResponse;
    storeAuth(auth);
    dispatch(tokenRefreshed(auth));
    return 'renewed';
  } catch {
    return 'failed';
  }
}

/** Tabs share the cookie, so only one renews at a time where the browser offers Web Locks. */
function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  // request() resolves with the task's own result once the lock is released.
  return locks.request('parley-token-refresh', task) as Promise<unknown> as Promise<T>;
}
