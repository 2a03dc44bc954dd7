import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { chunkSections } from './chunker.js';

const paragraph = (n: number) =>
  `Paragraph ${n} talks about refunds, shipping and the warranty in plain words. `.repeat(6);

describe('chunkSections', () => {
  it('keeps a short section whole', () => {
    const [only, ...rest] = chunkSections([{ text: 'Hello world.', pageNumber: 3, headingPath: 'Intro' }]);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      content: 'Hello world.',
      pageNumber: 3,
      headingPath: 'Intro',
      chunkIndex: 0,
    });
  });

  it('cuts long text near the token budget with overlap, and never across pages', () => {
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join('\n\n');
    const drafts = chunkSections(
      [
        { text, pageNumber: 1 },
        { text: 'Page two text.', pageNumber: 2 },
      ],
      300,
      60,
    );
    const pageOne = drafts.filter((d) => d.pageNumber === 1);
    expect(pageOne.length).toBeGreaterThan(5);
    for (const d of pageOne) expect(d.tokenCount).toBeLessThanOrEqual(300);
    for (const d of pageOne) expect(countTokens(d.content)).toBeLessThanOrEqual(310);
    // Each chunk starts with text carried over from the end of the one before.
    for (let i = 1; i < pageOne.length; i++) {
      const opening = pageOne[i]!.content.slice(0, 60);
      expect(pageOne[i - 1]!.content.endsWith(pageOne[i]!.content.split('\n\n')[0]!), opening).toBe(true);
    }
    expect(drafts.at(-1)).toMatchObject({ content: 'Page two text.', pageNumber: 2 });
    expect(drafts.map((d) => d.chunkIndex)).toEqual(drafts.map((_, i) => i));
    // Every paragraph of the input is somewhere.
    for (let i = 0; i < 40; i++) expect(drafts.some((d) => d.content.includes(`Paragraph ${i} `))).toBe(true);
  });

  it('splits a single huge paragraph by sentences and words', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');
    const drafts = chunkSections([{ text: words }], 200, 20);
    expect(drafts.length).toBeGreaterThan(10);
    for (const d of drafts) expect(d.tokenCount).toBeLessThanOrEqual(200);
    expect(drafts.some((d) => d.content.includes('word2999'))).toBe(true);
  });

  it("keeps an empty table cell's place, so the cells after it stay under their headers", () => {
    const [draft] = chunkSections([
      { text: 'Item | Size | Price\nCroissant |  |  | £2.50\nTea   |   Large | £3' },
    ]);
    expect(draft!.content).toBe('Item | Size | Price\nCroissant |  |  | £2.50\nTea | Large | £3');
    expect(draft!.content.split('\n')[1]!.split(' | ')).toEqual(['Croissant', '', '', '£2.50']);
  });

  it('drops empty text', () => {
    expect(chunkSections([{ text: '  \n\n  ' }])).toEqual([]);
  });
});
