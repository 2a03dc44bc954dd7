import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import type { BotRow } from '../bots/bots.queries.js';
import { DECLINE, systemPrompt } from './answer.service.js';

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
});
