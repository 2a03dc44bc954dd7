import { describe, expect, it } from 'vitest';
import { failedSync, finishedSync, startedSync, updateType } from './store-sync.js';

const now = new Date('2026-11-26T10:00:00Z');
const start = () => startedSync(7, 'woocommerce', ['product', 'category', 'coupon'], 'task-1', now);

describe('the global sync state machine', () => {
  it('starts with every type pending and the run syncing', () => {
    const status = start();
    expect(status).toMatchObject({
      storeId: 7,
      overallStatus: 'syncing',
      overallProgress: 0,
      task_id: 'task-1',
    });
    expect(status.contentTypes.map((t) => [t.contentType, t.status])).toEqual([
      ['products', 'pending'],
      ['categories', 'pending'],
      ['coupons', 'pending'],
    ]);
  });

  it('averages the types for the overall progress and sums what was synced', () => {
    let status = updateType(start(), 'products', {
      status: 'completed',
      progress: 100,
      syncedCount: 40,
      totalCount: 40,
    });
    status = updateType(status, 'categories', { status: 'syncing', progress: 50, syncedCount: 3 });
    expect(status.overallProgress).toBe(50);
    expect(status.totalSynced).toBe(43);
  });

  it('ends completed at 100 when every type completed', () => {
    let status = start();
    for (const type of ['products', 'categories', 'coupons'])
      status = updateType(status, type, { status: 'completed', progress: 100 });
    expect(finishedSync(status, now)).toMatchObject({
      overallStatus: 'completed',
      overallProgress: 100,
      task_id: null,
      endTime: now.toISOString(),
    });
  });

  it('ends in error when any type failed, keeping what the others synced', () => {
    let status = updateType(start(), 'products', { status: 'completed', progress: 100, syncedCount: 10 });
    status = updateType(status, 'categories', { status: 'error', error: 'HTTP 500' });
    status = updateType(status, 'coupons', { status: 'completed', progress: 100, syncedCount: 2 });
    const end = finishedSync(status, now);
    expect(end.overallStatus).toBe('error');
    expect(end.errors).toEqual(['categories: HTTP 500']);
    expect(end.totalSynced).toBe(12);
    expect(end.overallProgress).toBeCloseTo(66.7, 1);
  });

  it('ends partial when the run stopped before a type was reached, with no error', () => {
    const status = updateType(start(), 'products', { status: 'completed', progress: 100 });
    expect(finishedSync(status, now).overallStatus).toBe('partial');
  });

  it('a failure of the whole run marks what had not finished as error', () => {
    const status = updateType(start(), 'products', { status: 'completed', progress: 100 });
    const end = failedSync(status, 'Global sync failed', now);
    expect(end.overallStatus).toBe('error');
    expect(end.contentTypes.map((t) => t.status)).toEqual(['completed', 'error', 'error']);
    expect(end.errors).toContain('Global sync failed');
  });
});
