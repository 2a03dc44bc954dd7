import type { StreamEvent } from '@parley/contracts';

/**
 * Server-Sent Events as POST /chat/chats/stream writes them: `data: <json>` lines, events separated
 * by a blank line. Feed it decoded text as it arrives, in pieces of any size; it returns the events
 * completed so far and keeps the rest for the next call.
 */
export function createSseParser(): { feed: (text: string) => StreamEvent[]; end: () => StreamEvent[] } {
  let buffer = '';

  const parseBlock = (block: string): StreamEvent | null => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) return null;
    try {
      return JSON.parse(data) as StreamEvent;
    } catch {
      return null;
    }
  };

  const drain = (final: boolean): StreamEvent[] => {
    buffer = buffer.replace(/\r\n?/g, '\n');
    const events: StreamEvent[] = [];
    let index = buffer.indexOf('\n\n');
    while (index !== -1) {
      const event = parseBlock(buffer.slice(0, index));
      if (event) events.push(event);
      buffer = buffer.slice(index + 2);
      index = buffer.indexOf('\n\n');
    }
    if (final && buffer.trim()) {
      const event = parseBlock(buffer);
      if (event) events.push(event);
      buffer = '';
    }
    return events;
  };

  return {
    feed: (text) => {
      buffer += text;
      return drain(false);
    },
    end: () => drain(true),
  };
}
