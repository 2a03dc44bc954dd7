import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows, sql } from '../../core/db/database.js';
import { bots, qna, tenants } from '../../core/db/schema.js';
import {
  type JobHandler,
  JobQueue,
  type JobQueueOptions,
  type RegisterOptions,
} from '../../core/jobs/queue.js';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../../test/database.js';
import { QnaService, TRAIN_QNA_JOB } from '../qna/qna.service.js';
import { chunkSections } from './chunker.js';
import { removeDocument, replaceDocument } from './ingest.js';

const ON_POSTGRES = testDatabaseKind() === 'postgres';
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./training-worker.fixture.ts', import.meta.url));
const silent = { info: () => {}, warn: () => {}, error: () => {} };

let testDb: TestDatabase;
let tenantId: number;
const queues: JobQueue[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const [tenant] = await testDb.database.db.insert(tenants).values({ name: 'Recovery' }).returning();
  tenantId = tenant!.id;
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(queues.splice(0).map((queue) => queue.stop({ timeoutMs: 1000 })));
});
afterAll(() => testDb?.drop());

const db = () => testDb.database.db;

function makeQueue(options: JobQueueOptions = {}): JobQueue {
  const queue = new JobQueue(testDb.database, { pollMs: 20, leaseMs: 1000, logger: silent, ...options });
  queues.push(queue);
  return queue;
}

let botsMade = 0;
async function insertBot(): Promise<number> {
  botsMade += 1;
  const [bot] = await db()
    .insert(bots)
    .values({ tenantId, botName: `Trained ${botsMade}` })
    .returning();
  return bot!.id;
}

const WORDS = 'refund parcel warehouse invoice courier voucher receipt label tracking customs'.split(' ');

/**
 * `count` pairs whose answers are long enough for one to three chunks each, every paragraph
 * distinct; answers how many chunks training them must leave.
 */
async function seedPairs(botId: number, count: number): Promise<number> {
  const rows = Array.from({ length: count }, (_, i) => {
    const paragraphs = Array.from({ length: 10 + (i % 3) * 14 }, (_, p) =>
      Array.from({ length: 60 }, (_, w) => `${WORDS[(i + p + w) % WORDS.length]}${i}x${p}x${w}`).join(' '),
    );
    return { tenantId, botId, question: `Question ${i} of bot ${botId}?`, answer: paragraphs.join('\n\n') };
  });
  await db().insert(qna).values(rows);
  // What the handler stores for a pair: one section of question and answer.
  return rows.reduce((n, row) => n + chunkSections([{ text: `${row.question}\n\n${row.answer}` }]).length, 0);
}

type Stats = {
  chunks: number;
  documents: number;
  duplicate_positions: number;
  duplicate_contents: number;
  untrained: number;
};

/** The bot's Q&A chunks, and any doubles among them. */
async function stats(botId: number): Promise<Stats> {
  const [row] = await queryRows<Stats>(
    db(),
    sql`SELECT
      (SELECT count(*)::int FROM chunks WHERE tenant_id = ${tenantId} AND source_type = 'qna' AND collection_id = ${botId}) AS chunks,
      (SELECT count(*)::int FROM documents WHERE tenant_id = ${tenantId} AND source_type = 'qna' AND collection_id = ${botId}) AS documents,
      (SELECT count(*)::int FROM (
         SELECT 1 FROM chunks WHERE tenant_id = ${tenantId} AND source_type = 'qna' AND collection_id = ${botId}
         GROUP BY document_id, chunk_index HAVING count(*) > 1) d) AS duplicate_positions,
      (SELECT count(*)::int FROM (
         SELECT 1 FROM chunks WHERE tenant_id = ${tenantId} AND source_type = 'qna' AND collection_id = ${botId}
         GROUP BY content HAVING count(*) > 1) d) AS duplicate_contents,
      (SELECT count(*)::int FROM qna WHERE tenant_id = ${tenantId} AND bot_id = ${botId} AND NOT trained) AS untrained`,
  );
  return row!;
}

const enqueueTraining = (queue: JobQueue, botId: number) =>
  queue.enqueue(TRAIN_QNA_JOB, { botId }, { tenantId, maxAttempts: 3 });

async function waitForCompletion(queue: JobQueue, jobId: string, timeout = 60_000) {
  await vi.waitFor(
    async () => {
      const job = await queue.get(jobId);
      if (job?.status === 'failed') throw new Error(`training failed: ${job.error}`);
      expect(job?.status).toBe('completed');
    },
    { timeout, interval: 50 },
  );
  return (await queue.get(jobId))!;
}

type Hook = (attempt: number, current: number, total: number) => Promise<void>;

/** A job queue that runs `hook` after each progress report of its handlers (a crash, an edit meanwhile). */
class HookedQueue extends JobQueue {
  constructor(
    database: TestDatabase['database'],
    private readonly hook: Hook,
  ) {
    super(database, { pollMs: 20, leaseMs: 1000, logger: silent });
    queues.push(this);
  }

  override register<T>(name: string, handler: JobHandler<T>, options?: RegisterOptions): void {
    super.register<T>(
      name,
      (job) =>
        handler({
          ...job,
          progress: async (current, total) => {
            await job.progress(current, total);
            await this.hook(job.attempt, current, total);
          },
        }),
      options,
    );
  }
}

describe('training recovery', () => {
  it('retries a training whose first attempt died half-way and ends with each chunk once', async () => {
    const botId = await insertBot();
    const expected = await seedPairs(botId, 20);
    const queue = new HookedQueue(testDb.database, async (attempt, current, total) => {
      if (attempt === 1 && current === Math.floor(total / 2)) throw new Error('worker crashed half-way');
    });
    new QnaService(db(), queue).registerWorker();
    const jobId = await enqueueTraining(queue, botId);
    await queue.start();

    const done = await waitForCompletion(queue, jobId);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, current: 20, total: 20, percentage: 100 });
    expect(await stats(botId)).toEqual({
      chunks: expected,
      documents: 20,
      duplicate_positions: 0,
      duplicate_contents: 0,
      untrained: 0,
    });
  });

  it('leaves out a pair deleted while training runs, and trains an edited one with its new text', async () => {
    const botId = await insertBot();
    await seedPairs(botId, 4);
    const ids = (
      await db().select({ id: qna.id }).from(qna).where(eq(qna.botId, botId)).orderBy(asc(qna.id))
    ).map((row) => row.id);
    const queue = new HookedQueue(testDb.database, async (_attempt, current) => {
      if (current !== 1) return;
      // As QnaService.remove and update do, while the job is between pairs.
      await db().transaction(async (tx) => {
        await tx.delete(qna).where(eq(qna.id, ids[2]!));
        await removeDocument(tx, tenantId, 'qna', ids[2]!);
      });
      await db().update(qna).set({ answer: 'Edited meanwhile.', trained: false }).where(eq(qna.id, ids[3]!));
    });
    new QnaService(db(), queue).registerWorker();
    const jobId = await enqueueTraining(queue, botId);
    await queue.start();

    expect(await waitForCompletion(queue, jobId)).toMatchObject({ status: 'completed', percentage: 100 });
    const trained = await queryRows<{ source_id: number; content: string }>(
      db(),
      sql`SELECT d.source_id, c.content FROM documents d JOIN chunks c ON c.document_id = d.id
          WHERE d.tenant_id = ${tenantId} AND d.source_type = 'qna' AND d.collection_id = ${botId}
          ORDER BY d.source_id, c.chunk_index`,
    );
    expect(trained.map((row) => row.source_id)).not.toContain(ids[2]);
    expect(trained.filter((row) => row.source_id === ids[3]).map((row) => row.content)).toEqual([
      `Question 3 of bot ${botId}?\n\nEdited meanwhile.`,
    ]);
    expect(await stats(botId)).toMatchObject({ documents: 3, duplicate_positions: 0, untrained: 0 });
  });

  it.skipIf(!ON_POSTGRES)(
    'finishes with each chunk once when its worker process is SIGKILLed mid-job',
    async () => {
      const botId = await insertBot();
      const pairs = 150;
      const expected = await seedPairs(botId, pairs);
      // The child worker holds every transaction open 40 ms before committing: about 6 s of work.
      const worker = spawnWorker(testDb.url!, { leaseMs: 1500, commitDelayMs: 40 });
      await worker.ready;
      const observer = makeQueue();
      const jobId = await enqueueTraining(observer, botId);

      // Kill it once it has committed some pairs and is in the middle of writing another.
      await vi.waitFor(
        async () => {
          const job = await observer.get(jobId);
          expect(job?.status).toBe('active');
          expect(job?.current).toBeGreaterThanOrEqual(20);
          const [open] = await queryRows<{ n: number }>(
            db(),
            sql`SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND state = 'idle in transaction'`,
          );
          expect(open!.n).toBeGreaterThan(0);
        },
        { timeout: 30_000, interval: 5 },
      );
      worker.child.kill('SIGKILL');
      expect(await worker.exited).toMatchObject({ signal: 'SIGKILL' });

      const orphaned = await observer.get(jobId);
      expect(orphaned).toMatchObject({ status: 'active', attempts: 1 });
      expect(orphaned!.current).toBeLessThan(pairs);
      const left = await stats(botId);
      expect(left.chunks).toBeGreaterThan(0);
      expect(left.chunks).toBeLessThan(expected);
      expect(left).toMatchObject({ duplicate_positions: 0, duplicate_contents: 0 });

      // A worker comes back (in this process): it reclaims the job once the dead one's lease expires.
      const successor = makeQueue({ leaseMs: 1000 });
      new QnaService(db(), successor).registerWorker();
      await successor.start();
      const done = await waitForCompletion(observer, jobId);
      expect(done).toMatchObject({
        status: 'completed',
        attempts: 2,
        current: pairs,
        total: pairs,
        percentage: 100,
        error: null,
      });
      expect(await stats(botId)).toEqual({
        chunks: expected,
        documents: pairs,
        duplicate_positions: 0,
        duplicate_contents: 0,
        untrained: 0,
      });
    },
    90_000,
  );

  it.skipIf(!ON_POSTGRES)(
    'lets two workers write the same new source at once: one document, its chunks once',
    async () => {
      const botId = await insertBot();
      const input = {
        tenantId,
        sourceType: 'qna' as const,
        sourceId: 900_000 + botId,
        collectionId: botId,
        title: 'Raced',
        sections: [{ text: 'Both workers index this text at the same moment.' }],
      };
      // A stale worker that lost its lease and its successor: both transactions find no document.
      const results = await Promise.all([
        db().transaction((tx) => replaceDocument(tx, input)),
        db().transaction((tx) => replaceDocument(tx, input)),
      ]);
      expect(results[0].documentId).toBe(results[1].documentId);
      expect(results.map((r) => r.unchanged).sort()).toEqual([false, true]);
      expect(await stats(botId)).toMatchObject({ chunks: 1, documents: 1, duplicate_positions: 0 });
    },
  );
});

/** The worker fixture in its own Node process (tsx compiles the TypeScript). */
function spawnWorker(url: string, options: { leaseMs: number; commitDelayMs: number }) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, url, String(options.leaseMs), String(options.commitDelayMs)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (data) => {
    stderr += data;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (data) => {
      if (String(data).includes('ready')) resolve();
    });
    void exited.then(({ code }) =>
      reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  return { child, ready, exited };
}
