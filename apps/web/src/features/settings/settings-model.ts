import { LAYOUT } from '@parley/contracts';

/** Layout and theme settings (spec section 3, Settings). */
export type Mode = 'light' | 'dark' | 'semi-dark';
export type Skin = 'default' | 'bordered';
export type AppBarSetting = 'static' | 'hidden';
export type FooterSetting = 'fixed' | 'static' | 'hidden';
export type LayoutSetting = 'vertical' | 'horizontal';
export type ContentWidth = 'boxed' | 'fluid';
export type Direction = 'ltr' | 'rtl';
export type ThemeColor = 'primary' | 'secondary' | 'success' | 'error' | 'warning' | 'info';
export type VerticalNavToggleType = 'accordion' | 'collapse';
export type ToastPosition =
  | 'top-left'
  | 'top-center'
  | 'top-right'
  | 'bottom-left'
  | 'bottom-center'
  | 'bottom-right';

export type Settings = {
  mode: Mode;
  skin: Skin;
  appBar: AppBarSetting;
  footer: FooterSetting;
  layout: LayoutSetting;
  lastLayout: LayoutSetting | null;
  navHidden: boolean;
  navCollapsed: boolean;
  contentWidth: ContentWidth;
  direction: Direction;
  themeColor: ThemeColor;
  verticalNavToggleType: VerticalNavToggleType;
  toastPosition: ToastPosition;
};

/** Spec section 2: vertical layout, light mode, boxed content, toasts at the top right. */
export const DEFAULT_SETTINGS: Settings = {
  mode: 'light',
  skin: 'default',
  appBar: 'static',
  footer: 'static',
  layout: 'vertical',
  lastLayout: null,
  navHidden: false,
  navCollapsed: false,
  contentWidth: 'boxed',
  direction: 'ltr',
  themeColor: 'primary',
  verticalNavToggleType: 'accordion',
  toastPosition: 'top-right',
};

/** Spec section 2: these are never written to local storage. */
export const NON_PERSISTED_KEYS = [
  'appBar',
  'footer',
  'layout',
  'navHidden',
  'lastLayout',
  'toastPosition',
] as const;
type NonPersistedKey = (typeof NON_PERSISTED_KEYS)[number];
export type PersistedSettings = Omit<Settings, NonPersistedKey>;

/** Preset colour per theme colour; primary is the crimson brand colour (spec section 9). */
export const THEME_COLOR_PRESETS: Record<ThemeColor, string> = {
  primary: '#DC143C',
  secondary: '#6D788D',
  success: '#2E7D32',
  error: '#C62828',
  warning: '#B26A00',
  info: '#0277BD',
};

export const NAV_WIDTH = LAYOUT.navigationWidth;
export const NAV_COLLAPSED_WIDTH = LAYOUT.collapsedNavigationWidth;

/** The allowed values of each setting: what the customizer offers and what storage may restore. */
export const SETTING_CHOICES = {
  mode: ['light', 'dark', 'semi-dark'],
  skin: ['default', 'bordered'],
  appBar: ['static', 'hidden'],
  footer: ['fixed', 'static', 'hidden'],
  layout: ['vertical', 'horizontal'],
  contentWidth: ['boxed', 'fluid'],
  direction: ['ltr', 'rtl'],
  themeColor: ['primary', 'secondary', 'success', 'error', 'warning', 'info'],
  verticalNavToggleType: ['accordion', 'collapse'],
} as const satisfies Partial<Record<keyof Settings, readonly string[]>>;

/** The settings as written to local storage: everything except the excluded keys. */
export function toPersisted(settings: Settings): PersistedSettings {
  const copy: Partial<Settings> = { ...settings };
  for (const key of NON_PERSISTED_KEYS) delete copy[key];
  return copy as PersistedSettings;
}

/**
 * Settings at start: the defaults, overlaid with what storage holds for the persisted keys only.
 * Unknown or invalid stored values are ignored rather than trusted.
 */
export function restoreSettings(raw: string | null): Settings {
  const stored = parseObject(raw);
  const result: Settings = { ...DEFAULT_SETTINGS };
  for (const [key, choices] of Object.entries(SETTING_CHOICES)) {
    const value = stored[key];
    if (isNonPersisted(key) || typeof value !== 'string') continue;
    if ((choices as readonly string[]).includes(value)) Object.assign(result, { [key]: value });
  }
  if (typeof stored.navCollapsed === 'boolean') result.navCollapsed = stored.navCollapsed;
  return result;
}

/**
 * Below the lg breakpoint a horizontal layout is forced to vertical (spec section 2); lastLayout
 * remembers the choice so widening the window brings it back. Null when nothing changes.
 */
export function layoutForViewport(settings: Settings, belowLg: boolean): Partial<Settings> | null {
  if (belowLg && settings.layout === 'horizontal') return { layout: 'vertical', lastLayout: 'horizontal' };
  if (!belowLg && settings.lastLayout === 'horizontal') return { layout: 'horizontal', lastLayout: null };
  return null;
}

function isNonPersisted(key: string): boolean {
  return (NON_PERSISTED_KEYS as readonly string[]).includes(key);
}

function parseObject(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
