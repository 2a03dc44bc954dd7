import type { ChatMessage, VisitorIdentity } from '@parley/contracts';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { TestServer } from './server.js';

/** What a visitor's question is asked of: a bot's widget id and its id. */
export type VisitedBot = { uuid: string; bot_id: number };

/** A visitor of a bot's widget, connected over the visitor socket until closed. */
export type Visitor = {
  /** Asks in a new conversation and waits for the bot's answer, after the welcome message. */
  ask(question: string): Promise<ChatMessage>;
  close(): void;
  /** The visitor's signed identity, as the widget sends it (to rate an answer). */
  token: string;
};

/** A website visitor opens the bot's widget: an identity, then the chat socket, open. */
export async function openVisitor(server: TestServer, target: VisitedBot): Promise<Visitor> {
  const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: target.uuid });
  expect(identity.status).toBe(200);
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}`,
  );
  const answers: ChatMessage[] = [];
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as { final_result_object?: ChatMessage };
    if (frame.final_result_object?.message_type === 'bot') answers.push(frame.final_result_object);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    async ask(question) {
      const before = answers.length;
      const content = { bot_id: target.bot_id, conversation_id: 0, message: question, message_type: 'user' };
      socket.send(JSON.stringify({ content: { ...content, user_id: null, tenant_id: null }, elements: [] }));
      // A new conversation: the welcome message first, then the answer.
      await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 2);
      return answers.at(-1)!;
    },
    close: () => socket.close(),
    token: identity.body.visitor_token,
  };
}

/**
 * A website visitor asks `question` in the widget (a new conversation over the visitor socket) and
 * waits for the bot's answer: the answer's text and its conversation.
 */
export async function visitorConversation(
  server: TestServer,
  target: VisitedBot,
  question: string,
): Promise<{ answer: string; conversationId: number }> {
  const visitor = await openVisitor(server, target);
  const reply = await visitor.ask(question);
  visitor.close();
  return { answer: reply.message, conversationId: reply.conversation_id };
}
