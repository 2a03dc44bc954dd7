import { skipToken } from '@reduxjs/toolkit/query';
import { useCallback, useEffect, useReducer } from 'react';
import { useAppDispatch } from '../../../app/store';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { refreshQnas, useTrainingProgressQuery, useTrainQnaMutation } from '../api';
import { idleTraining, pollingTask, type TrainingState, trainingReducer } from '../training';

const POLL_MS = 1000;

/**
 * Trains a bot on its Q&A pairs and follows the task (section 4 QnA training): progress is polled
 * every second while it runs; at the end the list is refetched so each pair shows trained.
 */
export function useQnaTraining(botId: number): { state: TrainingState; start: () => Promise<void> } {
  const notify = useNotify();
  const dispatch = useAppDispatch();
  const [state, send] = useReducer(trainingReducer, idleTraining);
  const [train] = useTrainQnaMutation();
  const taskId = pollingTask(state);
  const progress = useTrainingProgressQuery(taskId ?? skipToken, { pollingInterval: POLL_MS });

  const start = useCallback(async () => {
    send({ type: 'start' });
    try {
      const { task_id } = await train(botId).unwrap();
      send({ type: 'started', taskId: task_id });
    } catch (error) {
      send({ type: 'startFailed', detail: serverDetail(error) });
    }
  }, [botId, train]);

  useEffect(() => {
    if (progress.data) send({ type: 'progress', progress: progress.data });
  }, [progress.data]);

  useEffect(() => {
    if (progress.isError) send({ type: 'progressFailed', detail: serverDetail(progress.error) });
  }, [progress.isError, progress.error]);

  const { status } = state;
  const error = state.status === 'failed' ? state.error : null;
  useEffect(() => {
    if (status === 'completed') notify.success('Q&A training completed');
    if (status === 'failed' && error) notify.error(error);
    // Trained (or, after a failure, partly trained) pairs: show what the server now holds.
    if (status === 'completed' || status === 'failed') dispatch(refreshQnas(botId));
  }, [status, error, botId, notify, dispatch]);

  return { state, start };
}
