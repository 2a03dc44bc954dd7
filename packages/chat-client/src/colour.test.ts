import { describe, expect, it } from 'vitest';
import { readableOn } from './colour.js';

describe('readableOn', () => {
  it('picks dark text on light colours and light text on dark ones', () => {
    expect(readableOn('#ffffff')).toBe('#000000');
    expect(readableOn('#1a237e')).toBe('#ffffff');
    expect(readableOn('not a colour')).toBe('#000000');
  });
});
