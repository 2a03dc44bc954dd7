import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../app/store';
import { chatFullScreenSet, layoutRefreshed } from '../app/ui-slice';
import { layoutForViewport } from '../features/settings/settings-model';
import { settingsChanged } from '../features/settings/settings-slice';
import { isChatFullScreenEvent, SHELL_EVENTS } from '../shared/lib/shell-events';

/** True below the lg breakpoint, where the menu becomes a toggle drawer. */
export function useBelowLg(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('lg'), { noSsr: true });
}

/** Forces horizontal to vertical below lg and restores it above (spec section 2). */
export function useViewportLayout(belowLg: boolean): void {
  const settings = useAppSelector((state) => state.settings);
  const dispatch = useAppDispatch();
  const change = layoutForViewport(settings, belowLg);
  useEffect(() => {
    if (change) dispatch(settingsChanged(change));
  }, [change, dispatch]);
}

/** The custom window events of the shell: full-screen chat and layout refresh (spec section 4). */
export function useShellEvents(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const onFullScreen = (event: Event) => {
      if (isChatFullScreenEvent(event)) dispatch(chatFullScreenSet(event.detail.enabled));
    };
    const onRefresh = () => {
      dispatch(layoutRefreshed());
      // MUI and charts re-measure on resize.
      window.dispatchEvent(new Event('resize'));
    };
    window.addEventListener(SHELL_EVENTS.chatFullScreen, onFullScreen);
    window.addEventListener(SHELL_EVENTS.layoutRefresh, onRefresh);
    return () => {
      window.removeEventListener(SHELL_EVENTS.chatFullScreen, onFullScreen);
      window.removeEventListener(SHELL_EVENTS.layoutRefresh, onRefresh);
    };
  }, [dispatch]);
}
