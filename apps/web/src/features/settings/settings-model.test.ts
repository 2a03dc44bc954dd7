import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  layoutForViewport,
  NON_PERSISTED_KEYS,
  restoreSettings,
  THEME_COLOR_PRESETS,
  toPersisted,
} from './settings-model';

describe('settings defaults (spec sections 2 and 9)', () => {
  it('start vertical, light, boxed, with toasts at the top right', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      layout: 'vertical',
      mode: 'light',
      contentWidth: 'boxed',
      toastPosition: 'top-right',
      themeColor: 'primary',
    });
  });

  it('make primary a crimson brand colour', () => {
    expect(THEME_COLOR_PRESETS.primary).toBe('#DC143C');
  });
});

describe('toPersisted', () => {
  it('leaves out appBar, footer, layout, navHidden, lastLayout and toastPosition', () => {
    const persisted = toPersisted({
      ...DEFAULT_SETTINGS,
      mode: 'dark',
      layout: 'horizontal',
      navHidden: true,
    });
    for (const key of ['appBar', 'footer', 'layout', 'navHidden', 'lastLayout', 'toastPosition']) {
      expect(persisted).not.toHaveProperty(key);
    }
    expect(NON_PERSISTED_KEYS).toHaveLength(6);
    expect(persisted).toMatchObject({ mode: 'dark', skin: 'default', navCollapsed: false, direction: 'ltr' });
  });
});

describe('restoreSettings', () => {
  it('restores persisted keys over the defaults', () => {
    const raw = JSON.stringify({
      mode: 'semi-dark',
      skin: 'bordered',
      themeColor: 'info',
      navCollapsed: true,
      direction: 'rtl',
    });
    expect(restoreSettings(raw)).toEqual({
      ...DEFAULT_SETTINGS,
      mode: 'semi-dark',
      skin: 'bordered',
      themeColor: 'info',
      navCollapsed: true,
      direction: 'rtl',
    });
  });

  it('ignores excluded keys even if storage holds them', () => {
    const raw = JSON.stringify({
      layout: 'horizontal',
      footer: 'hidden',
      appBar: 'hidden',
      toastPosition: 'bottom-left',
    });
    expect(restoreSettings(raw)).toEqual(DEFAULT_SETTINGS);
  });

  it('ignores invalid values and unreadable storage', () => {
    expect(restoreSettings(JSON.stringify({ mode: 'neon', navCollapsed: 'yes' }))).toEqual(DEFAULT_SETTINGS);
    expect(restoreSettings('{not json')).toEqual(DEFAULT_SETTINGS);
    expect(restoreSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('layoutForViewport', () => {
  it('forces horizontal to vertical below lg and restores it above', () => {
    const horizontal = { ...DEFAULT_SETTINGS, layout: 'horizontal' as const };
    const forced = layoutForViewport(horizontal, true);
    expect(forced).toEqual({ layout: 'vertical', lastLayout: 'horizontal' });
    expect(layoutForViewport({ ...horizontal, ...forced }, false)).toEqual({
      layout: 'horizontal',
      lastLayout: null,
    });
  });

  it('changes nothing for a vertical layout', () => {
    expect(layoutForViewport(DEFAULT_SETTINGS, true)).toBeNull();
    expect(layoutForViewport(DEFAULT_SETTINGS, false)).toBeNull();
  });
});
