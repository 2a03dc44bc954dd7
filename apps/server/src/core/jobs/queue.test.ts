import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServerDatabase, dropServerDatabase } from '../../test/database.js';
import { type Database, openDatabase } from '../db/database.js';
import { jobs, tenants } from '../db/schema.js';
import { type JobContext, JobQueue, type JobQueueOptions, type Logger, percentage } from './queue.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const KINDS = ['pglite', 'postgres'] as const;
type Kind = (typeof KINDS)[number];

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped by `drop`. */
async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = await createServerDatabase();
  return { url, drop: () => dropServerDatabase(url) };
}

type Entry = { level: keyof Logger; msg: string | undefined; obj: object };

function recordingLogger(): Logger & { entries: Entry[] } {
  const entries: Entry[] = [];
  const at = (level: keyof Logger) => (obj: object, msg?: string) => void entries.push({ level, msg, obj });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => {});
const uniqueName = (label: string) => `${label}.${randomUUID().slice(0, 8)}`;
/** Every wait in these tests is bounded by this. */
const WAIT = { timeout: 4000, interval: 10 };

describe('percentage', () => {
  it('rounds to one decimal, clamps, and is 100 once completed', () => {
    expect(percentage('active', 1, 3)).toBe(33.3);
    expect(percentage('active', 2, 3)).toBe(66.7);
    expect(percentage('queued', 5, 0)).toBe(0);
    expect(percentage('active', 7, 5)).toBe(100);
    expect(percentage('completed', 0, 0)).toBe(100);
  });
});

describe.each(KINDS)('JobQueue on %s', (kind: Kind) => {
  const where = kind === 'postgres' ? 'TEST_DATABASE_URL' : 'in memory';
  describe.skipIf(kind === 'postgres' && !PG_URL)(where, () => {
    let database: Database;
    let drop: (() => Promise<void>) | undefined;
    const queues: JobQueue[] = [];

    beforeAll(async () => {
      if (kind === 'postgres') {
        const created = await createPgDatabase();
        drop = created.drop;
        database = await openDatabase({ kind: 'postgres', url: created.url });
      } else {
        database = await openDatabase({ kind: 'pglite' });
      }
    }, 60_000);

    afterEach(async () => {
      await Promise.all(queues.splice(0).map((queue) => queue.stop({ timeoutMs: 50 })));
      await database.db.delete(jobs);
    });

    afterAll(async () => {
      await database?.close();
      await drop?.();
    }, 30_000);

    function makeQueue(options: JobQueueOptions = {}): JobQueue {
      const queue = new JobQueue(database, {
        pollMs: 20,
        leaseMs: 2000,
        logger: recordingLogger(),
        ...options,
      });
      queues.push(queue);
      return queue;
    }

    async function row(id: string) {
      const [found] = await database.db.select().from(jobs).where(eq(jobs.id, id));
      if (!found) throw new Error(`job ${id} not found`);
      return found;
    }

    async function waitForStatus(id: string, status: string) {
      await vi.waitFor(async () => expect((await row(id)).status).toBe(status), WAIT);
      return row(id);
    }

    it('runs a job to completion with its progress visible through get', async () => {
      const name = uniqueName('progress');
      const queue = makeQueue();
      const halfway = deferred();
      const finish = deferred();
      const seen: JobContext<{ n: number }>[] = [];
      queue.register<{ n: number }>(name, async (job) => {
        seen.push(job);
        await job.progress(1, 3);
        halfway.resolve();
        await finish.promise;
        await job.progress(2, 3);
        return { sum: job.data.n + 1 };
      });
      const id = await queue.enqueue(name, { n: 41 });
      expect(await queue.get(id)).toMatchObject({ id, name, status: 'queued', percentage: 0, attempts: 0 });

      await queue.start();
      await halfway.promise;
      expect(await queue.get(id)).toMatchObject({
        status: 'active',
        current: 1,
        total: 3,
        percentage: 33.3,
        attempts: 1,
      });

      finish.resolve();
      await waitForStatus(id, 'completed');
      const done = await queue.get(id);
      expect(done).toMatchObject({ status: 'completed', current: 2, total: 3, percentage: 100, error: null });
      expect(new Date(done!.created_at).toISOString()).toBe(done!.created_at);
      expect(Date.parse(done!.updated_at)).toBeGreaterThanOrEqual(Date.parse(done!.created_at));
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ id, name, data: { n: 41 }, tenantId: null, attempt: 1 });
      const stored = await row(id);
      expect(stored.result).toEqual({ sum: 42 });
      expect(stored.completedAt).toBeInstanceOf(Date);
    });

    it('is woken by the NOTIFY of an enqueue from a queue that was never started', async () => {
      const name = uniqueName('wake');
      const worker = makeQueue({ pollMs: 60_000 });
      const ran = deferred<string>();
      worker.register(name, async (job) => ran.resolve(job.id));
      await worker.start();
      // Let the initial poll (which finds nothing) finish, so only the notification can start the job.
      await sleep(50);

      const producer = new JobQueue(database, { logger: recordingLogger() });
      const id = await producer.enqueue(name, {});
      const ranId = await Promise.race([ran.promise, sleep(3000).then(() => 'timed out')]);
      expect(ranId).toBe(id);
    });

    it('retries with exponential back-off and then succeeds', async () => {
      const name = uniqueName('retry');
      const queue = makeQueue();
      const startedAt: number[] = [];
      const errorsSeen: (string | null | undefined)[] = [];
      queue.register(
        name,
        async (job) => {
          startedAt.push(Date.now());
          if (job.attempt > 1) errorsSeen.push((await queue.get(job.id))?.error);
          if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
          return 'ok';
        },
        { backoffBaseMs: 100 },
      );
      const id = await queue.enqueue(name, {});
      await queue.start();

      const done = await waitForStatus(id, 'completed');
      expect(done.attempts).toBe(3);
      expect(done.error).toBeNull();
      expect(errorsSeen).toEqual(['boom 1', 'boom 2']);
      // Waits of 100 ms then 200 ms (a little slack for timer granularity).
      expect(startedAt[1]! - startedAt[0]!).toBeGreaterThanOrEqual(90);
      expect(startedAt[2]! - startedAt[1]!).toBeGreaterThanOrEqual(190);
      // The database's own clock: the last run_after is at least 100 + 200 ms after creation.
      expect(done.runAfter.getTime() - done.createdAt.getTime()).toBeGreaterThanOrEqual(299);
    });

    it('doubles the back-off on each failure, up to 10 minutes', async () => {
      const name = uniqueName('backoff');
      const log = recordingLogger();
      const queue = makeQueue({ logger: log });
      let calls = 0;
      queue.register(
        name,
        async () => {
          calls++;
          throw new Error('down');
        },
        { backoffBaseMs: 400_000 },
      );
      const id = await queue.enqueue(name, {}, { maxAttempts: 5 });
      await queue.start();
      // run_after and updated_at come from the same now(), so their gap is the delay exactly.
      const delay = async () => {
        const job = await waitForStatus(id, 'queued');
        return job.runAfter.getTime() - job.updatedAt.getTime();
      };

      await vi.waitFor(() => expect(calls).toBe(1), WAIT);
      expect(Math.abs((await delay()) - 400_000)).toBeLessThanOrEqual(1);
      // Skip the wait instead of sleeping through it.
      await database.db.update(jobs).set({ runAfter: sql`now()` }).where(eq(jobs.id, id));
      await vi.waitFor(() => expect(calls).toBe(2), WAIT);
      await vi.waitFor(async () => expect((await row(id)).attempts).toBe(2), WAIT);
      expect(Math.abs((await delay()) - 600_000)).toBeLessThanOrEqual(1);
      expect((await row(id)).error).toBe('down');
    });

    it('ends failed with the (truncated) error once attempts are exhausted', async () => {
      const name = uniqueName('exhaust');
      const queue = makeQueue();
      let calls = 0;
      queue.register(
        name,
        async () => {
          calls++;
          throw new Error(`bad input ${'x'.repeat(1500)}`);
        },
        { maxAttempts: 2, backoffBaseMs: 10 },
      );
      const id = await queue.enqueue(name, {});
      const once = await queue.enqueue(name, {}, { maxAttempts: 1 });
      await queue.start();

      const failed = await waitForStatus(id, 'failed');
      expect(failed.attempts).toBe(2);
      expect(failed.maxAttempts).toBe(2);
      expect(failed.error).toHaveLength(1000);
      expect(failed.error).toMatch(/^bad input x+$/);
      expect(failed.completedAt).toBeInstanceOf(Date);
      expect((await waitForStatus(once, 'failed')).attempts).toBe(1);
      await sleep(100);
      expect(calls).toBe(3);
      expect(await queue.get(id)).toMatchObject({ status: 'failed', attempts: 2, percentage: 0 });
    });

    it('scopes get to a tenant, so another tenant sees no job', async () => {
      const [a, b] = await database.db
        .insert(tenants)
        .values([{ name: 'A' }, { name: 'B' }])
        .returning();
      const queue = makeQueue();
      const owned = await queue.enqueue(uniqueName('tenant'), {}, { tenantId: a!.id });
      const platform = await queue.enqueue(uniqueName('tenant'), {});

      expect(await queue.get(owned, a!.id)).toMatchObject({ id: owned });
      expect(await queue.get(owned, b!.id)).toBeNull();
      expect(await queue.get(owned, null)).toBeNull();
      expect(await queue.get(owned)).toMatchObject({ id: owned });
      expect(await queue.get(platform, null)).toMatchObject({ id: platform });
      expect(await queue.get(platform, a!.id)).toBeNull();
      expect(await queue.get(randomUUID())).toBeNull();
      expect(await queue.get('not-a-uuid')).toBeNull();
      expect((await row(owned)).tenantId).toBe(a!.id);
    });

    it('hands a job held by a dead worker to another one once the lease expires, and it completes once', async () => {
      const name = uniqueName('dead');
      const dying = makeQueue({ workerId: 'dying', leaseMs: 300 });
      let dyingRuns = 0;
      dying.register(name, async () => {
        dyingRuns++;
        return never();
      });
      const id = await dying.enqueue(name, {});
      await dying.start();
      await vi.waitFor(() => expect(dyingRuns).toBe(1), WAIT);
      // Stopping without waiting abandons the handler: no more heartbeats, as if the process died.
      await dying.stop({ timeoutMs: 10 });
      const diedAt = Date.now();
      expect(await row(id)).toMatchObject({ status: 'active', lockedBy: 'dying', attempts: 1 });

      const heir = makeQueue({ workerId: 'heir' });
      const heirStarts: number[] = [];
      heir.register(name, async () => {
        heirStarts.push(Date.now());
        return 'heir';
      });
      await heir.start();

      const done = await waitForStatus(id, 'completed');
      expect(done).toMatchObject({ lockedBy: 'heir', attempts: 2, result: 'heir' });
      // Not taken before the lease ran out (300 ms from a heartbeat at most 100 ms before dying).
      expect(heirStarts[0]! - diedAt).toBeGreaterThanOrEqual(150);
      await sleep(150);
      expect(heirStarts).toHaveLength(1);
      expect(dyingRuns).toBe(1);
    });

    it('fails a reclaimed job that had already used its last attempt instead of running it', async () => {
      const name = uniqueName('dead-last');
      const dying = makeQueue({ workerId: 'dying', leaseMs: 150 });
      dying.register(name, never);
      const id = await dying.enqueue(name, {}, { maxAttempts: 1 });
      await dying.start();
      await waitForStatus(id, 'active');
      await dying.stop({ timeoutMs: 10 });

      const heir = makeQueue({ workerId: 'heir' });
      let heirRuns = 0;
      heir.register(name, async () => {
        heirRuns++;
      });
      await heir.start();

      const failed = await waitForStatus(id, 'failed');
      expect(failed.error).toMatch(/lease expired/);
      expect(failed.attempts).toBe(1);
      expect(heirRuns).toBe(0);
    });

    it.each([
      { ending: 'completes', heirId: 'heir' },
      { ending: 'fails', heirId: 'heir' },
      // The same worker id reclaiming: only the attempt number tells the two runs apart.
      { ending: 'completes', heirId: 'stale' },
    ] as const)(
      'a stale run that lost its lease cannot write when it $ending (new holder: $heirId)',
      async ({ ending, heirId }) => {
        const name = uniqueName('stale');
        const staleLog = recordingLogger();
        // A long lease: no heartbeat comes between the forced expiry and the takeover.
        // Concurrency 1, so the stale worker cannot reclaim the expired job itself.
        const stale = makeQueue({ workerId: 'stale', leaseMs: 30_000, concurrency: 1, logger: staleLog });
        const claimed = deferred<JobContext<unknown>>();
        const release = deferred();
        stale.register(
          name,
          async (job) => {
            claimed.resolve(job);
            await release.promise;
            await job.progress(9, 9);
            if (ending === 'fails') throw new Error('stale failure');
            return 'stale';
          },
          { backoffBaseMs: 10 },
        );
        const id = await stale.enqueue(name, {});
        await stale.start();
        const staleJob = await claimed.promise;

        // The stale worker stalls past its lease (a long GC pause, a network partition).
        await database.db.execute(
          sql`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = ${id}`,
        );
        const heir = makeQueue({ workerId: heirId });
        const heirClaimed = deferred();
        const heirRelease = deferred();
        heir.register(name, async (job) => {
          await job.progress(1, 2);
          heirClaimed.resolve();
          await heirRelease.promise;
          return 'heir';
        });
        await heir.start();
        await heirClaimed.promise;

        // The stale run wakes up and finishes while the new holder is still working.
        release.resolve();
        await vi.waitFor(() => expect(stale.activeCount).toBe(0), WAIT);
        expect(staleJob.signal.aborted).toBe(true);
        const untouched = { lockedBy: heirId, attempts: 2, error: null, current: 1, total: 2 };
        expect(await row(id)).toMatchObject({ status: 'active', result: null, ...untouched });

        heirRelease.resolve();
        expect(await waitForStatus(id, 'completed')).toMatchObject({ result: 'heir', ...untouched });
        expect(staleLog.entries.some((e) => e.level === 'warn' && /lost the lease/.test(e.msg ?? ''))).toBe(
          true,
        );
      },
    );

    it('runs at most `concurrency` handlers at once, across job names', async () => {
      const names = [uniqueName('conc-a'), uniqueName('conc-b')];
      const queue = makeQueue({ concurrency: 2 });
      const gate = deferred();
      let active = 0;
      let peak = 0;
      let finished = 0;
      for (const name of names) {
        queue.register(name, async () => {
          active++;
          peak = Math.max(peak, active);
          await gate.promise;
          active--;
          finished++;
        });
      }
      for (const name of names) for (let i = 0; i < 3; i++) await queue.enqueue(name, { i });
      await queue.start();

      await vi.waitFor(() => expect(active).toBe(2), WAIT);
      await sleep(150); // several poll intervals: nothing more may start
      expect(active).toBe(2);
      expect(queue.activeCount).toBe(2);
      expect(await database.db.$count(jobs, eq(jobs.status, 'active'))).toBe(2);

      gate.resolve();
      await vi.waitFor(() => expect(finished).toBe(6), WAIT);
      expect(peak).toBe(2);
    });

    it('enqueues atomically with a transaction: rollback leaves no job, commit wakes a worker', async () => {
      const name = uniqueName('tx');
      const worker = makeQueue({ pollMs: 60_000 });
      const ran: string[] = [];
      worker.register(name, async (job) => {
        ran.push(job.id);
      });
      await worker.start();
      await sleep(50);

      let rolledBack = '';
      await expect(
        database.db.transaction(async (tx) => {
          rolledBack = await worker.enqueue(name, { doomed: true }, { tx });
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(rolledBack).not.toBe('');
      expect(await worker.get(rolledBack)).toBeNull();

      const committed = await database.db.transaction((tx) =>
        worker.enqueue(name, { doomed: false }, { tx }),
      );
      // pollMs is a minute: only the NOTIFY sent at commit can have started it this soon.
      await waitForStatus(committed, 'completed');
      expect(ran).toEqual([committed]);
      expect(await database.db.select().from(jobs).where(eq(jobs.name, name))).toHaveLength(1);
    });

    it('keeps polling after a database error instead of crashing', async () => {
      const name = uniqueName('resilient');
      const log = recordingLogger();
      const queue = makeQueue({ logger: log });
      queue.register(name, async () => 'ok');
      // Make the claim query fail once, as a dropped connection would.
      const execute = vi.spyOn(database.db, 'execute').mockRejectedValueOnce(new Error('connection reset'));
      try {
        const id = await queue.enqueue(name, {});
        await queue.start();
        await waitForStatus(id, 'completed');
      } finally {
        execute.mockRestore();
      }
      expect(log.entries.some((e) => e.level === 'error' && /poll failed/.test(e.msg ?? ''))).toBe(true);
    });
  });
});

describe('JobQueue across a restart (PGlite on disk)', () => {
  let dataDir: string;
  let database: Database | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-jobs-'));
    database = await openDatabase({ kind: 'pglite', dataDir });
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs, once, a job enqueued before the database was closed', { timeout: 30_000 }, async () => {
    const name = 'restart.job';
    const id = await new JobQueue(database!, { logger: recordingLogger() }).enqueue(name, { keep: 'me' });
    await database!.close();
    database = undefined;

    database = await openDatabase({ kind: 'pglite', dataDir });
    const queue = new JobQueue(database, { pollMs: 20, logger: recordingLogger() });
    const runs: unknown[] = [];
    queue.register(name, async (job) => {
      runs.push(job.data);
    });
    await queue.start();
    try {
      await vi.waitFor(async () => expect((await queue.get(id))?.status).toBe('completed'), WAIT);
      await sleep(100);
      expect(runs).toEqual([{ keep: 'me' }]);
      expect(await queue.get(id)).toMatchObject({ attempts: 1, percentage: 100 });
    } finally {
      await queue.stop();
    }
  });
});
