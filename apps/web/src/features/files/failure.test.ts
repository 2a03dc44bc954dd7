import { MESSAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { deleteGroupFailure } from './failure';
import { progressOf } from './upload';

describe('deleteGroupFailure', () => {
  it('names the bots when the server lists them', () => {
    expect(deleteGroupFailure({ status: 409, data: { detail: 'x', associated_bots: ['Ada', 'Bob'] } })).toBe(
      'An error occurred while deleting the file group Associated bots: Ada, Bob',
    );
    expect(deleteGroupFailure({ status: 500, data: { detail: 'boom' } })).toBe(
      MESSAGES.files.deleteGroupFailed,
    );
  });
});

describe('progressOf', () => {
  it('splits the bytes sent across the files in order', () => {
    expect(progressOf([100, 300], 0, 400)).toEqual({ perFile: [0, 0], total: 0 });
    expect(progressOf([100, 300], 200, 400)).toEqual({ perFile: [100, 33], total: 50 });
    expect(progressOf([100, 300], 400, 400)).toEqual({ perFile: [100, 100], total: 100 });
  });
});
