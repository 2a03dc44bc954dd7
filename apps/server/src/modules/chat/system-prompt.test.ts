import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import type { BotRow } from '../bots/bots.queries.js';
import { DECLINE, declinable, passagesForModel, systemPrompt } from './answer.service.js';

const bot = (internet: boolean) => ({ botName: 'Blue Fern', prompt: null, internet }) as unknown as BotRow;
const passage: SearchHit = {
  chunk_id: 1,
  document_id: 1,
  source_type: 'web',
  page_title: 'Delivery',
  page_url: 'https://bakery.example/delivery',
  page_number: null,
  heading_path: 'Delivery',
  content: 'We deliver within 5 miles.',
  synced_at: null,
  score: 1,
  text_rank: 1,
  vector_distance: null,
};

describe('the instructions a model answers by', () => {
  it('ask a judging model to decline in one word when the sources do not answer', () => {
    const prompt = systemPrompt(bot(false), [passage], false, true);
    expect(prompt).toContain(`reply with exactly ${DECLINE} and nothing else`);
    expect(prompt).toContain('[1] Delivery (https://bakery.example/delivery)\nWe deliver within 5 miles.');
  });

  it('never ask to decline when the words showed an answer, nor a bot allowed general knowledge', () => {
    expect(systemPrompt(bot(false), [passage], false, false)).not.toContain(DECLINE);
    const general = systemPrompt(bot(true), [passage], false, true);
    expect(general).not.toContain(DECLINE);
    expect(general).toContain('you may add general knowledge');
  });

  it("hold a judging model's text back only while it may still be the word", () => {
    const streamed = (...deltas: string[]) => {
      const shown: string[] = [];
      const text = declinable((delta) => shown.push(delta));
      for (const delta of deltas) text.push(delta);
      return { shown: shown.join(''), declined: text.declined() };
    };
    expect(streamed(' NOT_', 'IN_SOURCES', '.')).toEqual({ shown: '', declined: true });
    expect(streamed('')).toEqual({ shown: '', declined: true });
    expect(streamed('No', 't before 9 am', ' [1].')).toEqual({
      shown: 'Not before 9 am [1].',
      declined: false,
    });
    expect(streamed('Yes', ', we deliver')).toEqual({ shown: 'Yes, we deliver', declined: false });
  });
});

describe('the passages a model reads', () => {
  const many = (count: number, words: number) =>
    Array.from({ length: count }, (_, i) => ({
      ...passage,
      chunk_id: i + 1,
      content: Array.from({ length: words }, () => 'bread').join(' '),
    }));

  it("are a small site's first eight, not five", () => {
    expect(passagesForModel(many(10, 60)).map((p) => p.chunk_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('stop at five full chunks of tokens, and always include the best one', () => {
    expect(passagesForModel(many(10, 800))).toHaveLength(5);
    expect(passagesForModel(many(3, 5000))).toHaveLength(1);
  });
});
