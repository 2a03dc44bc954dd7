import { describe, expect, it } from 'vitest';
import { cspDirectives, directLink, embedSnippet } from './embed';

describe('embed code', () => {
  it('points the script and the link at this origin and the bot uuid', () => {
    expect(embedSnippet('https://c.example', 'u-1')).toBe(
      '<script src="https://c.example/widget.js" data-bot="u-1" defer></script>',
    );
    expect(directLink('https://c.example', 'u-1')).toBe('https://c.example/chat/u-1');
  });

  it('names what a strict Content-Security-Policy must allow, the socket included', () => {
    expect(cspDirectives('https://c.example')).toBe(
      'script-src https://c.example; connect-src https://c.example wss://c.example; img-src https://c.example',
    );
    expect(cspDirectives('http://localhost:5173')).toContain(
      'connect-src http://localhost:5173 ws://localhost:5173;',
    );
  });
});
