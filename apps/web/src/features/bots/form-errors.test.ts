import { describe, expect, it } from 'vitest';
import { firstError } from './form-errors';

describe('firstError', () => {
  it('finds a message at any depth', () => {
    expect(firstError({ message: 'top' })).toBe('top');
    expect(firstError({ fields: [undefined, { name: { message: 'Field name is required' } }] })).toBe(
      'Field name is required',
    );
    expect(firstError(undefined)).toBeUndefined();
  });
});
