import { WIDGET_TEXTS_ENGLISH } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { syncedText } from './visitor-texts.js';

describe('syncedText', () => {
  it('says how long ago a source was synced', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const synced = (iso: string | null) => syncedText(WIDGET_TEXTS_ENGLISH, iso, now);
    expect(synced('2026-11-25T11:59:30Z')).toBe('synced just now');
    expect(synced('2026-11-25T09:00:00Z')).toBe('synced 3 hours ago');
    expect(synced('2026-11-24T12:00:00Z')).toBe('synced yesterday');
    expect(synced('2026-11-22T12:00:00Z')).toBe('synced 3 days ago');
    expect(synced(null)).toBe('');
  });
});
