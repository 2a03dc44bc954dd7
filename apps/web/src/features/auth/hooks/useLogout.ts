import { MESSAGES, UI_TIMING } from '@parley/contracts';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/store';
import { api } from '../../../shared/api/base-api';
import { clearStorage } from '../../../shared/lib/storage';
import { loggingOut } from '../session-slice';

/**
 * Logout (spec section 4): the info toast 'Logging out...', storage and session state cleared, the
 * server told to drop the refresh cookie, and /login after 300 ms.
 */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    toast(MESSAGES.auth.loggingOut, { icon: 'ℹ️', duration: UI_TIMING.toastMs });
    clearStorage();
    dispatch(loggingOut());
    dispatch(api.util.resetApiState());
    fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => {
      // The cookie expires on its own; the local session is already gone.
    });
    setTimeout(() => navigate('/login', { replace: true }), UI_TIMING.logoutRedirectMs);
  }, [dispatch, navigate]);
}
