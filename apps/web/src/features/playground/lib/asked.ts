import type { ChatMessage } from '@parley/contracts';
import type { AskedInChat } from '../../knowledge/components/RetrievalPreview';

/** The answers whose decision the bot's sources made, which "Why this answer?" can show. */
const FROM_SOURCES = new Set<ChatMessage['answer_mode']>(['qna', 'llm', 'extractive', 'unsure', 'not_found']);

export const explainable = (message: ChatMessage): boolean =>
  message.message_type === 'bot' && FROM_SOURCES.has(message.answer_mode);

/**
 * The answers a visitor would have been left without (nothing found, or quoted not sure): the
 * question a Q&A pair of the owner's should answer. A visitor's such question joins the unanswered
 * queue; the owner's own test does not, so the playground offers the pair at once.
 */
export const missedAnswer = (message: ChatMessage): boolean =>
  message.message_type === 'bot' && (message.answer_mode === 'not_found' || message.answer_mode === 'unsure');

/**
 * The question a bot answer replied to, the visitor's question before it and the bot's reply to
 * that one: what the bot read a follow-up with ("and on Sunday?" after the Saturday question).
 * Null when the answer is not in the conversation or no question came before it.
 */
export function askedBefore(messages: ChatMessage[], answer: ChatMessage): AskedInChat | null {
  const at = messages.findIndex((m) => m.id === answer.id);
  if (at < 0) return null;
  const before = messages.slice(0, at);
  const questionAt = before.findLastIndex((m) => m.message_type === 'user');
  if (questionAt < 0) return null;
  const earlier = before.slice(0, questionAt);
  const previousAt = earlier.findLastIndex((m) => m.message_type === 'user');
  const reply =
    previousAt < 0 ? undefined : earlier.slice(previousAt).findLast((m) => m.message_type === 'bot');
  return {
    query: before[questionAt]!.message,
    previousQuestion: previousAt < 0 ? null : earlier[previousAt]!.message,
    previousAnswer: reply?.message ?? null,
  };
}
