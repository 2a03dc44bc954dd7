import { MESSAGES, type TrainingProgress } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  idleTraining,
  isTrainingBusy,
  pollingTask,
  progressFigures,
  type TrainingEvent,
  type TrainingState,
  trainedSummary,
  trainingReducer,
  truncate,
} from './training';

const report = (
  status: TrainingProgress['status'],
  extra: Partial<TrainingProgress> = {},
): TrainingProgress => ({
  task_id: 'task-1',
  status,
  current: 1,
  total: 4,
  percentage: 25,
  error: null,
  ...extra,
});

const run = (...events: TrainingEvent[]): TrainingState => events.reduce(trainingReducer, idleTraining);

describe('trainingReducer', () => {
  it('goes idle → starting → in_progress with the task id', () => {
    expect(run({ type: 'start' })).toEqual({ status: 'starting' });
    const running = run({ type: 'start' }, { type: 'started', taskId: 'task-1' });
    expect(running).toEqual({ status: 'in_progress', taskId: 'task-1', progress: null });
    expect(pollingTask(running)).toBe('task-1');
    expect(isTrainingBusy(running)).toBe(true);
  });

  it('stays in_progress while the task is queued or running, keeping its figures', () => {
    const state = run(
      { type: 'start' },
      { type: 'started', taskId: 'task-1' },
      { type: 'progress', progress: report('queued', { current: 0, percentage: 0 }) },
      { type: 'progress', progress: report('in_progress', { current: 2, percentage: 50 }) },
    );
    expect(state.status).toBe('in_progress');
    expect(progressFigures(state)).toEqual({ current: 2, total: 4, percentage: 50 });
  });

  it('completes on status completed and stops polling', () => {
    const state = run(
      { type: 'start' },
      { type: 'started', taskId: 'task-1' },
      { type: 'progress', progress: report('completed', { current: 4, percentage: 100 }) },
    );
    expect(state.status).toBe('completed');
    expect(pollingTask(state)).toBeNull();
    expect(isTrainingBusy(state)).toBe(false);
    expect(progressFigures(state)).toEqual({ current: 4, total: 4, percentage: 100 });
  });

  it("fails with the task's error text, or 'Training failed'", () => {
    const started: TrainingEvent[] = [{ type: 'start' }, { type: 'started', taskId: 'task-1' }];
    expect(run(...started, { type: 'progress', progress: report('failed', { error: 'LLM down' }) })).toEqual({
      status: 'failed',
      error: 'LLM down',
    });
    expect(run(...started, { type: 'progress', progress: report('failed') })).toEqual({
      status: 'failed',
      error: MESSAGES.qna.trainingFailed,
    });
  });

  it('fails to start with the server detail, or the catalogue text', () => {
    expect(run({ type: 'start' }, { type: 'startFailed', detail: 'Bot not found' })).toEqual({
      status: 'failed',
      error: 'Bot not found',
    });
    expect(run({ type: 'start' }, { type: 'startFailed' })).toEqual({
      status: 'failed',
      error: 'Failed to start training',
    });
  });

  it('fails when progress cannot be read', () => {
    expect(run({ type: 'start' }, { type: 'started', taskId: 'task-1' }, { type: 'progressFailed' })).toEqual(
      {
        status: 'failed',
        error: 'Failed to get training progress',
      },
    );
  });

  it('ignores reports of another task and events out of order', () => {
    const running = run({ type: 'start' }, { type: 'started', taskId: 'task-1' });
    expect(
      trainingReducer(running, { type: 'progress', progress: report('completed', { task_id: 'old' }) }),
    ).toBe(running);
    expect(trainingReducer(idleTraining, { type: 'started', taskId: 'x' })).toBe(idleTraining);
    expect(trainingReducer(idleTraining, { type: 'progress', progress: report('completed') })).toBe(
      idleTraining,
    );
    expect(trainingReducer(running, { type: 'start' })).toBe(running);
  });

  it('can train again after completing or failing, and resets to idle', () => {
    const done = run({ type: 'start' }, { type: 'started', taskId: 'task-1' }, { type: 'progressFailed' });
    expect(trainingReducer(done, { type: 'start' })).toEqual({ status: 'starting' });
    expect(trainingReducer(done, { type: 'reset' })).toEqual(idleTraining);
  });
});

describe('trainedSummary', () => {
  it('counts the trained pairs', () => {
    const pairs = [true, false, true, true, false].map((trained) => ({ trained }));
    expect(trainedSummary(pairs)).toEqual({ trained: 3, untrained: 2, text: '3 of 5 trained' });
    expect(trainedSummary([]).text).toBe('0 of 0 trained');
  });
});

describe('truncate', () => {
  it('keeps short text and cuts long text at a word', () => {
    expect(truncate('  Opening   hours ')).toBe('Opening hours');
    expect(truncate('one two three four five', 12)).toBe('one two…');
    expect(truncate('abcdefghijklmnop', 5)).toBe('abcde…');
  });
});
