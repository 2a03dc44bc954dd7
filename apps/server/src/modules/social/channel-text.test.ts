import { describe, expect, it } from 'vitest';
import { partsFor, plain, split, TEXT_LIMIT } from './channel-text.js';

describe('channel text', () => {
  it('turns markdown into plain text, keeping link addresses', () => {
    expect(plain('## Shipping\n**Fast** to [Canada](https://x.example/ca), see `FAQ`.')).toBe(
      'Shipping\nFast to Canada (https://x.example/ca), see FAQ.',
    );
  });

  it('lists the sources with links under the answer', () => {
    const parts = partsFor('messenger', {
      message: 'Two days [1].',
      sources: [
        { source_type: 'web', page_url: 'https://x.example/a', page_title: 'Shipping', page_number: null },
        { source_type: 'file', page_url: null, page_title: 'Manual.pdf', page_number: 3 },
      ],
    });
    expect(parts).toEqual(['Two days [1].\n\nSources:\n1. Shipping https://x.example/a']);
  });

  it('splits at the channel limit on a word boundary, losing nothing', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const parts = split(words, TEXT_LIMIT.instagram);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1000);
    expect(parts.join(' ')).toBe(words);
    expect(parts.every((part) => /^word\d+/.test(part) && /word\d+$/.test(part))).toBe(true);
  });
});
