import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { UI_TIMING } from '@parley/contracts';
import { type ReactNode, useEffect, useMemo } from 'react';
import { Toaster } from 'react-hot-toast';
import { Provider } from 'react-redux';
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
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
      <Toaster position={toastPosition} toastOptions={{ duration: UI_TIMING.toastMs }} />
    </ThemeProvider>
  );
}
