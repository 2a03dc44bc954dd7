import { describe, expect, it } from 'vitest';
import { playgroundCaption } from './caption';

describe('the playground caption', () => {
  it('names no temperature for the built-in answerer, which has none', () => {
    expect(playgroundCaption({ llm_model: null, temperature: 1 })).toBe('Playground · built-in answers');
  });

  it("shows the temperature a bot's language model answers with", () => {
    expect(playgroundCaption({ llm_model: 'llama3.2', temperature: 0.4 })).toBe(
      'Playground · temperature 0.4',
    );
  });
});
