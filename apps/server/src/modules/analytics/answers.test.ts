import { describe, expect, it } from 'vitest';
import type { MetricRow } from './analytics.queries.js';
import { answerRate, answersOf } from './analytics.service.js';

const row = (key: string, value: number): MetricRow => ({
  day: '2026-11-29',
  bot_id: 1,
  channel: 'web',
  metric: 'messages',
  key,
  value,
});

describe('who answered', () => {
  it('counts the replies to greetings and thanks neither answered nor unanswered', () => {
    const answers = answersOf([
      row('bot:extractive', 1),
      row('bot:extractive:held_back', 2),
      row('bot:unsure', 1),
      row('bot:qna', 1),
      row('helpdesk:helpdesk', 1),
      row('bot:not_found', 4),
      row('bot:small_talk', 10),
      row('user:', 18),
    ]);
    expect(answers).toEqual({ bot: 3, not_sure: 1, qna: 1, agents: 1, unanswered: 4, held_back: 2 });
    expect(answerRate(answers)).toBe(0.6);
  });
});
