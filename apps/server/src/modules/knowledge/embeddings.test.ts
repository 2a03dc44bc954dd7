import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddingsFake, startEmbeddingsFake } from '../../test/fakes/embeddings.js';
import { EmbeddingError, EmbeddingsClient } from './embeddings.js';

let fake: EmbeddingsFake;
beforeAll(async () => {
  fake = await startEmbeddingsFake({ dimensions: 16 });
});
afterAll(() => fake.close());

const client = (options: Partial<ConstructorParameters<typeof EmbeddingsClient>[0]> = {}) =>
  new EmbeddingsClient({ baseUrl: fake.url, model: 'm', apiKey: fake.apiKey, dimensions: 16, ...options });

describe('EmbeddingsClient', () => {
  it('embeds in batches, in order, with unit vectors of the configured length', async () => {
    const texts = Array.from({ length: 5 }, (_, i) => `text number ${i} apple`);
    const vectors = await client({ batchSize: 2 }).embed(texts);
    expect(vectors).toHaveLength(5);
    expect(vectors.every((v) => v.length === 16)).toBe(true);
    expect(fake.inputs.slice(-5)).toEqual(texts);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1);
  });

  it('refuses vectors of another length', async () => {
    await expect(client({ dimensions: 32 }).embed(['a'])).rejects.toThrow(
      /16 dimensions; EMBEDDING_DIMENSIONS is 32/,
    );
  });

  it('reports a refused key or a failing model without the key', async () => {
    const secret = 'sk-secret-value-that-must-not-leak';
    const refused = await client({ apiKey: secret })
      .embed(['a'])
      .catch((e: Error) => e);
    expect(refused).toBeInstanceOf(EmbeddingError);
    expect((refused as Error).message).toMatch(/answered 401/);
    expect((refused as Error).message).not.toContain(secret);
    fake.failWith = 503;
    await expect(client().embed(['a'])).rejects.toThrow(/answered 503/);
    fake.failWith = null;
  });

  it('times out a slow model', async () => {
    fake.delayMs = 500;
    await expect(client().embed(['a'], 50)).rejects.toThrow(/timed out after 50 ms/);
    fake.delayMs = 0;
  });
});
