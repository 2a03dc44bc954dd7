import { describe, expect, it } from 'vitest';
import { shownToShoppers } from './visibility.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const shown = (kind: Parameters<typeof shownToShoppers>[0]['kind'], status: string | null, data = {}) =>
  shownToShoppers({ kind, status, data }, NOW);

describe('what shoppers may be told about', () => {
  it('products and pages the storefront shows, on either platform', () => {
    expect(shown('product', 'active')).toBe(true);
    expect(shown('product', 'publish')).toBe(true);
    expect(shown('page', 'publish')).toBe(true);
    expect(shown('blog_article', 'published')).toBe(true);
    expect(shown('collection', null)).toBe(true);
  });

  it('never drafts, archived, private or hidden ones', () => {
    for (const status of ['draft', 'archived', 'private', 'pending', 'unlisted']) {
      expect(shown('product', status), status).toBe(false);
    }
    expect(shown('blog_article', 'hidden')).toBe(false);
  });

  it('only discounts and coupons that are active and not past their end', () => {
    expect(shown('discount', 'active', { ends_at: null })).toBe(true);
    expect(shown('discount', 'active', { ends_at: '2026-06-01T13:00:00.000Z' })).toBe(true);
    expect(shown('discount', 'active', { ends_at: '2026-06-01T11:59:59.000Z' })).toBe(false);
    expect(shown('coupon', 'publish', { ends_at: '2026-05-31T00:00:00Z' })).toBe(false);
    expect(shown('discount', 'expired', { ends_at: null })).toBe(false);
    expect(shown('discount', 'scheduled', { ends_at: null })).toBe(false);
  });
});
