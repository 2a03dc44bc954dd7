import type { JobProgress } from '@parley/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useRef, useState } from 'react';
import { useStoreJobQuery } from '../api';

export type JobOutcome = 'completed' | 'failed' | 'unknown';
export const JOB_POLL_MS = 1500;

/**
 * Follows a background job (GET /jobs/{id}) every 1.5 s until it completes or fails, then calls
 * `onFinish` once. A job that cannot be read ends as 'unknown' (the caller just reloads).
 */
export function useStoreJob(
  taskId: string | null,
  onFinish: (outcome: JobOutcome, job: JobProgress | undefined) => void,
): { job: JobProgress | undefined; running: boolean } {
  const [finished, setFinished] = useState<string | null>(null);
  const running = taskId !== null && finished !== taskId;
  const query = useStoreJobQuery(running ? taskId : skipToken, { pollingInterval: JOB_POLL_MS });
  const callback = useRef(onFinish);
  callback.current = onFinish;

  useEffect(() => {
    if (!taskId || finished === taskId) return;
    if (query.isError) {
      setFinished(taskId);
      callback.current('unknown', undefined);
      return;
    }
    const job = query.data;
    if (!job || job.id !== taskId) return;
    if (job.status === 'completed' || job.status === 'failed') {
      setFinished(taskId);
      callback.current(job.status, job);
    }
  }, [taskId, finished, query.data, query.isError]);

  return { job: running && query.data?.id === taskId ? query.data : undefined, running };
}
