import { describe, expect, it } from 'vitest';
import { clearStorage, memoryStore, PLAN_KEYS, STORAGE_KEYS } from './storage';

describe('clearStorage', () => {
  it('clears everything but the layout settings and the keys asked to be kept', () => {
    const store = memoryStore({
      accessToken: 't',
      userData: '{}',
      settings: '{"mode":"dark"}',
      planId: '3',
      other: 'x',
    });
    clearStorage(store, PLAN_KEYS);
    expect(store.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(store.getItem(STORAGE_KEYS.userData)).toBeNull();
    expect(store.getItem('other')).toBeNull();
    expect(store.getItem(STORAGE_KEYS.settings)).toBe('{"mode":"dark"}');
    expect(store.getItem(STORAGE_KEYS.planId)).toBe('3');
  });
});
