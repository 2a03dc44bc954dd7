import type { SyncChanges, SyncState } from '@parley/contracts';
import { Cron } from 'croner';
import { integer, jsonb, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** How often a source is read again from its origin: never (the default), every day or every week. */
export type SyncSchedule = 'off' | 'daily' | 'weekly';

/** Cron patterns in UTC: daily at the hour, weekly on Mondays at the hour. */
const PATTERNS: Record<Exclude<SyncSchedule, 'off'>, (hour: number) => string> = {
  daily: (hour) => `0 ${hour} * * *`,
  weekly: (hour) => `0 ${hour} * * 1`,
};

/** When a source on this schedule is next due after `after`, or null when it is not scheduled. */
export function nextSyncAt(schedule: SyncSchedule, hour: number, after: Date): Date | null {
  if (schedule === 'off') return null;
  return new Cron(PATTERNS[schedule](hour), { timezone: 'UTC', paused: true }).nextRun(after);
}

/** The columns of a source that syncs on a schedule (web sources, Notion workspaces). */
export const syncScheduleColumns = () => ({
  schedule: text('schedule', { enum: ['off', 'daily', 'weekly'] })
    .notNull()
    .default('off'),
  scheduleHour: integer('schedule_hour').notNull().default(3),
  /** When the scheduler enqueues the next sync; null when the schedule is off. */
  nextSyncAt: timestamp('next_sync_at', { withTimezone: true }),
  lastChanges: jsonb('last_changes').$type<SyncChanges>(),
  /** The last sync job enqueued: while it is queued or active, no other is. */
  syncTaskId: uuid('sync_task_id'),
});

type ScheduledRow = {
  schedule: SyncSchedule;
  scheduleHour: number;
  nextSyncAt: Date | null;
  lastChanges: SyncChanges | null;
};

/** The schedule fields of the API, from a row and whether its last sync job is still pending. */
export const toSyncState = (row: ScheduledRow, runningTaskId: string | null): SyncState => ({
  schedule: row.schedule,
  schedule_hour: row.scheduleHour,
  next_sync_at: row.nextSyncAt?.toISOString() ?? null,
  last_changes: row.lastChanges,
  sync_task_id: runningTaskId,
});

/** Counts what a sync did, page by page. */
export const noChanges = (): SyncChanges => ({ added: 0, changed: 0, removed: 0, unchanged: 0 });

/** How many due sources one transaction of a scheduled task claims. */
export const DUE_BATCH = 50;
