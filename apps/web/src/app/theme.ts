import { createTheme, type Theme } from '@mui/material/styles';
import { LAYOUT } from '@parley/contracts';
import { type Settings, THEME_COLOR_PRESETS } from '../features/settings/settings-model';

type ThemeInput = Pick<Settings, 'mode' | 'skin' | 'direction' | 'themeColor'>;

/**
 * The MUI theme from the settings: breakpoints, toolbar height and colours of spec section 9.
 * `semi-dark` keeps the content light; the navigation gets its own dark theme (see navTheme).
 */
export function buildTheme(
  settings: ThemeInput,
  paletteMode: 'light' | 'dark' = contentMode(settings),
): Theme {
  const bordered = settings.skin === 'bordered';
  return createTheme({
    direction: settings.direction,
    breakpoints: { values: { ...LAYOUT.breakpoints } },
    palette: {
      mode: paletteMode,
      primary: { main: THEME_COLOR_PRESETS[settings.themeColor] },
      secondary: { main: THEME_COLOR_PRESETS.secondary },
      background:
        paletteMode === 'light'
          ? { default: '#F7F7F9', paper: '#FFFFFF' }
          : { default: '#1E1E2A', paper: '#282A3A' },
    },
    shape: { borderRadius: 8 },
    mixins: { toolbar: { minHeight: LAYOUT.toolbarHeight } },
    typography: {
      fontFamily: 'Inter, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
      button: { textTransform: 'none' },
    },
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: false } },
      // Keyboard users must always see where they are (issue 3: visible focus).
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': { outline: '2px solid', outlineOffset: 2 },
          '.Mui-focusVisible': {
            outline: `2px solid ${THEME_COLOR_PRESETS[settings.themeColor]}`,
            outlineOffset: 2,
          },
        },
      },
      MuiCard: {
        defaultProps: bordered ? { elevation: 0, variant: 'outlined' } : { elevation: 1 },
      },
      MuiPaper: bordered ? { styleOverrides: { elevation1: { boxShadow: 'none' } } } : {},
      MuiTextField: { defaultProps: { fullWidth: true, size: 'small' } },
    },
  });
}

/** The navigation theme: dark in semi-dark mode, else the content theme. */
export function navTheme(settings: ThemeInput): Theme {
  return buildTheme(settings, settings.mode === 'light' ? 'light' : 'dark');
}

function contentMode(settings: ThemeInput): 'light' | 'dark' {
  return settings.mode === 'dark' ? 'dark' : 'light';
}
