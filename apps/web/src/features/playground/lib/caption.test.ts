import { describe, expect, it } from 'vitest';
import { playgroundCaption } from './caption';

describe('the playground caption', () => {
  it('names no temperature for the built-in answerer, which has none', () => {
    expect(playgroundCaption({ llm_model: null, temperature: 1 })).toBe('Playground · built-in answers');
  });

  it("names the bot's language model and the temperature it answers with", () => {
    const models = [{ id: 7, name: 'Local llama', is_active: true }];
    expect(playgroundCaption({ llm_model: '7', temperature: 0.4 }, models)).toBe(
      'Playground · Local llama · temperature 0.4',
    );
  });

  it('says when the model is switched off, as the bot then answers without it', () => {
    const models = [{ id: 7, name: 'Local llama', is_active: false }];
    expect(playgroundCaption({ llm_model: '7', temperature: 0.4 }, models)).toBe(
      'Playground · Local llama is switched off: built-in answers',
    );
  });

  it('shows the temperature alone while the models load', () => {
    expect(playgroundCaption({ llm_model: '7', temperature: 0.4 })).toBe('Playground · temperature 0.4');
  });
});
