import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../shared/lib/storage';
import { applyStartupParams } from './startup';

describe('applyStartupParams', () => {
  it('stores the plan and cleans the URL, keeping the rest', () => {
    const store = memoryStore();
    const history = { state: { idx: 0 }, replaceState: vi.fn() };
    applyStartupParams(
      { pathname: '/upgrade', search: '?id=4&plan=yearly&x=1', hash: '#top' },
      history,
      store,
    );
    expect(store.getItem('planId')).toBe('4');
    expect(store.getItem('planFrequency')).toBe('yearly');
    expect(history.replaceState).toHaveBeenCalledWith({ idx: 0 }, '', '/upgrade?x=1#top');
  });

  it('leaves URLs without plan parameters alone', () => {
    const history = { state: null, replaceState: vi.fn() };
    applyStartupParams({ pathname: '/home', search: '?tab=1', hash: '' }, history, memoryStore());
    expect(history.replaceState).not.toHaveBeenCalled();
  });
});
