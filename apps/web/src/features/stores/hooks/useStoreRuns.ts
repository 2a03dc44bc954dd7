import { STORE_TEXTS } from '@parley/contracts';
import { useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNotify } from '../../../shared/hooks/useNotify';
import {
  type StoreRef,
  storesApi,
  useGlobalSyncMutation,
  useGlobalTrainingMutation,
  useSyncStatusQuery,
  useTrainingStatusQuery,
} from '../api';
import { failText, isTrainingActive, storeFailText } from '../model';
import { JOB_POLL_MS, useStoreJob } from './useStoreJob';

/**
 * The store's global sync: start it, follow its job, and poll its status every 1.5 s while it
 * syncs (section 3 Global sync status). When it ends, lists and counts are read again.
 */
export function useGlobalSync(ref: StoreRef) {
  const notify = useNotify();
  const dispatch = useDispatch();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [poll, setPoll] = useState(false);
  const [start, starting] = useGlobalSyncMutation();
  const status = useSyncStatusQuery(ref, { pollingInterval: poll ? JOB_POLL_MS : 0 });
  const { running } = useStoreJob(taskId, (outcome, job) => {
    dispatch(storesApi.util.invalidateTags([{ type: 'StoreSync', id: `${ref.platform}-${ref.storeId}` }]));
    if (outcome === 'failed') notify.error(job?.error || STORE_TEXTS.globalSyncFailed);
  });
  const syncing = status.data?.overallStatus === 'syncing';
  useEffect(() => setPoll(syncing || running), [syncing, running]);

  const was = useRef(syncing);
  useEffect(() => {
    if (was.current && !syncing && status.data) {
      dispatch(storesApi.util.invalidateTags(['Stores', 'StoreItems', 'StoreTraining']));
      if (status.data.overallStatus === 'error')
        notify.error(status.data.errors[0] ?? STORE_TEXTS.globalSyncFailed);
    }
    was.current = syncing;
  }, [syncing, status.data, dispatch, notify]);

  const onStart = async () => {
    try {
      const { message, task_id } = await start(ref).unwrap();
      setTaskId(task_id);
      setPoll(true);
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, STORE_TEXTS.globalSyncFailed));
    }
  };
  return { status, busy: starting.isLoading || syncing || running, start: onStart };
}

/**
 * The store's training: start a global run, follow its job, and poll the per-type status every
 * 1.5 s while training is active (section 3 Global training flags).
 */
export function useGlobalTraining(ref: StoreRef) {
  const notify = useNotify();
  const dispatch = useDispatch();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [poll, setPoll] = useState(false);
  const [start, starting] = useGlobalTrainingMutation();
  const status = useTrainingStatusQuery(ref, { pollingInterval: poll ? JOB_POLL_MS : 0 });
  const { running } = useStoreJob(taskId, (outcome, job) => {
    dispatch(storesApi.util.invalidateTags(['StoreTraining', 'StoreItems']));
    if (outcome === 'failed') notify.error(job?.error || storeFailText(ref.platform, 'globalTraining'));
  });
  const active = isTrainingActive(status.data);
  useEffect(() => setPoll(active || running), [active, running]);

  const was = useRef(active);
  useEffect(() => {
    if (was.current && !active) dispatch(storesApi.util.invalidateTags(['StoreItems', 'Stores']));
    was.current = active;
  }, [active, dispatch]);

  const onStart = async () => {
    try {
      const { message, task_id } = await start(ref).unwrap();
      setTaskId(task_id);
      setPoll(true);
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, storeFailText(ref.platform, 'globalTraining')));
    }
  };
  return { status, busy: starting.isLoading || active || running, start: onStart };
}
