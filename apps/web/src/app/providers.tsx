import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import Link from '@mui/material/Link';
import { ThemeProvider } from '@mui/material/styles';
import { LAYOUT, UI_TIMING } from '@parley/contracts';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import toast, { ToastBar, Toaster, useToasterStore } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { isPlanLimitText } from '../shared/api/plan-limit';
import { loadRtlCache } from './rtl-cache';
import type { AppStore } from './store';
import { useAppSelector } from './store';
import { buildTheme } from './theme';

/** Store, theme (from the settings) and the toaster, around everything. */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <Themed>{children}</Themed>
    </Provider>
  );
}

function Themed({ children }: { children: ReactNode }) {
  const settings = useAppSelector((state) => state.settings);
  const { mode, skin, direction, themeColor, toastPosition } = settings;
  const theme = useMemo(
    () => buildTheme({ mode, skin, direction, themeColor }),
    [mode, skin, direction, themeColor],
  );
  useEffect(() => {
    document.documentElement.dir = direction;
  }, [direction]);
  return (
    <DirectionStyles direction={direction}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
        <ToastLimit />
        <Toaster
          position={toastPosition}
          toastOptions={{ duration: UI_TIMING.toastMs }}
          // Below the top bar: a toast over the account menu would take its clicks (and, hovered,
          // never time out).
          containerStyle={{ top: LAYOUT.toolbarHeight + 8 }}
        >
          {(t) => (
            <ToastBar toast={t}>
              {({ icon, message }) => (
                <>
                  {icon}
                  {message}
                  {/* A plan limit reached (402): the way out, one click away. A full load, as the
                      toaster sits outside the router. */}
                  {t.type === 'error' && isPlanLimitText(t.message) ? (
                    <Link
                      href="/upgrade"
                      aria-label="Upgrade your plan"
                      underline="always"
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap', mr: 1 }}
                    >
                      Upgrade
                    </Link>
                  ) : null}
                </>
              )}
            </ToastBar>
          )}
        </Toaster>
      </ThemeProvider>
    </DirectionStyles>
  );
}

/** The one notice queue stays short: past UI_TIMING.maxToasts visible, the oldest leave first. */
function ToastLimit() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    const visible = toasts.filter((t) => t.visible).sort((a, b) => b.createdAt - a.createdAt);
    for (const extra of visible.slice(UI_TIMING.maxToasts)) toast.dismiss(extra.id);
  }, [toasts]);
  return null;
}

/** Right-to-left needs MUI's styles mirrored, through an Emotion cache with the RTL plugin. */
function DirectionStyles({ direction, children }: { direction: 'ltr' | 'rtl'; children: ReactNode }) {
  const [rtlCache, setRtlCache] = useState<EmotionCache | null>(null);
  useEffect(() => {
    if (direction === 'rtl') void loadRtlCache().then(setRtlCache);
  }, [direction]);
  if (direction === 'rtl' && rtlCache) return <CacheProvider value={rtlCache}>{children}</CacheProvider>;
  return <>{children}</>;
}
