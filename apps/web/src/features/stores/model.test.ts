import { STORE_TEXTS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  actionFailText,
  botNames,
  callbackBody,
  clampPercent,
  contentTabs,
  failText,
  formatMoney,
  isShopDomain,
  isTrainingActive,
  listParams,
  parsePlatform,
  refundAmountError,
  refundable,
  shopDomainOf,
  stockOf,
  storeFailText,
  storePath,
  syncStatusColor,
  trainedPercent,
  trainingChip,
  typeLabel,
} from './model';

describe('store model', () => {
  it('lists the tabs of each platform in the spec order, with what each may do', () => {
    expect(contentTabs('shopify').map((t) => t.label)).toEqual([
      'Products',
      'Collections',
      'Blog articles',
      'Policies',
      'Discounts',
      'Orders',
      'Customers',
    ]);
    expect(contentTabs('woocommerce').map((t) => t.type)).toEqual([
      'products',
      'categories',
      'pages',
      'coupons',
      'orders',
      'customers',
    ]);
    const orders = contentTabs('shopify').find((t) => t.type === 'orders');
    expect(orders).toMatchObject({ kind: 'order', trainable: false, deletable: false });
    const coupons = contentTabs('woocommerce').find((t) => t.type === 'coupons');
    expect(coupons).toMatchObject({ kind: 'coupon', trainable: true, deletable: true });
  });

  it('labels content types', () => {
    expect(typeLabel('blog-articles')).toBe('Blog articles');
    expect(typeLabel('categories')).toBe('Categories');
    expect(typeLabel('gift_cards')).toBe('Gift cards');
  });

  it('uses the catalogue texts of section 8 as defaults', () => {
    expect(actionFailText('shopify', 'sync', 'products')).toBe('Failed to sync products');
    expect(actionFailText('shopify', 'fetch', 'blog-articles')).toBe('Failed to fetch blog articles');
    expect(actionFailText('woocommerce', 'delete', 'categories')).toBe('Failed to delete category');
    expect(actionFailText('woocommerce', 'train', 'pages')).toBe('Failed to train content');
    expect(actionFailText('woocommerce', 'sync', 'customers')).toBe('Failed to sync customers');
    expect(storeFailText('woocommerce', 'connect')).toBe('Failed to connect WooCommerce store');
    expect(storeFailText('woocommerce', 'test')).toBe('Failed to test store connection');
    expect(storeFailText('shopify', 'globalTraining')).toBe(STORE_TEXTS.globalTrainingFailed);
  });

  it('prefers the server detail over the default', () => {
    expect(failText({ status: 400, data: { detail: 'Store not found' } }, 'Failed to sync products')).toBe(
      'Store not found',
    );
    expect(failText({ status: 500, data: 'oops' }, 'Failed to sync products')).toBe(
      'Failed to sync products',
    );
    expect(failText(undefined, 'Global sync failed')).toBe('Global sync failed');
  });

  it('colours statuses', () => {
    expect(syncStatusColor('completed')).toBe('success');
    expect(syncStatusColor('syncing')).toBe('info');
    expect(syncStatusColor('partial')).toBe('warning');
    expect(syncStatusColor('error')).toBe('error');
    expect(syncStatusColor('pending')).toBe('default');
    expect(trainingChip(null)).toEqual({ label: 'Not trained', color: 'default' });
    expect(trainingChip('completed')).toEqual({ label: 'Trained', color: 'success' });
    expect(trainingChip('failed').color).toBe('error');
  });

  it('formats money in the store currency', () => {
    expect(formatMoney('19.9', 'USD')).toBe('$19.90');
    expect(formatMoney('5', null)).toBe('5.00');
    expect(formatMoney(null, 'USD')).toBe('–');
    expect(formatMoney('12', 'XYZ1')).toBe('12.00 XYZ1');
  });

  it('adds up tracked stock and keeps percentages within bounds', () => {
    expect(stockOf({ variants: [{ inventory: 3 }, { inventory: null }, { inventory: 4 }] })).toBe(7);
    expect(stockOf({ variants: [{ inventory: null }] })).toBeNull();
    expect(stockOf({})).toBeNull();
    expect(clampPercent(120)).toBe(100);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(trainedPercent(5, 20)).toBe(25);
    expect(trainedPercent(0, 0)).toBe(0);
  });

  it('knows when training is running', () => {
    const base = {
      store_id: 1,
      active: false,
      starting: false,
      complete: true,
      task_id: null,
      progress: 100,
    };
    expect(isTrainingActive(undefined)).toBe(false);
    expect(isTrainingActive({ ...base, content_types: [] })).toBe(false);
    expect(isTrainingActive({ ...base, starting: true, content_types: [] })).toBe(true);
    expect(
      isTrainingActive({
        ...base,
        content_types: [
          { content_type: 'products', total: 2, trained: 1, training: 1, failed: 0, progress: 50 },
        ],
      }),
    ).toBe(true);
  });

  it('sends every Shopify callback parameter, plus a numeric bot id', () => {
    const params = new URLSearchParams(
      'code=abc&shop=x.myshopify.com&state=s&hmac=h&timestamp=1&host=aG9zdA',
    );
    expect(callbackBody(params, '7')).toEqual({
      code: 'abc',
      shop: 'x.myshopify.com',
      state: 's',
      hmac: 'h',
      timestamp: '1',
      host: 'aG9zdA',
      bot_id: '7',
    });
    expect(callbackBody(params, null)).not.toHaveProperty('bot_id');
    expect(callbackBody(params, 'nope')).not.toHaveProperty('bot_id');
  });

  it('reads the shop address as Shopify expects it', () => {
    expect(shopDomainOf(' https://My-Store.myshopify.com/admin ')).toBe('my-store.myshopify.com');
    expect(isShopDomain('my-store.myshopify.com')).toBe(true);
    expect(isShopDomain('shop.example.com')).toBe(false);
  });

  it('checks refund amounts and what is left', () => {
    expect(refundAmountError('')).toBeNull();
    expect(refundAmountError('12.50')).toBeNull();
    expect(refundAmountError('12.505')).not.toBeNull();
    expect(refundAmountError('0')).not.toBeNull();
    expect(refundAmountError('-1')).not.toBeNull();
    expect(refundable('30.00', '12.5')).toBe('17.50');
    expect(refundable('10', '20')).toBe('0.00');
  });

  it('builds list queries in each platform’s parameter names', () => {
    expect(listParams('shopify', 3, { search: ' mug ', page: 2, limit: 50 })).toEqual({
      store_id: '3',
      query: 'mug',
      limit: '50',
      page: '2',
    });
    expect(listParams('woocommerce', 3, { search: '', page: 1, limit: 50 })).toEqual({
      per_page: '50',
      page: '1',
    });
  });

  it('routes, platforms and bot names', () => {
    expect(storePath({ platform: 'woocommerce', id: 4 })).toBe('/integrations/stores/woocommerce/4');
    expect(parsePlatform('shopify')).toBe('shopify');
    expect(parsePlatform('etsy')).toBeNull();
    expect(botNames([2, 9], [{ bot_id: 2, bot_name: 'Helper' }])).toEqual([
      { id: 2, name: 'Helper' },
      { id: 9, name: 'Bot 9' },
    ]);
  });
});
