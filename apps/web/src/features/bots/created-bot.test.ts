import { describe, expect, it } from 'vitest';
import { createdBot, createdBotListLoaded, reconcileCreatedBot, setCreatedBot } from './created-bot';

describe('created bot (section 4, Bot lifecycle)', () => {
  it('keeps the id while a reloaded list holds the bot', () => {
    expect(reconcileCreatedBot(7, [3, 7])).toBe(7);
  });

  it('clears the id when the bot is absent from the reloaded list', () => {
    expect(reconcileCreatedBot(7, [3, 4])).toBeNull();
    expect(reconcileCreatedBot(null, [3])).toBeNull();
  });

  it('applies a reload to the stored id', () => {
    setCreatedBot(5);
    createdBotListLoaded([5, 6]);
    expect(createdBot()).toBe(5);
    createdBotListLoaded([6]);
    expect(createdBot()).toBeNull();
  });
});
