import type { ChatMessage } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { lastSeq, mergeMessages, rateable } from './messages.js';

const m = (conversation_id: number, seq: number, message = `m${seq}`) =>
  ({ conversation_id, seq, message }) as ChatMessage;

describe('mergeMessages', () => {
  it('keeps each conversation and seq once, in seq order', () => {
    const merged = mergeMessages([m(1, 2), m(1, 1)], [m(1, 3), m(1, 2, 'again'), m(1, 1)]);
    expect(merged.map((x) => [x.seq, x.message])).toEqual([
      [1, 'm1'],
      [2, 'again'],
      [3, 'm3'],
    ]);
    expect(mergeMessages(merged, merged)).toHaveLength(3);
  });

  it("keeps the reader's rating from the history when a live copy without one arrives", () => {
    const rated = { ...m(1, 2), rating: 'up' } as ChatMessage;
    expect(mergeMessages([rated], [m(1, 2, 'live')])[0]).toMatchObject({ message: 'live', rating: 'up' });
    // A copy that does say (a later history read, the reader's own change) wins.
    const changed = { ...m(1, 2), rating: null } as ChatMessage;
    expect(mergeMessages([rated], [changed])[0]!.rating).toBeNull();
  });

  it('returns the same list when nothing arrives, and finds the last seq', () => {
    const list = [m(1, 1), m(2, 5)];
    expect(mergeMessages(list, [])).toBe(list);
    expect(lastSeq(list, 2)).toBe(5);
    expect(lastSeq(list, 3)).toBe(0);
  });
});

describe('rateable', () => {
  it("offers thumbs on the bot's answers only: not the welcome, a notice or the reply to a greeting", () => {
    expect(rateable({ id: 5, answer_mode: 'extractive' })).toBe(true);
    expect(rateable({ id: 5, answer_mode: 'not_found' })).toBe(true);
    expect(rateable({ id: 0, answer_mode: 'extractive' })).toBe(false);
    expect(rateable({ id: 5, answer_mode: null })).toBe(false);
    expect(rateable({ id: 5 } as ChatMessage)).toBe(false);
    expect(rateable({ id: 5, answer_mode: 'limit' })).toBe(false);
    expect(rateable({ id: 5, answer_mode: 'small_talk' })).toBe(false);
  });
});
