import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useGetMeQuery } from '../features/auth/api';
import { useCrossTabSession, useTokenRefresh } from '../features/auth/hooks/useTokenRefresh';
import { landed, sessionEnded } from '../features/auth/session-slice';
import { SplashScreen } from '../shared/components/SplashScreen';
import { browserStore, clearStorage, PLAN_KEYS, STORAGE_KEYS } from '../shared/lib/storage';
import { useRouteAccess } from './route-handle';
import { decideEntry, type EntryDecision } from './startup-rules';
import { useAppDispatch, useAppSelector } from './store';

/**
 * The root of every route: loads the session (spinner meanwhile), keeps the token fresh and applies
 * the startup rules of spec section 2 before any page renders.
 */
export function AppRoot() {
  const { status, tokenVersion, justSignedIn } = useAppSelector((state) => state.session);
  const dispatch = useAppDispatch();
  const location = useLocation();
  const access = useRouteAccess();
  useGetMeQuery(undefined, { skip: status === 'anonymous' || status === 'loggingOut' });
  useTokenRefresh(status, tokenVersion);
  useCrossTabSession(status);

  // Logging out holds the guards still until the 300 ms redirect has left the private page.
  const leftPrivatePage = access === 'public' || access === 'guest';
  useEffect(() => {
    if (status === 'loggingOut' && leftPrivatePage) dispatch(sessionEnded());
  }, [status, leftPrivatePage, dispatch]);
  // Once a fresh login has left the guest page, its stored redirect has served its purpose.
  useEffect(() => {
    if (!justSignedIn || access === 'guest') return;
    browserStore().removeItem(STORAGE_KEYS.redirectPath);
    dispatch(landed());
  }, [justSignedIn, access, dispatch]);

  if (status === 'loading') return <SplashScreen />;
  if (status === 'loggingOut') return <Outlet />;
  const decision = decideEntry({
    pathname: location.pathname,
    search: location.search,
    access,
    signedIn: status === 'authenticated',
    justSignedIn,
    storedRedirect: browserStore().getItem(STORAGE_KEYS.redirectPath),
  });
  if (decision.kind === 'redirect') return <Redirect decision={decision} />;
  return <Outlet />;
}

function Redirect({ decision }: { decision: Extract<EntryDecision, { kind: 'redirect' }> }) {
  const navigate = useNavigate();
  const { to, clearStorage: clear, storeRedirect } = decision;
  useEffect(() => {
    const store = browserStore();
    // The plan chosen in the URL that brought the visitor here survives the clean-up.
    if (clear) clearStorage(store, PLAN_KEYS);
    if (storeRedirect) store.setItem(STORAGE_KEYS.redirectPath, storeRedirect);
    navigate(to, { replace: true });
  }, [to, clear, storeRedirect, navigate]);
  return <SplashScreen />;
}
