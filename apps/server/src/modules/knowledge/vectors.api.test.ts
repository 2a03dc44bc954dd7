import type { SearchResult, TrainingProgress } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../core/db/database.js';
import { insertBot } from '../../test/bots.js';
import { testDatabaseKind } from '../../test/database.js';
import { signupOwner } from '../../test/factories.js';
import { type EmbeddingsFake, startEmbeddingsFake } from '../../test/fakes/embeddings.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

const DIMENSIONS = 256;
const onPostgres = testDatabaseKind() === 'postgres';
const PAIRS = [
  ['What is your refund policy?', 'Refunds are accepted within 30 days of delivery with the receipt.'],
  ['How long does shipping take?', 'Orders arrive within 3 to 5 business days in Europe.'],
  ['Which payment methods do you take?', 'Cards, bank transfer and invoices for companies.'],
];

let fake: EmbeddingsFake;
let server: TestServer;
const as = (account: Account) => ({ token: account.access_token });

async function start(): Promise<void> {
  // The fake's synonyms stand in for what a real model knows: these words share none with the pairs.
  fake = await startEmbeddingsFake({
    dimensions: DIMENSIONS,
    synonyms: { reimbursement: 'refund', reimbursed: 'refund', rules: 'policy', money: 'refund' },
  });
  server = await startTestServer({
    env: {
      EMBEDDING_BASE_URL: fake.url,
      EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_API_KEY: fake.apiKey,
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    },
  });
}

async function stop(): Promise<void> {
  await server?.close();
  await fake?.close();
}

async function trainPairs(account: Account, pairs = PAIRS): Promise<number> {
  const botId = (await insertBot(server, account.user.tenant_id)).id;
  for (const [question, answer] of pairs) {
    await server.post('/api/qna/', { bot_id: botId, question, answer }, as(account));
  }
  await train(account, botId);
  return botId;
}

async function train(account: Account, botId: number): Promise<void> {
  const started = await server.post<{ task_id: string }>(
    `/api/training/train/qna/${botId}`,
    undefined,
    as(account),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const progress = await server.get<TrainingProgress>(
      `/api/training/train/progress/${started.body.task_id}`,
      as(account),
    );
    if (progress.body.status === 'failed') throw new Error(`training failed: ${progress.body.error}`);
    if (progress.body.status === 'completed') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('training did not finish');
}

const search = (account: Account, botId: number, query: string) =>
  server.post<SearchResult>(`/api/knowledge/search/${botId}`, { query }, as(account));

describe.skipIf(onPostgres)('vector search (PGlite; the PostgreSQL server here has no pgvector)', () => {
  let owner: Account;
  let botId: number;
  beforeAll(async () => {
    await start();
    owner = await signupOwner(server);
    botId = await trainPairs(owner);
  });
  afterAll(stop);

  it('stores one vector per chunk and searches in hybrid mode with vector distances', async () => {
    expect(server.database.vectors).toEqual({ enabled: true, dimensions: DIMENSIONS });
    const [counts] = await queryRows<{ chunks: number; vectors: number }>(
      server.database.db,
      sql`SELECT (SELECT count(*) FROM chunks WHERE collection_id = ${botId} AND source_type = 'qna')::int AS chunks,
                 (SELECT count(*) FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id
                   WHERE c.collection_id = ${botId} AND c.source_type = 'qna')::int AS vectors`,
    );
    expect(counts).toEqual({ chunks: 3, vectors: 3 });
    const found = await search(owner, botId, 'what is the refund policy');
    expect(found.status).toBe(200);
    expect(found.body.mode).toBe('hybrid');
    expect(found.body.hits[0]).toMatchObject({ page_title: 'What is your refund policy?' });
    expect(found.body.hits[0]?.vector_distance).toBeTypeOf('number');
    expect(found.body.hits[0]?.text_rank).toBeTypeOf('number');
  });

  it('finds a passage by meaning when the question shares none of its words', async () => {
    const found = await search(owner, botId, 'reimbursement rules?');
    expect(found.body.mode).toBe('hybrid');
    expect(found.body.hits[0]).toMatchObject({ page_title: 'What is your refund policy?', text_rank: null });
    expect(found.body.hits[0]?.vector_distance).toBeLessThan(0.9);
  });

  it('does not embed an unchanged pair again on re-training', async () => {
    const before = fake.inputs.length;
    await train(owner, botId);
    expect(fake.inputs.length).toBe(before);
  });

  it('falls back to full text when the embedding model fails at query time', async () => {
    fake.failWith = 503;
    try {
      const found = await search(owner, botId, 'what is the refund policy');
      expect(found.status).toBe(200);
      expect(found.body.mode).toBe('full-text');
      expect(found.body.hits[0]).toMatchObject({
        page_title: 'What is your refund policy?',
        vector_distance: null,
      });
    } finally {
      fake.failWith = null;
    }
  });

  it("never returns another tenant's chunks", async () => {
    const other = await signupOwner(server);
    const otherBot = await trainPairs(other, [
      ['Reimbursement rules', 'Other tenant: money back in 90 days.'],
    ]);
    const theirs = await queryRows<{ id: number }>(
      server.database.db,
      sql`SELECT id FROM chunks WHERE collection_id = ${otherBot} AND source_type = 'qna'`,
    );
    expect(theirs).toHaveLength(1);
    const found = await search(owner, botId, 'reimbursement rules money back');
    expect(found.body.mode).toBe('hybrid');
    expect(found.body.hits.map((h) => h.chunk_id)).not.toContain(theirs[0]!.id);
    // And the other tenant cannot search the owner's bot at all.
    expect((await search(other, botId, 'refund')).status).toBe(404);
  });
});

describe.runIf(onPostgres)('vector search configured on a PostgreSQL without pgvector', () => {
  beforeAll(start);
  afterAll(stop);

  it('starts, leaves vectors off and answers by full text', async () => {
    expect(server.database.vectors.enabled).toBe(false);
    const owner = await signupOwner(server);
    const botId = await trainPairs(owner);
    const found = await search(owner, botId, 'what is the refund policy');
    expect(found.status).toBe(200);
    expect(found.body.mode).toBe('full-text');
    expect(found.body.hits[0]).toMatchObject({
      page_title: 'What is your refund policy?',
      vector_distance: null,
    });
    expect(fake.inputs).toEqual([]);
  });
});
