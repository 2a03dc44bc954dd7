import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type EmbeddingsFake = {
  /** Base URL to use as EMBEDDING_BASE_URL (ends in /v1). */
  url: string;
  apiKey: string;
  /** Every input text embedded, in order. */
  inputs: string[];
  /** Answer every request with this HTTP status (null: answer normally). */
  failWith: number | null;
  /** Wait this long before answering. */
  delayMs: number;
  close(): Promise<void>;
};

/**
 * An OpenAI-compatible embeddings API on loopback: POST /v1/embeddings answers deterministic
 * vectors, a hashed bag of words normalised to unit length, so texts sharing words are close.
 * `synonyms` maps words to the word they count as, giving the fake a notion of meaning that
 * full-text search lacks (a question with none of a passage's words can still be near it).
 */
export async function startEmbeddingsFake(
  options: { dimensions: number; synonyms?: Record<string, string> } = { dimensions: 64 },
): Promise<EmbeddingsFake> {
  const apiKey = 'fake-embedding-key';
  const embed = (text: string) => bagOfWords(text, options.dimensions, options.synonyms ?? {});
  const fake: EmbeddingsFake = {
    url: '',
    apiKey,
    inputs: [],
    failWith: null,
    delayMs: 0,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    void handle(req, res, fake, embed).catch(() => send(res, 500, { error: { message: 'fake failed' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  fake: EmbeddingsFake,
  embed: (text: string) => number[],
): Promise<void> {
  if (req.method !== 'POST' || req.url !== '/v1/embeddings')
    return send(res, 404, { error: { message: 'not found' } });
  if (req.headers.authorization !== `Bearer ${fake.apiKey}`) {
    return send(res, 401, { error: { message: 'Incorrect API key provided' } });
  }
  let raw = '';
  for await (const chunk of req) raw += chunk;
  if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
  if (fake.failWith !== null) return send(res, fake.failWith, { error: { message: 'model unavailable' } });
  const body = JSON.parse(raw) as { model?: string; input?: string | string[] };
  const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
  fake.inputs.push(...inputs);
  send(res, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  });
}

function bagOfWords(text: string, dimensions: number, synonyms: Record<string, string>): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = synonyms[raw] ?? raw;
    if (word.length < 3) continue;
    const slot = createHash('sha256').update(word).digest().readUInt32BE(0) % dimensions;
    vector[slot]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  // An empty text still needs a non-zero vector for cosine distance.
  return norm === 1 && vector.every((v) => v === 0)
    ? vector.map((_, i) => (i === 0 ? 1 : 0))
    : vector.map((v) => v / norm);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
