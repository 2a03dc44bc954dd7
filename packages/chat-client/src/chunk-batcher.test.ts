import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChunkBatcher } from './chunk-batcher.js';

describe('createChunkBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins the chunks of one 16 ms window into one flush', () => {
    const flush = vi.fn();
    const batcher = createChunkBatcher(flush);
    batcher.push('Hel');
    batcher.push('lo');
    vi.advanceTimersByTime(15);
    expect(flush).not.toHaveBeenCalled();
    batcher.push(' world');
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(flush).toHaveBeenCalledWith('Hello world');
  });

  it('starts a new window after a flush and stays quiet when nothing arrives', () => {
    const flush = vi.fn();
    const batcher = createChunkBatcher(flush, 16);
    batcher.push('a');
    vi.advanceTimersByTime(16);
    vi.advanceTimersByTime(100);
    batcher.push('b');
    batcher.push('c');
    vi.advanceTimersByTime(16);
    expect(flush.mock.calls).toEqual([['a'], ['bc']]);
  });

  it('ignores empty chunks', () => {
    const flush = vi.fn();
    const batcher = createChunkBatcher(flush);
    batcher.push('');
    vi.advanceTimersByTime(50);
    expect(flush).not.toHaveBeenCalled();
  });

  it('flushes at once on demand and does not flush the same text twice', () => {
    const flush = vi.fn();
    const batcher = createChunkBatcher(flush);
    batcher.push('last words');
    batcher.flushNow();
    expect(flush).toHaveBeenCalledWith('last words');
    vi.advanceTimersByTime(50);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('drops pending text on cancel', () => {
    const flush = vi.fn();
    const batcher = createChunkBatcher(flush);
    batcher.push('abandoned');
    batcher.cancel();
    vi.advanceTimersByTime(50);
    expect(flush).not.toHaveBeenCalled();
  });
});
