import { MESSAGES, type QnA, type TrainingProgress } from '@parley/contracts';

/**
 * QnA training (console.md section 4): idle → starting → in_progress (with a task id) → completed or
 * failed. Polling progress sets completed on status completed, failed on status failed (its error
 * text, or 'Training failed'), and in_progress otherwise.
 */
export type TrainingState =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'in_progress'; taskId: string; progress: TrainingProgress | null }
  | { status: 'completed'; taskId: string; progress: TrainingProgress | null }
  | { status: 'failed'; error: string };

export type TrainingEvent =
  | { type: 'start' }
  | { type: 'started'; taskId: string }
  | { type: 'startFailed'; detail?: string | null }
  | { type: 'progress'; progress: TrainingProgress }
  | { type: 'progressFailed'; detail?: string | null }
  | { type: 'reset' };

export const idleTraining: TrainingState = { status: 'idle' };

export function trainingReducer(state: TrainingState, event: TrainingEvent): TrainingState {
  switch (event.type) {
    case 'start':
      return state.status === 'starting' || state.status === 'in_progress' ? state : { status: 'starting' };
    case 'started':
      return state.status === 'starting'
        ? { status: 'in_progress', taskId: event.taskId, progress: null }
        : state;
    case 'startFailed':
      return state.status === 'starting'
        ? { status: 'failed', error: event.detail || MESSAGES.qna.trainStartFailed }
        : state;
    case 'progress': {
      // Only the running task's reports count (a late answer for an older task is ignored).
      if (state.status !== 'in_progress' || event.progress.task_id !== state.taskId) return state;
      const { progress } = event;
      if (progress.status === 'completed') return { status: 'completed', taskId: state.taskId, progress };
      if (progress.status === 'failed') {
        return { status: 'failed', error: progress.error || MESSAGES.qna.trainingFailed };
      }
      return { status: 'in_progress', taskId: state.taskId, progress };
    }
    case 'progressFailed':
      return state.status === 'in_progress'
        ? { status: 'failed', error: event.detail || MESSAGES.qna.progressFailed }
        : state;
    case 'reset':
      return idleTraining;
  }
}

/** The task to poll: only while training runs. */
export function pollingTask(state: TrainingState): string | null {
  return state.status === 'in_progress' ? state.taskId : null;
}

export function isTrainingBusy(state: TrainingState): boolean {
  return state.status === 'starting' || state.status === 'in_progress';
}

/** The bar's figures: percentage clamped to 0..100, with current and total. */
export function progressFigures(state: TrainingState): {
  current: number;
  total: number;
  percentage: number;
} {
  const progress = state.status === 'in_progress' || state.status === 'completed' ? state.progress : null;
  if (!progress) return { current: 0, total: 0, percentage: state.status === 'completed' ? 100 : 0 };
  const percentage = Math.min(100, Math.max(0, Math.round(progress.percentage)));
  return { current: progress.current, total: progress.total, percentage };
}

/** "3 of 5 trained", and how many still need training. */
export function trainedSummary(pairs: readonly Pick<QnA, 'trained'>[]): {
  trained: number;
  untrained: number;
  text: string;
} {
  const trained = pairs.filter((pair) => pair.trained).length;
  return { trained, untrained: pairs.length - trained, text: `${trained} of ${pairs.length} trained` };
}

/** A long answer cut at a word boundary for the table, with an ellipsis. */
export function truncate(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
