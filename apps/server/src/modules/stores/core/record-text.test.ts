import type { ProductData } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { recordHash, recordSections } from './record-text.js';

const product: ProductData = {
  description: 'A roomy pack for day hikes.\n\n## Care\n\nWipe clean with a damp cloth.',
  vendor: 'Acme',
  product_type: 'Bags',
  tags: ['outdoor'],
  options: [{ name: 'Size', values: ['S', 'L'] }],
  variants: [
    {
      title: 'S',
      sku: 'BP-S',
      price: '49.00',
      compare_at_price: null,
      inventory: 3,
      available: true,
      options: { Size: 'S' },
    },
    {
      title: 'L',
      sku: 'BP-L',
      price: '59.00',
      compare_at_price: '69.00',
      inventory: 0,
      available: false,
      options: { Size: 'L' },
    },
  ],
  image_url: null,
  price: '49.00',
  currency: null,
  categories: ['Hiking'],
};
const record = {
  kind: 'product' as const,
  title: 'Trail Backpack',
  url: 'https://shop.example/products/trail-backpack',
  data: product,
};

describe('a product as the text a bot reads', () => {
  it('opens with price and stock as sentences naming it, its variants, link and lead text in one passage', () => {
    const [head, care] = recordSections(record, 'USD');
    expect(head!.headingPath).toBe('Trail Backpack');
    expect(head!.text).toContain(
      'The Trail Backpack costs from 49.00 USD: Size S 49.00 USD, Size L 59.00 USD.',
    );
    expect(head!.text).toContain(
      'The Trail Backpack is in stock in Size S (3 left), and out of stock in Size L.',
    );
    expect(head!.text).toContain('- L: 59.00 USD, was 69.00 USD, out of stock, 0 left, SKU BP-L');
    expect(head!.text).toContain('Link: https://shop.example/products/trail-backpack');
    expect(head!.text).toContain('A roomy pack for day hikes.');
    expect(care).toEqual(
      expect.objectContaining({
        headingPath: 'Trail Backpack > Care',
        text: expect.stringContaining('Wipe clean'),
      }),
    );
  });

  it('hashes what training stores: a price change is a change, the same record is not', () => {
    const changed = { ...record, data: { ...product, price: '45.00' } };
    expect(recordHash(record)).toBe(recordHash({ ...record, data: { ...product } }));
    expect(recordHash(changed)).not.toBe(recordHash(record));
  });

  it('hashes a draft apart from the same product published, and a published one as before', () => {
    expect(recordHash({ ...record, status: 'active' })).toBe(recordHash(record));
    expect(recordHash({ ...record, status: 'publish' })).toBe(recordHash(record));
    expect(recordHash({ ...record, status: 'draft' })).not.toBe(recordHash(record));
  });

  it('says one stock sentence when every variant agrees', () => {
    const soldOut = product.variants.map((v) => ({ ...v, available: false }));
    const [head] = recordSections({ ...record, data: { ...product, variants: soldOut } }, 'USD');
    expect(head!.text).toContain('The Trail Backpack is out of stock.');
    const single = [{ ...product.variants[0]!, options: {} }];
    const [one] = recordSections({ ...record, data: { ...product, variants: single } }, 'USD');
    expect(one!.text).toContain('The Trail Backpack costs 49.00 USD.');
    expect(one!.text).toContain('The Trail Backpack is in stock (3 left).');
  });
});
