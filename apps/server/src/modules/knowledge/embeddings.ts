import type { Config } from '../../config.js';

/** Turns texts into vectors of a fixed length, in the order given. */
export type Embedder = {
  dimensions: number;
  /** `timeoutMs` bounds each request (default: the client's). */
  embed(texts: string[], timeoutMs?: number): Promise<number[][]>;
};

export type EmbeddingsOptions = {
  baseUrl: string;
  model: string;
  apiKey?: string;
  dimensions: number;
  batchSize?: number;
  timeoutMs?: number;
};

/** Raised for any failed embedding call; its message never holds the API key. */
export class EmbeddingError extends Error {}

type EmbeddingsReply = { data?: Array<{ index?: number; embedding?: unknown }> };

/** The configured embedding model, or null when EMBEDDING_BASE_URL or EMBEDDING_MODEL is unset. */
export function embedderFromConfig(config: Config): EmbeddingsClient | null {
  if (!config.EMBEDDING_BASE_URL || !config.EMBEDDING_MODEL) return null;
  return new EmbeddingsClient({
    baseUrl: config.EMBEDDING_BASE_URL,
    model: config.EMBEDDING_MODEL,
    apiKey: config.EMBEDDING_API_KEY,
    dimensions: config.EMBEDDING_DIMENSIONS,
  });
}

/** An OpenAI-compatible `POST {base}/embeddings` client (OpenAI, Ollama, vLLM, LM Studio...). */
export class EmbeddingsClient implements Embedder {
  readonly dimensions: number;
  private readonly url: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: EmbeddingsOptions) {
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.batchSize = options.batchSize ?? 64;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async embed(texts: string[], timeoutMs = this.timeoutMs): Promise<number[][]> {
    const vectors: number[][] = [];
    // Batched: providers cap inputs per request, and one huge request would hit the timeout.
    for (let i = 0; i < texts.length; i += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(i, i + this.batchSize), timeoutMs)));
    }
    return vectors;
  }

  private async embedBatch(input: string[], timeoutMs: number): Promise<number[][]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.options.model, input }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `timed out after ${timeoutMs} ms`
          : String((error as Error).message ?? error);
      throw new EmbeddingError(`Embedding request to ${this.url} failed: ${reason}`);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      throw new EmbeddingError(`Embedding request to ${this.url} answered ${response.status}: ${detail}`);
    }
    return this.vectorsOf((await response.json().catch(() => ({}))) as EmbeddingsReply, input.length);
  }

  private vectorsOf(reply: EmbeddingsReply, expected: number): number[][] {
    const data = reply.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbeddingError(
        `Embedding answer holds ${data?.length ?? 'no'} vectors, expected ${expected}`,
      );
    }
    // Providers may answer out of order; `index` says which input each vector belongs to.
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return sorted.map(({ embedding }) => {
      if (
        !Array.isArray(embedding) ||
        embedding.length !== this.dimensions ||
        !embedding.every(Number.isFinite)
      ) {
        const got = Array.isArray(embedding) ? embedding.length : 'no';
        throw new EmbeddingError(
          `Embedding model answered vectors of ${got} dimensions; EMBEDDING_DIMENSIONS is ${this.dimensions}`,
        );
      }
      return embedding as number[];
    });
  }
}

/** pgvector's text form of a vector, for a `$1::vector` parameter. */
export const vectorLiteral = (vector: number[]) => `[${vector.join(',')}]`;
