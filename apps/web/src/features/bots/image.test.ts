import { BOT_IMAGE_MAX_BYTES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { imageProblem } from './image';

describe('imageProblem', () => {
  it('accepts small images of the allowed kinds', () => {
    expect(imageProblem({ type: 'image/png', size: 100 })).toBeNull();
  });
  it('refuses other kinds and large files', () => {
    expect(imageProblem({ type: 'application/pdf', size: 100 })).toMatch(/PNG, JPEG/);
    expect(imageProblem({ type: 'image/jpeg', size: BOT_IMAGE_MAX_BYTES + 1 })).toMatch(/at most 2 MB/);
  });
});
