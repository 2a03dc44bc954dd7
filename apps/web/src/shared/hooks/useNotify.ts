import { UI_TIMING } from '@parley/contracts';
import { useMemo } from 'react';
import toast from 'react-hot-toast';

export type Notify = {
  success: (message: string) => void;
  error: (message: string) => void;
  info: (message: string) => void;
};

/**
 * Every notice of the console goes through one queue: the toaster (app/providers.tsx), over the page,
 * so nothing pushes the page down. The same text again replaces its toast instead of stacking a copy
 * ("Q&A added" five times is one toast), and at most UI_TIMING.maxToasts show at once.
 */
export function useNotify(): Notify {
  return useMemo(
    () => ({
      success: (message: string) => {
        toast.success(message, {
          id: `success:${message}`,
          duration: UI_TIMING.noticeMs,
          // Announced like the green alerts it replaces.
          ariaProps: { role: 'alert', 'aria-live': 'polite' },
        });
      },
      error: (message: string) => {
        toast.error(message, { id: message, duration: UI_TIMING.toastMs });
      },
      info: (message: string) => {
        toast(message, { id: `info:${message}`, icon: 'ℹ️', duration: UI_TIMING.toastMs });
      },
    }),
    [],
  );
}
