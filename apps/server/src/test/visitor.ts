import type { VisitorIdentity } from '@parley/contracts';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { TestServer } from './server.js';

/** What a visitor's question is asked of: a bot's widget id and its id. */
export type VisitedBot = { uuid: string; bot_id: number };

/**
 * A website visitor asks `question` in the widget (a new conversation over the visitor socket) and
 * waits for the bot's answer, after the welcome message: the answer's text and its conversation.
 */
export async function visitorConversation(
  server: TestServer,
  target: VisitedBot,
  question: string,
): Promise<{ answer: string; conversationId: number }> {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: target.uuid });
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
  );
  const answers: string[] = [];
  let conversationId = 0;
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as {
      final_result_object?: { message_type: string; message: string; conversation_id: number };
    };
    if (frame.final_result_object?.message_type === 'bot') {
      answers.push(frame.final_result_object.message);
      conversationId = frame.final_result_object.conversation_id;
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const frame = {
    content: {
      bot_id: target.bot_id,
      conversation_id: 0,
      message: question,
      message_type: 'user',
      user_id: null,
      tenant_id: null,
    },
    elements: [],
  };
  socket.send(JSON.stringify(frame));
  await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  socket.close();
  return { answer: answers.at(-1)!, conversationId };
}
