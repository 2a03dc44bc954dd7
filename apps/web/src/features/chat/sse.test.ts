import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse';

describe('createSseParser', () => {
  it('parses events split across arbitrary pieces', () => {
    const parser = createSseParser();
    const text =
      'data: {"type":"chunk","data":"Hel"}\n\ndata: {"type":"chunk","data":"lo"}\n\ndata: {"type":"final","final_result_object":null}\n\n';
    const events = [];
    for (let i = 0; i < text.length; i += 7) events.push(...parser.feed(text.slice(i, i + 7)));
    events.push(...parser.end());
    expect(events).toEqual([
      { type: 'chunk', data: 'Hel' },
      { type: 'chunk', data: 'lo' },
      { type: 'final', final_result_object: null },
    ]);
  });

  it('accepts CRLF separators, comments and a last event without a blank line', () => {
    const parser = createSseParser();
    expect(parser.feed(': keep-alive\r\n\r\ndata: {"type":"error","error":"x"}\r\n\r\n')).toEqual([
      { type: 'error', error: 'x' },
    ]);
    expect(parser.feed('data: {"type":"chunk","data":"tail"}')).toEqual([]);
    expect(parser.end()).toEqual([{ type: 'chunk', data: 'tail' }]);
  });
});
