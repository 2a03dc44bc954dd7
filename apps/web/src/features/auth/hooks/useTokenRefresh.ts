import { MESSAGES, UI_TIMING } from '@parley/contracts';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useDispatch } from 'react-redux';
import { clearAuth, readTokenExpiry } from '../../../shared/lib/session-storage';
import { STORAGE_KEYS } from '../../../shared/lib/storage';
import { refreshSession } from '../refresh';
import { isRefreshDue, refreshDelayMs } from '../refresh-schedule';
import { type SessionStatus, sessionEnded, tokenAdopted } from '../session-slice';

/** setTimeout overflows past ~24.8 days. */
const MAX_TIMER_MS = 2_147_483_647;
/** After a network failure, try again soon rather than letting the token lapse. */
const RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * Renews the access token silently before it expires (from expires_in), re-arming after every new
 * token. Background tabs throttle timers, so waking up or coming back online checks again.
 */
export function useTokenRefresh(status: SessionStatus, tokenVersion: number): void {
  const dispatch = useDispatch();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new token (tokenVersion) re-arms the timer.
  useEffect(() => {
    if (status !== 'authenticated') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const outcome = await refreshSession(dispatch);
      if (outcome === 'expired') {
        clearAuth();
        dispatch(sessionEnded());
        toast.error(MESSAGES.auth.sessionExpired, { duration: UI_TIMING.toastMs });
      } else if (outcome === 'failed') {
        timer = setTimeout(run, RETRY_AFTER_FAILURE_MS);
      }
    };
    const expiry = readTokenExpiry();
    timer = setTimeout(run, expiry === null ? 0 : Math.min(refreshDelayMs(expiry, Date.now()), MAX_TIMER_MS));
    const wake = () => {
      if (document.visibilityState !== 'visible' || !isRefreshDue(readTokenExpiry(), Date.now())) return;
      clearTimeout(timer);
      void run();
    };
    document.addEventListener('visibilitychange', wake);
    window.addEventListener('online', wake);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', wake);
      window.removeEventListener('online', wake);
    };
  }, [status, tokenVersion, dispatch]);
}

/** Another tab logged out or renewed the shared token: follow it. */
export function useCrossTabSession(status: SessionStatus): void {
  const dispatch = useDispatch();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.accessToken || status !== 'authenticated') return;
      dispatch(event.newValue ? tokenAdopted() : sessionEnded());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [status, dispatch]);
}
