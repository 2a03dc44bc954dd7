import type { ChatMessage } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { contactFormDue, handoffStateOf, mayAskForPerson } from './handoff.js';

const notice = (to: NonNullable<ChatMessage['handoff']>['to']): Pick<ChatMessage, 'handoff'> => ({
  handoff: { from: 'bot', to, reason: 'visitor_asked' },
});
const plain: Pick<ChatMessage, 'handoff'> = { handoff: null };

describe('the hand-off state a chat shows', () => {
  it('follows the last notice, and lets the visitor ask for a person only when none is coming or here', () => {
    expect(handoffStateOf([plain])).toBe('bot');
    expect(handoffStateOf([plain, notice('human_requested'), plain])).toBe('human_requested');
    expect(handoffStateOf([notice('human'), notice('bot')])).toBe('bot');
    expect(mayAskForPerson('after_miss', [plain])).toBe(true);
    expect(mayAskForPerson('always', [notice('human_requested')])).toBe(false);
    expect(mayAskForPerson('always', [notice('human')])).toBe(false);
    expect(mayAskForPerson('always', [notice('closed')])).toBe(true);
    expect(mayAskForPerson('never', [plain])).toBe(false);
  });
});

describe('the contact form a chat shows', () => {
  const line = (seq: number, message_type: ChatMessage['message_type'], message: string, extra = {}) => ({
    seq,
    message_type,
    message,
    actions: [] as ChatMessage['actions'],
    answer_mode: null as ChatMessage['answer_mode'],
    ...extra,
  });
  const offer = (seq: number) =>
    line(seq, 'system', 'Nobody is online', { actions: [{ type: 'contact_form', title: 'Leave' }] });

  it('is due after an offer until the visitor sends it, pre-filled with their question, not their request', () => {
    const asked = [
      line(1, 'bot', 'Welcome'),
      line(2, 'user', 'Do you resole boots?'),
      line(3, 'bot', 'Sorry, I do not know.'),
      line(4, 'user', 'Can I talk to a human?'),
      offer(5),
    ];
    expect(contactFormDue(asked.slice(0, 4))).toBeNull();
    expect(contactFormDue(asked)).toEqual({ offeredAt: 5, question: 'Do you resole boots?' });
    expect(contactFormDue([...asked, line(6, 'user', 'hello?')])).toEqual({
      offeredAt: 5,
      question: 'Do you resole boots?',
    });
    const sent = [...asked, line(6, 'system', 'Thanks, Ada.', { answer_mode: 'contact' })];
    expect(contactFormDue(sent)).toBeNull();
    // Asked again later, nobody there again: offered again.
    expect(contactFormDue([...sent, line(7, 'user', 'Where is my order?'), offer(8)])).toEqual({
      offeredAt: 8,
      question: 'Where is my order?',
    });
    expect(contactFormDue([line(1, 'bot', 'Welcome'), offer(2)])).toEqual({ offeredAt: 2, question: '' });
  });
});
