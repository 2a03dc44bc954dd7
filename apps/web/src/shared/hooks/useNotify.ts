import { UI_TIMING } from '@parley/contracts';
import { useMemo } from 'react';
import toast from 'react-hot-toast';
import { useDispatch } from 'react-redux';
import { noticeAdded, noticeExpired } from '../../app/ui-slice';

export type Notify = {
  /** A toast and a green alert that clears after 10 s (spec section 8, Display). */
  success: (message: string) => void;
  error: (message: string) => void;
  info: (message: string) => void;
};

export function useNotify(): Notify {
  const dispatch = useDispatch();
  return useMemo(
    () => ({
      success: (message: string) => {
        toast.success(message, { duration: UI_TIMING.toastMs });
        const action = dispatch(noticeAdded(message));
        setTimeout(() => dispatch(noticeExpired(action.payload.id)), UI_TIMING.alertMs);
      },
      error: (message: string) => {
        toast.error(message, { id: message, duration: UI_TIMING.toastMs });
      },
      info: (message: string) => {
        toast(message, { icon: 'ℹ️', duration: UI_TIMING.toastMs });
      },
    }),
    [dispatch],
  );
}
