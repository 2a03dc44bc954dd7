// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { settingsChanged } from '../features/settings/settings-slice';
import { makeStore } from './store';

describe('settings persistence', () => {
  beforeEach(() => localStorage.clear());

  it('writes changed settings without the excluded keys', () => {
    const store = makeStore();
    store.dispatch(
      settingsChanged({ mode: 'dark', layout: 'horizontal', footer: 'hidden', navCollapsed: true }),
    );
    const saved = JSON.parse(localStorage.getItem('settings') ?? '{}');
    expect(saved).toMatchObject({ mode: 'dark', navCollapsed: true });
    expect(saved).not.toHaveProperty('layout');
    expect(saved).not.toHaveProperty('footer');
  });

  it('restores persisted settings at start and keeps the excluded ones at their defaults', () => {
    makeStore().dispatch(settingsChanged({ mode: 'semi-dark', layout: 'horizontal', appBar: 'hidden' }));
    const reloaded = makeStore().getState().settings;
    expect(reloaded.mode).toBe('semi-dark');
    expect(reloaded.layout).toBe('vertical');
    expect(reloaded.appBar).toBe('static');
  });

  it('starts a visitor with a stored token in the loading state (spinner), others anonymous', () => {
    expect(makeStore().getState().session.status).toBe('anonymous');
    localStorage.setItem('accessToken', 'x');
    expect(makeStore().getState().session.status).toBe('loading');
  });
});
