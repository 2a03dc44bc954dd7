import { expect, it } from 'vitest';
import { markdownSections } from './markdown.js';

it('splits by headings and keeps the heading path, ignoring headings inside code fences', () => {
  const sections = markdownSections(
    [
      'Intro text.',
      '# Guide',
      'About.',
      '## [Install](https://x.y)',
      'Run `npm i`.',
      '```sh',
      '# not a heading',
      '```',
      '### On Linux',
      'apt.',
      '## Use',
      'Go.',
    ].join('\n'),
  );
  expect(sections.map((s) => [s.headingPath, s.text.split('\n')[0]])).toEqual([
    [undefined, 'Intro text.'],
    ['Guide', 'About.'],
    ['Guide > Install', 'Run `npm i`.'],
    ['Guide > Install > On Linux', 'apt.'],
    ['Guide > Use', 'Go.'],
  ]);
  expect(sections[2]!.text).toContain('# not a heading');
});
