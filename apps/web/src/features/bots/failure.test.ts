import { MESSAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { addBotFailure, deleteBotFailure } from './failure';

describe('bot failure texts', () => {
  it('prefers the server detail on create, else the spec text', () => {
    expect(addBotFailure({ status: 400, data: { detail: 'Bot name already exists' } })).toBe(
      'Bot name already exists',
    );
    expect(addBotFailure({ status: 500, data: {} })).toBe(MESSAGES.bots.addFailed);
  });

  it('warns with the spec text when a delete is refused', () => {
    expect(deleteBotFailure({ status: 409, data: { detail: 'x' } })).toEqual({
      level: 'warning',
      text: MESSAGES.bots.deleteBlocked,
    });
    expect(deleteBotFailure({ status: 404, data: { detail: 'Bot not found' } }).level).toBe('error');
  });
});
