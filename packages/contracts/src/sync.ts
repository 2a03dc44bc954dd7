import { z } from 'zod';

/** How often a web source is re-crawled or a Notion workspace re-synced: never (the default), daily, weekly. */
export const SYNC_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export type SyncScheduleName = (typeof SYNC_SCHEDULES)[number];

/** The hour (UTC) scheduled syncs start at when none is given. */
export const DEFAULT_SYNC_HOUR = 3;

/** Sets a source's schedule. */
export const SyncScheduleBody = z.object({
  schedule: z.enum(SYNC_SCHEDULES, { error: `Schedule must be one of ${SYNC_SCHEDULES.join(', ')}` }),
  /** Hour of the day, in UTC, at which the sync starts (weekly ones on Mondays). */
  schedule_hour: z
    .number({ error: 'Hour must be a number from 0 to 23' })
    .int('Hour must be a whole number')
    .min(0, 'Hour must be from 0 to 23')
    .max(23, 'Hour must be from 0 to 23')
    .default(DEFAULT_SYNC_HOUR),
});
export type SyncScheduleBody = z.input<typeof SyncScheduleBody>;

/** What the last sync of a source found, page by page. */
export const SyncChanges = z.object({
  added: z.number().int(),
  changed: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
});
export type SyncChanges = z.infer<typeof SyncChanges>;

/** The schedule fields every syncable source (web source, Notion workspace) answers with. */
export const SyncState = z.object({
  schedule: z.enum(SYNC_SCHEDULES),
  schedule_hour: z.number().int(),
  /** When the next scheduled sync is due; null when the schedule is off. */
  next_sync_at: z.string().nullable(),
  /** Counts of the last finished sync; null before the first one. */
  last_changes: SyncChanges.nullable(),
  /** The sync queued or running now (its progress at GET /jobs/{id}), or null. */
  sync_task_id: z.string().nullable(),
});
export type SyncState = z.infer<typeof SyncState>;

/** Texts of the schedule control and of a source's sync summary. */
export const SYNC_TEXTS = {
  scheduleSaved: 'Schedule saved',
  scheduleFailed: 'Failed to save the schedule',
  recrawlFailed: 'Failed to start the re-crawl',
  neverSynced: 'never',
} as const;

/** "1 added, 1 changed, 1 removed, 2 unchanged" (counts of zero left out), or "nothing found". */
export function describeChanges(changes: SyncChanges): string {
  const parts = (['added', 'changed', 'removed', 'unchanged'] as const)
    .filter((kind) => changes[kind] > 0)
    .map((kind) => `${changes[kind]} ${kind}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing found';
}
