import { describe, expect, it } from 'vitest';
import { nextSyncAt } from './schedule.js';
import { Scheduler } from './scheduler.js';

const at = (iso: string) => new Date(iso);

describe('nextSyncAt', () => {
  it('is the next hour of the day (UTC) after now for daily, the next Monday for weekly', () => {
    expect(nextSyncAt('daily', 3, at('2030-01-07T02:59:59Z'))).toEqual(at('2030-01-07T03:00:00Z'));
    expect(nextSyncAt('daily', 3, at('2030-01-07T03:00:00Z'))).toEqual(at('2030-01-08T03:00:00Z'));
    expect(nextSyncAt('daily', 0, at('2030-12-31T23:30:00Z'))).toEqual(at('2031-01-01T00:00:00Z'));
    // 2030-01-07 is a Monday.
    expect(nextSyncAt('weekly', 5, at('2030-01-07T04:00:00Z'))).toEqual(at('2030-01-07T05:00:00Z'));
    expect(nextSyncAt('weekly', 5, at('2030-01-07T05:00:01Z'))).toEqual(at('2030-01-14T05:00:00Z'));
  });

  it('is null when the schedule is off', () => {
    expect(nextSyncAt('off', 3, at('2030-01-07T00:00:00Z'))).toBeNull();
  });
});

describe('Scheduler', () => {
  const logger = { info: () => {}, warn: () => {}, error: () => {} };

  it("runs each task at the clock's time, one tick at a time, and survives a task that throws", async () => {
    const now = at('2030-01-07T00:00:00Z');
    const scheduler = new Scheduler({ tickMs: 60_000, clock: { now: () => now }, logger });
    const seen: Date[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    scheduler.register('failing', async () => {
      throw new Error('database down');
    });
    scheduler.register('recording', async (time) => {
      seen.push(time);
      await held;
    });
    const first = scheduler.tick();
    const second = scheduler.tick(); // joins the tick in progress
    expect(second).toBe(first);
    release();
    await first;
    expect(seen).toEqual([now]);
    await scheduler.tick();
    expect(seen).toHaveLength(2);
  });
});
