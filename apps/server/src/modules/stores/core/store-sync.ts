import type { GlobalSyncStatus, StoreKind, StorePlatform } from '@parley/contracts';
import { pluralOf } from '@parley/contracts';

/**
 * The global sync state machine (integrations-and-billing.md section 4): every chosen type starts
 * pending and the run syncing; types run one after another, each syncing then completed at 100 or
 * error with its message (a failing type does not stop the others, and what did sync is kept); the
 * overall progress is the average of the types'; at the end all completed gives completed and 100,
 * otherwise any error gives error, otherwise (a type never reached: the run was stopped) partial.
 * Pure, so tests can walk it.
 */
export function startedSync(
  storeId: number,
  platform: StorePlatform,
  kinds: ReadonlyArray<StoreKind>,
  taskId: string,
  now: Date,
): GlobalSyncStatus {
  return {
    storeId,
    overallStatus: 'syncing',
    overallProgress: 0,
    startTime: now.toISOString(),
    endTime: null,
    contentTypes: kinds.map((kind) => ({
      contentType: pluralOf(platform, kind),
      status: 'pending',
      progress: 0,
      syncedCount: 0,
      totalCount: 0,
      error: null,
    })),
    totalSynced: 0,
    errors: [],
    warnings: [],
    task_id: taskId,
  };
}

type TypeUpdate = Partial<
  Pick<
    GlobalSyncStatus['contentTypes'][number],
    'status' | 'progress' | 'syncedCount' | 'totalCount' | 'error'
  >
>;

export function updateType(
  status: GlobalSyncStatus,
  contentType: string,
  update: TypeUpdate,
): GlobalSyncStatus {
  const contentTypes = status.contentTypes.map((t) =>
    t.contentType === contentType ? { ...t, ...update } : t,
  );
  const errors = update.error ? [...status.errors, `${contentType}: ${update.error}`] : status.errors;
  return {
    ...status,
    contentTypes,
    errors,
    overallProgress: average(contentTypes.map((t) => t.progress)),
    totalSynced: contentTypes.reduce((sum, t) => sum + t.syncedCount, 0),
  };
}

export function finishedSync(status: GlobalSyncStatus, now: Date): GlobalSyncStatus {
  const states = status.contentTypes.map((t) => t.status);
  const allDone = states.every((s) => s === 'completed');
  const overallStatus = allDone ? 'completed' : states.includes('error') ? 'error' : 'partial';
  return {
    ...status,
    overallStatus,
    overallProgress: allDone ? 100 : status.overallProgress,
    endTime: now.toISOString(),
    task_id: null,
  };
}

/** A run that failed as a whole (the store refused the keys, the job gave up): overall error. */
export function failedSync(status: GlobalSyncStatus, message: string, now: Date): GlobalSyncStatus {
  return {
    ...status,
    overallStatus: 'error',
    endTime: now.toISOString(),
    errors: [...status.errors, message],
    contentTypes: status.contentTypes.map((t) =>
      t.status === 'pending' || t.status === 'syncing'
        ? { ...t, status: 'error', error: t.error ?? message }
        : t,
    ),
    task_id: null,
  };
}

const average = (values: number[]) =>
  values.length === 0 ? 0 : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;
