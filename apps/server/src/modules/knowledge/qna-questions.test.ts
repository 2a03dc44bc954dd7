import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../core/db/database.js';
import { loadQuestions } from './qna-questions.js';

const dbWith = (rows: Array<{ id: number; lexemes: string[] }>) =>
  ({ execute: async () => ({ rows }) }) as unknown as DbOrTx;

describe('QnaQuestions', () => {
  it('finds the question sharing the most lexemes, the lower id on ties', async () => {
    const questions = await loadQuestions(
      dbWith([
        { id: 4, lexemes: ['refund', 'polici'] },
        { id: 7, lexemes: ['refund', 'long', 'take'] },
        { id: 9, lexemes: ['ship', 'long', 'take'] },
      ]),
      1,
      1,
      3,
    );
    expect(questions.version).toBe(3);
    expect(questions.best(['long', 'take', 'ship'])).toEqual({ qnaId: 9, matched: 3, questionTerms: 3 });
    expect(questions.best(['refund', 'long'])).toEqual({ qnaId: 7, matched: 2, questionTerms: 3 });
    expect(questions.best(['refund'])).toEqual({ qnaId: 4, matched: 1, questionTerms: 2 });
    expect(questions.best(['warranti'])).toBeNull();
  });
});
