import type { ChatMessage } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { askedBefore, explainable, missedAnswer } from './asked';

const message = (
  id: number,
  message_type: 'user' | 'bot',
  text: string,
  answer_mode: ChatMessage['answer_mode'] = null,
) => ({ id, message_type, message: text, answer_mode }) as ChatMessage;

describe('what an answer in the playground replied to', () => {
  const conversation = [
    message(1, 'bot', 'Welcome!'),
    message(2, 'user', 'When do you open on Saturday?'),
    message(3, 'bot', 'Saturday: 8 am – 4 pm', 'extractive'),
    message(4, 'user', 'and on Sunday?'),
    message(5, 'bot', 'Sunday: 9 am – 1 pm', 'extractive'),
  ];

  it('finds the question, the question before it and the reply to that one', () => {
    expect(askedBefore(conversation, conversation[4]!)).toEqual({
      query: 'and on Sunday?',
      previousQuestion: 'When do you open on Saturday?',
      previousAnswer: 'Saturday: 8 am – 4 pm',
    });
    expect(askedBefore(conversation, conversation[2]!)).toEqual({
      query: 'When do you open on Saturday?',
      previousQuestion: null,
      previousAnswer: null,
    });
    expect(askedBefore(conversation, conversation[0]!)).toBeNull();
    expect(askedBefore(conversation, message(9, 'bot', 'elsewhere', 'extractive'))).toBeNull();
  });

  it('explains the answers its sources decided, not greetings or orders', () => {
    expect(explainable(conversation[4]!)).toBe(true);
    expect(explainable(message(6, 'bot', 'Hi!', 'small_talk'))).toBe(false);
    expect(explainable(message(7, 'bot', 'Your order…', 'order'))).toBe(false);
    expect(explainable(conversation[3]!)).toBe(false);
  });
});

describe('answers the owner should answer with a Q&A pair', () => {
  it('are those that found nothing or were not sure, not the sure ones nor small talk', () => {
    expect(missedAnswer(message(1, 'bot', "Sorry, I don't know", 'not_found'))).toBe(true);
    expect(missedAnswer(message(2, 'bot', "I'm not sure this answers", 'unsure'))).toBe(true);
    expect(missedAnswer(message(3, 'bot', 'Sunday: closed', 'extractive'))).toBe(false);
    expect(missedAnswer(message(4, 'bot', 'Yes.', 'qna'))).toBe(false);
    expect(missedAnswer(message(5, 'bot', 'Hello!', 'small_talk'))).toBe(false);
    expect(missedAnswer(message(6, 'user', 'Do you deliver?', 'not_found'))).toBe(false);
  });
});
