import { describe, expect, it } from 'vitest';
import { directLink, embedSnippet } from './embed';

describe('embed code', () => {
  it('points the script and the link at this origin and the bot uuid', () => {
    expect(embedSnippet('https://c.example', 'u-1')).toBe(
      '<script src="https://c.example/widget.js" data-bot="u-1" defer></script>',
    );
    expect(directLink('https://c.example', 'u-1')).toBe('https://c.example/chat/u-1');
  });
});
