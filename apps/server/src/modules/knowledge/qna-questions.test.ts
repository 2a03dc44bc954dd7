import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../core/db/database.js';
import { bestPair, loadQuestions, type PairTerms } from './qna-questions.js';

const dbWith = (rows: PairTerms[]) => ({ execute: async () => ({ rows }) }) as unknown as DbOrTx;

/** A shoe shop's pairs, stemmed as PostgreSQL's english configuration stems them. */
const SHOP: PairTerms[] = [
  {
    id: 4,
    question: ['return', 'polici'],
    answer: ['return', 'unworn', 'item', '30', 'day', 'full', 'refund'],
  },
  {
    id: 7,
    question: ['ship', 'canada'],
    answer: ['yes', 'parcel', 'canada', 'arriv', 'five', 'seven', 'work', 'day'],
  },
  { id: 9, question: ['long', 'ship', 'take'], answer: ['three', 'five', 'busi', 'day'] },
  { id: 12, question: ['pay'], answer: ['accept', 'visa', 'mastercard', 'paypal'] },
];

describe('bestPair', () => {
  it('answers the pair asked in its own words, or in paraphrases sharing its question’s or answer’s words', () => {
    expect(bestPair(SHOP, 4, ['long', 'ship', 'take'])).toEqual({ qnaId: 9, wording: 0, coverage: 1 });
    // "Shipping to Canada?"
    expect(bestPair(SHOP, 4, ['ship', 'canada'])?.qnaId).toBe(7);
    // "Parcels to Canada?": parcel is only in the answer.
    expect(bestPair(SHOP, 4, ['parcel', 'canada'])?.qnaId).toBe(7);
    // "Can I return an item?": item is only in the return policy's answer.
    expect(bestPair(SHOP, 4, ['return', 'item'])?.qnaId).toBe(4);
    // "Can I pay with PayPal?"
    expect(bestPair(SHOP, 4, ['pay', 'paypal'])?.qnaId).toBe(12);
  });

  it('answers nothing when no pair clearly wins or the question is mostly about something else', () => {
    // "Shipping?" fits two pairs equally: neither is clearly meant.
    expect(bestPair(SHOP, 4, ['ship'])).toBeNull();
    // "Do you sell Canada Goose jackets?"
    expect(bestPair(SHOP, 4, ['sell', 'canada', 'goos', 'jacket'])).toBeNull();
    // "Do you take PayPal?": take is a word of the shipping time's question, but only one of two.
    expect(bestPair(SHOP, 4, ['take', 'paypal'])).toBeNull();
    expect(bestPair(SHOP, 4, ['warranti'])).toBeNull();
    expect(bestPair(SHOP, 4, [])).toBeNull();
  });

  it('holds a word when the pair holds its everyday synonym: "Can I get my refund?" is the return policy', () => {
    const alike = new Map([
      ['refund', ['return']],
      ['return', ['refund']],
    ]);
    // "refund" is in the return policy's answer only (counting half); with its synonym, in its question.
    expect(bestPair(SHOP, 4, ['refund', 'polici'])).toEqual({ qnaId: 4, wording: 0, coverage: 0.75 });
    expect(bestPair(SHOP, 4, ['refund', 'polici'], alike)).toEqual({ qnaId: 4, wording: 0, coverage: 1 });
  });
});

describe('bestPair with other wordings', () => {
  // The Canada pair's owner added a visitor's words from the unanswered queue.
  const canada = SHOP[1]!;
  const WORDED: PairTerms[] = [
    ...SHOP,
    { id: 7, wording: 1, question: ['send', 'stuff', 'toronto'], answer: canada.answer },
    { id: 7, wording: 2, question: ['ship', 'canada', 'free'], answer: canada.answer },
  ];

  it('answers a visitor in the words of one of its other wordings, and says which', () => {
    // "can you send stuff to toronto": without the wording, no pair means it.
    expect(bestPair(SHOP, 4, ['send', 'stuff', 'toronto'])).toBeNull();
    expect(bestPair(WORDED, 4, ['send', 'stuff', 'toronto'])).toEqual({ qnaId: 7, wording: 1, coverage: 1 });
  });

  it("never counts a pair's wordings as rivals of each other, nor as more pairs holding a word", () => {
    // Its own question and its second wording both hold "ship canada": still one pair, clearly meant.
    expect(bestPair(WORDED, 4, ['ship', 'canada'])).toMatchObject({ qnaId: 7, wording: 0 });
    // "Shipping?" still fits two pairs (Canada and shipping time) equally, however many wordings say it.
    expect(bestPair(WORDED, 4, ['ship'])).toBeNull();
  });
});

describe('QnaQuestions', () => {
  it('finds among the pairs held in memory what bestPair finds among all of them', async () => {
    const questions = await loadQuestions(dbWith(SHOP), 1, 1, 3);
    expect(questions.version).toBe(3);
    for (const query of [['long', 'ship', 'take'], ['parcel', 'canada'], ['refund'], ['ship'], ['warranti']])
      expect(questions.best(query)).toEqual(bestPair(SHOP, SHOP.length, query));
    // A pair's other wordings are rows of their own, and the pairs are still counted once each.
    const worded = await loadQuestions(
      dbWith([...SHOP, { id: 7, wording: 1, question: ['send', 'stuff', 'toronto'], answer: [] }]),
      1,
      1,
      4,
    );
    expect(worded.best(['send', 'stuff', 'toronto'])).toMatchObject({ qnaId: 7, wording: 1 });
    expect(worded.best(['long', 'ship', 'take'])).toEqual(
      bestPair(SHOP, SHOP.length, ['long', 'ship', 'take']),
    );
    // A pair that holds only a synonym of the visitor's word is a candidate too.
    const alike = new Map([['tidi', ['clean']]]);
    const cleaning = await loadQuestions(
      dbWith([{ id: 1, question: ['clean', 'job'], answer: [] }]),
      1,
      1,
      1,
    );
    expect(cleaning.best(['tidi'], alike)).toEqual({ qnaId: 1, wording: 0, coverage: 1 });
  });
});
