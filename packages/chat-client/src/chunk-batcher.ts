import { SOCKET } from '@parley/contracts/constants';

export type ChunkBatcher = {
  /** Adds streamed text; it reaches `flush` at most one interval later, joined with its neighbours. */
  push: (text: string) => void;
  /** Hands over whatever is waiting now (for example when the final message arrives). */
  flushNow: () => void;
  /** Drops whatever is waiting and stops the timer. */
  cancel: () => void;
};

/**
 * Streamed chunks arrive many times a second; rendering each would re-render the chat as often.
 * The batcher gathers them and hands the joined text to `flush` once per interval (spec section 9:
 * 16 ms), so state changes at most once a frame.
 */
export function createChunkBatcher(
  flush: (text: string) => void,
  intervalMs: number = SOCKET.chunkBatchMs,
): ChunkBatcher {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | null = null;

  const emit = () => {
    timer = null;
    if (!pending) return;
    const text = pending;
    pending = '';
    flush(text);
  };

  return {
    push: (text) => {
      if (!text) return;
      pending += text;
      timer ??= setTimeout(emit, intervalMs);
    },
    flushNow: () => {
      if (timer !== null) clearTimeout(timer);
      emit();
    },
    cancel: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = '';
    },
  };
}
