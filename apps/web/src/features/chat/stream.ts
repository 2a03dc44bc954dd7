import type { ChatRequest, StreamEvent } from '@parley/contracts';
import { createSseParser } from './sse';

export type StreamChatOptions = {
  token: string | null;
  signal?: AbortSignal;
  onEvent: (event: StreamEvent) => void;
};

/** A non-2xx answer of the stream endpoint, with the server's detail. */
export class StreamHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * POST /api/chat/chats/stream (console.md section 7): the answer arrives as Server-Sent Events,
 * read from the response body as it comes (EventSource cannot POST).
 */
export async function streamChat(
  body: Pick<ChatRequest, 'bot_id' | 'message'> & { conversation_id?: number },
  options: StreamChatOptions,
): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch('/api/chat/chats/stream', {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!response.ok || !response.body) {
    let detail = `POST /api/chat/chats/stream failed (${response.status})`;
    try {
      const data = (await response.json()) as { detail?: unknown };
      if (typeof data.detail === 'string' && data.detail) detail = data.detail;
    } catch {
      // Not JSON: keep the request text.
    }
    throw new StreamHttpError(response.status, detail);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const event of parser.feed(decoder.decode(value, { stream: true }))) options.onEvent(event);
  }
  for (const event of parser.feed(decoder.decode())) options.onEvent(event);
  for (const event of parser.end()) options.onEvent(event);
}
